# The viewer's hot swap under Xvfb: X on a selected Counter (swapstress serve: four threads add to
# it) swaps it to DCounter; the status line gives the phases, the tree marks the object, the
# panes' time axes mark the swap; a second viewer, observing, sees the first one's swap pushed
# (SWAPPED) and marks it too; an observer's X is refused, the object left as it was; X on the
# kernel's page manager swaps it (pid 0).
source "$(dirname "$0")/lib.bash"
VIEWER=build/asan/kov-viewer
[ -x "$VIEWER" ] && export ASAN_OPTIONS=detect_leaks=0 || VIEWER=build/host/kov-viewer
[ -x "$VIEWER" ] || fail "$VIEWER is not built"
OUT=$(mktemp) OUT2=$(mktemp) PNG=$(mktemp --suffix=.png) PNG2=$(mktemp --suffix=.png)
PORT=$(free_port)
boot_bg --parallel --cpus 2 --port "$PORT" --timeout 100 --append "dci.token=s3cret" \
	--workload "swapstress:serve:60:4"
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT" "$OUT2" "$PNG" "$PNG2"' EXIT
wait_for '^dcid: listening' 40
wait_for '^swapstress: serving a Counter' 40

# The observer first, for long enough to see the controller's swap arrive.
xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" --select DCounter \
	--screenshot "$PNG2" --after 14 >"$OUT2" 2>&1 &
observer=$!
sleep 3
xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" --token s3cret \
	--config sim/demo.pmu --select Counter --keys x --screenshot "$PNG" --after 6 >"$OUT" 2>&1 || fail "the viewer exited $?: $(cat "$OUT")"
grep -a '^viewer: \(status\|swaps\)' "$OUT"
grep -aqE '^viewer: status: pid [0-9]+ object 0x[0-9a-f]+: Counter -> DCounter; drain [0-9.]+ ms, block [0-9.]+ ms, [0-9]+ calls held$' "$OUT" \
	|| fail "the controller's viewer did not swap: $(cat "$OUT")"
grep -aqE '^viewer: swaps: marks=1 drawn=[1-9]' "$OUT" || fail "no swap mark on the time axis: $(cat "$OUT")"
python3 tests/qemu/png_check.py "$PNG" 1280 800 || fail "screenshot check"
grep -aq 'dcid: swap of pid [0-9]* object [0-9]* to DCounter by client [0-9]*: swapped (Counter)' "$LOG" || fail "SWAP not sent"
wait "$observer" || fail "the observer's viewer exited: $(cat "$OUT2")"
grep -a '^viewer: \(status\|swaps\)' "$OUT2"
grep -aqE '^viewer: swaps: marks=1 drawn=[1-9]' "$OUT2" || fail "the observer did not mark the pushed swap: $(cat "$OUT2")"

# An observer's X: refused, nothing sent.
xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" --select DCounter \
	--keys x --screenshot "$PNG" --after 4 >"$OUT" 2>&1 || fail "the observer's viewer exited $?"
grep -aq '^viewer: status: a hot swap needs the controller role (--token)$' "$OUT" || fail "an observer's X: $(cat "$OUT")"
[ "$(grep -ac 'dcid: swap of' "$LOG")" = 1 ] || fail "an observer's X reached the daemon"

# The kernel's page manager is swapped the same way (pid 0).
xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" --token s3cret \
	--select PMPerCPU --keys x --screenshot "$PNG" --after 3 >"$OUT" 2>&1 || fail "the viewer exited $?: $(cat "$OUT")"
grep -a '^viewer: status' "$OUT"
grep -aqE '^viewer: status: pid 0 object 0xd000000000000020: PMPerCPU -> PM; drain [0-9.]+ ms, block [0-9.]+ ms, [0-9]+ calls held$' "$OUT" \
	|| fail "the kernel's page manager was not swapped: $(cat "$OUT")"
echo "viewer_swap: passed"

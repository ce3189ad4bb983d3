# The viewer's flame graph and callers view (G, W) under Xvfb against chainbench's known call
# paths (sim/workloads/chainbench.c): configured with 32-frame chains, the viewer live and then
# a recording replayed draw main -> chain_a -> chain_b -> chain_c -> ChainBench::spinner_spin_body
# (user frames) and chain_read's FILE_READ crossing into the kernel (kernel frames); the boxes'
# samples agree with kovctl export's folded stacks of the same recording; the ChainBench
# object's only caller is chain_c (shares summing to 100%); a search's matched share is its
# box's; a click zooms a box to the full width; the pointer's box is described; a recording
# without chains says how to configure them. Each screenshot is a PNG that is not blank
# (KEEP_SHOTS=DIR keeps the last, zoomed and callers screenshots there, to look at).
source "$(dirname "$0")/lib.bash"

VIEWER=build/asan/kov-viewer
[ -x "$VIEWER" ] && export ASAN_OPTIONS=detect_leaks=0 || VIEWER=build/host/kov-viewer
[ -x "$VIEWER" ] || fail "$VIEWER is not built"
KOVCTL=build/host/kovctl
DIR=$(mktemp -d)
OUT=$DIR/out PNG=$DIR/shot.png CONF=$DIR/conf REC=$DIR/chains.kov PLAIN=$DIR/plain.kov
PORT=$(free_port)
boot_bg --port "$PORT" --timeout 120 --append "dci.token=s3cret" --workload chainbench
trap 'kill -- -$SIM_PID 2>/dev/null; rm -rf "$LOG" "$DIR"' EXIT
wait_for '^dcid: listening' 60
wait_for 'chainbench: pid' 30

k() { "$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 "$@" >"$OUT" 2>&1 || { cat "$OUT"; fail "kovctl $*"; }; }
shot() { # seconds viewer-args...: the screenshot and the report in $OUT
	local after=$1; shift
	xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" "$@" --screenshot "$PNG" --after "$after" \
		>"$OUT" 2>&1 || fail "viewer $* exited $?: $(tail -n 20 "$OUT")"
	cp "$PNG" "$DIR/last.png"
}
# The PNG is 1280 x 800 and not blank (tests/qemu/png_check.py).
png_ok() {
	python3 tests/qemu/png_check.py "$PNG" 1280 800 || fail "screenshot check: $(head -n 3 "$OUT")"
}

# The flame graph's paths, not the sample rate: the cost bound off, as in chains.sh (a sample
# every 20,000 instructions with 32-frame chains is near its 10% on its own, and on the serial
# machine the bound went to x4096 (measuring 42% at x32: QEMU's turns inside handlers, likely) and
# left a dozen samples).
k --token s3cret throttle --limit off
printf 'chains 32\ncount kernel user\ngroup all 100\n  PM_INST_CMPL 20000\n' >"$CONF"
k --token s3cret configure "$CONF"
k --token s3cret start --interval 100
for _ in $(seq 20); do   # the daemon names the object once a scan lists it (chains.sh)
	k scan --class ChainBench
	grep -q '^  ChainBench ' "$OUT" && break
	sleep 0.5
done
grep -q '^  ChainBench ' "$OUT" || fail "no scan lists the ChainBench object"

# Live: the process's flame graph (G from the whole target to the selected object's process),
# symbolized through the target's symbol tables.
shot 8 --target 127.0.0.1:"$PORT" --view flame --select ChainBench --keys g
png_ok
python3 tests/qemu/viewer_flame_check.py live "$OUT" || fail "live: $(grep 'flame: ' "$OUT")"

k record --out "$REC" --seconds 3
# The same target without chains, for what the view says then.
printf 'count kernel user\ngroup all 100\n  PM_INST_CMPL 20000\n' >"$CONF"
k --token s3cret stop
k --token s3cret configure "$CONF"
k --token s3cret start --interval 100
k record --out "$PLAIN" --seconds 2
kill -- -"$SIM_PID" 2>/dev/null
"$KOVCTL" export "$REC" --format folded --out "$DIR/folded" >"$OUT" 2>&1 || fail "export: $(cat "$OUT")"

# Replayed: every box against the export's stacks of the same recording.
shot 7 --replay "$REC" --view flame --select ChainBench --keys g
png_ok
cp "$OUT" "$DIR/process.txt"
python3 tests/qemu/viewer_flame_check.py process "$OUT" "$DIR/folded" || fail "process: $(grep 'flame: ' "$OUT")"
# The pointer on chain_b, then a click on chain_c: where the last shot drew them.
at() { python3 tests/qemu/viewer_flame_check.py at "$DIR/process.txt" "$1"; }
shot 7 --replay "$REC" --view flame --select ChainBench --keys g --hover "$(at chain_b)" --click "$(at chain_c)"
png_ok
python3 tests/qemu/viewer_flame_check.py zoom "$OUT" "$DIR/process.txt" || fail "zoom and hover: $(grep 'flame: \|hover' "$OUT")"
cp "$PNG" "$DIR/zoom.png"
# Search: typed after /, its matched share is chain_b's.
shot 7 --replay "$REC" --view flame --select ChainBench --keys "g/CHAIN_B"$'\r'
png_ok
python3 tests/qemu/viewer_flame_check.py search "$OUT" || fail "search: $(grep 'flame: ' "$OUT")"
# The callers of the ChainBench object.
shot 7 --replay "$REC" --view callers --select ChainBench
png_ok
python3 tests/qemu/viewer_flame_check.py callers "$OUT" "$DIR/folded" || fail "callers: $(grep 'caller' "$OUT")"
cp "$PNG" "$DIR/callers.png"
# No chains: the view says how to get them.
shot 5 --replay "$PLAIN" --view flame
png_ok
grep -q '^viewer: flame: open=1 .* chained=0 .*note="No call chains: .*Configure `chains N`' "$OUT" ||
	fail "without chains the view does not say how to get them: $(grep 'flame: ' "$OUT")"
[ -n "${KEEP_SHOTS:-}" ] && cp "$DIR"/*.png "$KEEP_SHOTS"/
echo "viewer_flame: $(grep -c '^viewer: flame box' "$DIR/process.txt") boxes checked against the export"
exit 0

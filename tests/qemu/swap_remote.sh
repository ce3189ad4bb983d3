# Hot swaps asked for over the DCI (kovctl swap, protocol 1.6 SWAP/SWAPPED): four threads add
# to a shared Counter (swapstress serve) while kovctl swaps it to the per-CPU DCounter and back
# (each answered with its phases' times and the calls held), an observer sees the SWAPPED
# events, /metrics counts the swaps; the refusals leave the object as it was: a class of
# another state format, a class nobody registered, a kernel object, an observer asking; and
# the counter's final total equals the adds its threads made. On both kinds of machine.
source "$(dirname "$0")/lib.bash"
source "$(dirname "$0")/swap_lib.bash"

check_machine() { # sim/run options...
	PORT=$(free_port) MPORT=$(free_port)
	boot_bg --port "$PORT" --metrics-port "$MPORT" --timeout 120 --append "dci.token=s3cret" \
		--workload "swapstress:serve:45:4" "$@"
	trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
	wait_for '^dcid: listening' 40
	wait_for '^swapstress: serving a Counter' 40
	swapstress_counter

	# An observer watching the stream sees every swap as a SWAPPED event.
	python3 - "$PORT" >"$OUT.events" 2>&1 <<'PY' &
import socket, sys, time
sys.path.insert(0, "tests/qemu")
import kovproto as k
c = k.Conn(int(sys.argv[1]))
c.handshake(minor=6)
c.sock.settimeout(1)
end = time.time() + 15
while time.time() < end:
    try:
        f = c.recv_frame()
    except socket.timeout:
        continue
    if f is None:
        break
    if f[0] == k.SWAPPED:
        d = k.swapped(f[3])
        print("SWAPPED %s -> %s result=%d held=%d" % (d["from"], d["to"], d["result"], d["held"]))
PY
	watcher=$!
	sleep 1
	for to in DCounter Counter DCounter; do
		ctl swap --pid "$pid" --coid "$coid" --to "$to"
		[ "$RC" = 0 ] || { cat "$OUT"; fail "swap to $to exited $RC"; }
		out_has "^pid $pid object $coid: [A-Za-z]+ -> $to; forward [0-9.]+ ms, block [0-9.]+ ms, transfer [0-9.]+ ms; [0-9]+ calls forwarded, [0-9]+ held\$"
		cat "$OUT"
	done
	ctl swap --pid "$pid" --coid "$coid" --to Probe --json
	[ "$RC" = 1 ] || fail "a swap to a class nobody registered in that process exited $RC"
	grep -q '"result": "no swappable implementation of one of the classes"' "$OUT" || { cat "$OUT"; fail "unregistered class"; }
	ctl swap --pid 0 --coid 0xd000000000000010 --to Counter
	[ "$RC" = 1 ] && out_has "kernel's objects cannot be hot-swapped yet"
	k swap --pid "$pid" --coid "$coid" --to Counter
	[ "$RC" = 3 ] || { cat "$OUT"; fail "an observer's swap exited $RC"; }
	k scan --pid "$pid" --class DCounter
	out_has 'DCounter'
	wait "$watcher"
	cat "$OUT.events"
	[ "$(grep -c '^SWAPPED .* result=0' "$OUT.events")" = 3 ] || fail "the observer saw $(grep -c '^SWAPPED' "$OUT.events") SWAPPED events, not 3 successful ones"
	curl -s "http://127.0.0.1:$MPORT/metrics" >"$OUT"
	out_has '^kov_swaps_total 3$'
	out_has '^kov_swaps_failed_total [1-9]'
	wait_for '^swapstress: (passed|FAILED)$' 90
	expect '^swapstress: served: ([0-9]+) adds, total \1; now a DCounter$'
	expect '^swapstress: passed$'
	kill -- -"$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null
}
check_machine --serial --cpus 2
check_machine --parallel --cpus 2
rm -f "$OUT" "$OUT.events"
echo "swap_remote: passed"

# Shared by the tests that drive hot swaps with kovctl (swap_remote*.sh, optimize.sh), sourced
# after lib.bash: kovctl against the booted target on $PORT, and swapstress's Counter.
KOVCTL=build/asan/kovctl
[ -x "$KOVCTL" ] || KOVCTL=build/host/kovctl
OUT=$(mktemp)

# Runs kovctl; its stdout and stderr go to $OUT, its exit status to $RC. ctl: as controller.
k() { "$KOVCTL" --target "127.0.0.1:$PORT" --timeout 15 "$@" >"$OUT" 2>&1; RC=$?; }
ctl() { k --token s3cret "$@"; }
out_has() { grep -qE -- "$1" "$OUT" || { cat "$OUT"; fail "expected /$1/ from kovctl"; }; }

# jbb's structural hot spot on the parallel machine (optimize_jbb.sh, optimize_phases.sh): every
# transaction on warehouse 0, a coarse Warehouse, 6 terminals on 2 CPUs, plus jbb-options;
# booted and running, with hot set to warehouse 0's COID.
boot_hot_jbb() { # timeout jbb-options
	PORT=$(free_port)
	boot_bg --parallel --cpus 2 --port "$PORT" --timeout "$1" --append "dci.token=s3cret" \
		--workload "jbb:hot=100:terminals=6:warehouses=2:locks=coarse:$2"
	trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
	wait_for '^dcid: listening' 40
	wait_for '^jbb: t=[0-9]+ ms tps=[1-9]' 30
	hot=$(grep -a '^jbb: warehouse 0 (hot) is object' "$LOG" | tr -d '\r' | sed 's/.* object //')
}

# Sets pid and coid to those of the Counter swapstress serves (it may be a DCounter by now).
swapstress_counter() {
	k scan --json
	read -r pid coid < <(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
for p in d["processes"]:
    for o in p.get("objects", []):
        if o["class"] in ("Counter", "DCounter") and p["name"] == "swapstress":
            print(p["pid"], o["coid"]); raise SystemExit' "$OUT")
	[ -n "${coid:-}" ] || { cat "$OUT"; fail "no Counter of swapstress in the scan"; }
}

# The remote-swap check on one machine (swap_remote.sh, swap_remote_parallel.sh): four threads add
# to a shared Counter (swapstress serve) while kovctl swaps it to the per-CPU DCounter and back
# (each answered with its phases' times and the calls held), an observer sees the SWAPPED events,
# /metrics counts the swaps; the refusals leave the object as it was: a class nobody registered,
# a kernel object, an observer asking; the counter's final total equals the adds made.
swap_remote_check() { # sim/run options...
	PORT=$(free_port) MPORT=$(free_port)
	boot_bg --port "$PORT" --metrics-port "$MPORT" --timeout 120 --append "dci.token=s3cret" \
		--workload "swapstress:serve:25:4" "$@"
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
print("ready", flush=True)
c.sock.settimeout(1)
end = time.time() + 20
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
	for _ in $(seq 100); do grep -q '^ready$' "$OUT.events" 2>/dev/null && break; sleep 0.1; done
	grep -q '^ready$' "$OUT.events" || fail "the observer did not get through its handshake"
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
	[ "$RC" = 1 ] || { cat "$OUT"; fail "a kernel object's swap to a class the kernel has not exited $RC"; }
	out_has '^pid 0 object 0xd000000000000010: not swapped \(Counter\): '
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

# swapstress's refusals and stress on one machine (swap.sh, swap_parallel.sh).
run_stress() { # swaps threads sim/run-args...
	local swaps=$1 threads=$2; shift 2
	timeout 600 sim/run "$@" --timeout 580 --run swapstress "$swaps" "$threads" </dev/null >"$LOG" 2>&1
	local rc=$?
	grep -a '^swapstress:' "$LOG"
	[ "$rc" = 0 ] || fail "swapstress $swaps $threads ($*) exited $rc"
	expect '^swapstress: asleep inside: timed out: calls begun before the swap did not finish after [0-9]+ ms, [1-9][0-9]* walks$'
	expect '^swapstress: asleep outside: swapped in [0-9]+ us, [1-9][0-9]* walks$'
	expect "^swapstress: $swaps swaps by $threads threads' adds: $swaps succeeded; [1-9][0-9]* calls held, [0-9]+ forwarded; ([0-9]+) adds, total \\1; now a (Counter|DCounter)\$"
	expect_not 'swapstress: FAIL'
	expect '^swapstress: passed$'
}

# The kernel's page manager swapped between its single (PM) and per-CPU (PMPerCPU) classes, back
# and forth, while pagestorm faults pages in on every CPU (swap_pm.sh, swap_pm_parallel.sh):
# every swap succeeds and says its phases; the scan shows the class of the last one; pagestorm's
# processes all succeed, and its own count of the pages neither free nor the heap's nor the page
# manager's is the same after the storm as before it (a frame lost or freed twice in a transfer
# changes it); /metrics counts the swaps.
pm_swap_check() { # first-class rounds sim/run-options...
	local first=$1 rounds=$2 to n=0
	shift 2
	PORT=$(free_port) MPORT=$(free_port)
	local pm=percpu
	[ "$first" = PM ] && pm=single
	boot_bg --port "$PORT" --metrics-port "$MPORT" --timeout 115 --append "dci.token=s3cret pm=$pm" \
		--workload "pagestorm:4:16:$rounds" "$@"
	trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
	wait_for '^dcid: listening' 40
	local coid=0xd000000000000020
	k scan --pid 0 --class "$first"
	out_has "$coid"
	to=$first
	while ! grep -aq '^pagestorm: after:' "$LOG"; do
		[ "$to" = PM ] && to=PMPerCPU || to=PM
		ctl swap --pid 0 --coid "$coid" --to "$to"
		[ "$RC" = 0 ] || { cat "$OUT"; fail "swap $((n + 1)) (to $to) exited $RC"; }
		out_has "^pid 0 object $coid: [A-Za-z]+ -> $to; forward [0-9.]+ ms, block [0-9.]+ ms, transfer [0-9.]+ ms; [0-9]+ calls forwarded, [0-9]+ held\$"
		[ "$n" -lt 2 ] && cat "$OUT"
		n=$((n + 1))
	done
	echo "$n swaps during the storm, the last to $to"
	[ "$n" -ge 10 ] || fail "only $n swaps during the storm"
	k scan --pid 0 --class "$to"
	out_has "$coid"
	curl -s "http://127.0.0.1:$MPORT/metrics" >"$OUT"
	out_has "^kov_swaps_total $n\$"
	expect "^pagestorm: $((rounds * 4)) processes, .* 0 failed\$"
	grep -a '^pagestorm: \(before\|after\):' "$LOG"
	local before after
	before=$(grep -a '^pagestorm: before:' "$LOG" | sed 's/.*, \([0-9]*\) pages elsewhere.*/\1/')
	after=$(grep -a '^pagestorm: after:' "$LOG" | sed 's/.*, \([0-9]*\) pages elsewhere.*/\1/')
	[ -n "$before" ] && [ "$before" = "$after" ] ||
		fail "pages neither free nor the heap's nor the page manager's: $before before the storm, $after after"
	kill -- -"$SIM_PID" 2>/dev/null; wait "$SIM_PID" 2>/dev/null
}

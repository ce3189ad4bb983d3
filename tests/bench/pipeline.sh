# shellcheck shell=bash
# Sourced by tests/bench/run (make bench) and tools/peer-bench/run (make peer-bench), from the
# top of the tree: a target in the background, and the sample pipeline's cost end to end.

median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts a target in the background on a free port, its console in TARGET_LOG (default
# build/bench/target.log), and waits for a console line matching WAIT_FOR; sets PORT and
# TARGET (process group).
start_target() { # sim/run-args...
	TARGET_LOG=${TARGET_LOG:-build/bench/target.log}
	mkdir -p "$(dirname "$TARGET_LOG")"
	PORT=$(free_port)
	setsid sim/run --port "$PORT" "$@" </dev/null >"$TARGET_LOG" 2>&1 &
	TARGET=$!
	for _ in $(seq 300); do
		grep -a -qE "$WAIT_FOR" "$TARGET_LOG" && return 0
		sleep 0.1
	done
	echo "  target did not come up"; return 1
}
stop_target() { kill -- -"$TARGET" 2>/dev/null; wait "$TARGET" 2>/dev/null; }

# The sample pipeline end to end, in instructions (-icount, 1 CPU: the overflow handler, the
# drain, dcid's encoding and lwIP's sending all run on the CPU spinbench runs on, so each
# round's extra virtual time is theirs): spinbench rounds unmonitored, then sampled every
# 20,000 instructions (kernel and user) and streamed to `kovctl record` with the cost bound
# off. Samples per round = the samples delivered per virtual ns (the recording's samples over
# the span of their timebases) times a round's virtual ns: QEMU's instruction counter sees only
# part of what it executes in call-heavy code (about 0.58 of spinbench's, kmcheck pmc5), so
# the round's instructions / 20,000 would overstate the samples. Instructions per delivered
# sample = the extra per round / samples per round (none lost); bytes per sample = the
# recording's bytes / its samples. Prints two lines; with OUT, also writes them as one line of
# fields to OUT (per_sample= bytes_per_sample= samples= lost= dropped= off= on=).
pipeline_cost() { # OUT [more sim/run args, e.g. --cpu POWER8]
	local out=$1; shift
	local conf rec json k n0 n1 n2 off on
	conf=$(mktemp) rec=$(mktemp) json=$(mktemp)
	printf 'slice 10000 us\ngroup g 100\n  PM_INST_CMPL 20000\n' >"$conf"
	WAIT_FOR='^spinbench: round 4 done' start_target --icount --cpus 1 --timeout 300 --append dci.token=B \
		"$@" --workload spinbench:2000000:1:100000 || { stop_target; rm -f "$conf" "$rec" "$json"; return; }
	k=(build/host/kovctl --target "127.0.0.1:$PORT" --token B --timeout 60)
	"${k[@]}" throttle --limit off >/dev/null
	sleep 3
	n0=$(grep -a -c '^spinbench: round' "$TARGET_LOG")
	"${k[@]}" configure "$conf" >/dev/null && "${k[@]}" start --streams samples >/dev/null
	n1=$(grep -a -c '^spinbench: round' "$TARGET_LOG")
	"${k[@]}" --json record --out "$rec" --seconds 8 >"$json"
	n2=$(grep -a -c '^spinbench: round' "$TARGET_LOG")
	"${k[@]}" stop >/dev/null
	rounds() { grep -a '^spinbench: round' "$TARGET_LOG" | sed -n "$1,$2p" | sed -n 's/.* done in \([0-9]*\) ns.*/\1/p' | median; }
	off=$(rounds 2 "$n0") on=$(rounds "$((n1 + 2))" "$n2")
	local hz; hz=$("${k[@]}" --json info | python3 -c 'import json, sys; print(json.load(sys.stdin)["timebase_hz"])')
	build/host/kovctl --json replay "$rec" >"$json.replay"
	python3 - "$json" "$off" "$on" "$hz" "$json.replay" "$out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = json.load(open(sys.argv[5]))
off, on, hz = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
span_ns = (r["last_timebase"] - r["first_timebase"]) * 1e9 / hz   # virtual ns: instructions
per_round = d["samples"] / span_ns * on
extra = on - off
per_sample = extra / per_round
bps = d["bytes"] / d["samples"] if d["samples"] else 0
print("  round unmonitored %.0f instructions, sampled %.0f (+%.1f%%); %.0f samples a round (%.0f if the counter saw every instruction), %d recorded, %d lost, %d dropped"
      % (off, on, 100 * extra / off, per_round, on / 20000, d["samples"], d["lost"], d["dropped_samples"]))
print("  instructions per delivered sample, end to end: %.0f; bytes per sample on the wire: %.1f"
      % (per_sample, bps))
if sys.argv[6]:
    with open(sys.argv[6], "w") as f:
        f.write("per_sample=%.0f bytes_per_sample=%.1f samples=%d lost=%d dropped=%d off=%.0f on=%.0f\n"
                % (per_sample, bps, d["samples"], d["lost"], d["dropped_samples"], off, on))
PY
	stop_target
	rm -f "$conf" "$rec" "$json" "$json.replay"
}

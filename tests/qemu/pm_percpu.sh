# The distributed page manager (pm=percpu, the default) against the single one (pm=single) on
# the same image, under pagestorm on 4 CPUs: with one rep its lock is the most waited-for
# kernel lock (KOV finds it); with a rep per CPU the PM's locks all but vanish from the lock
# statistics, the scan shows one PM rep per CPU that faulted, and frames are all accounted for.
# The viewer's lock view names the kernel's locks of no object by their symbol.
source "$(dirname "$0")/lib.bash"
K=build/host/kovctl
OUT=$(mktemp)
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"*' EXIT

run() { # pm kind -> $OUT.$1.locks and $OUT.$1.scan
	local port
	port=$(free_port)
	boot_bg --cpus 4 --port "$port" --timeout 60 --append "dci.token=k pm=$1" --workload pagestorm:4:32
	wait_for '^dcid: listening' 40
	expect "^vm: page manager: .*\(pm=$1\)"
	sleep 1
	$K --target 127.0.0.1:"$port" --token k --json lockstat --pid 0 --kind spin --seconds 4 \
		>"$OUT.$1.locks" 2>&1 || fail "lockstat ($1): $(cat "$OUT.$1.locks")"
	$K --target 127.0.0.1:"$port" --json scan --pid 0 >"$OUT.$1.scan" 2>&1 ||
		fail "scan ($1): $(cat "$OUT.$1.scan")"
	if [ "$1" = percpu ]; then
		VIEWER=build/asan/kov-viewer
		[ -x "$VIEWER" ] && export ASAN_OPTIONS=detect_leaks=0 || VIEWER=build/host/kov-viewer
		xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$port" --token k \
			--config sim/demo.pmu --view locks --screenshot "$OUT.png" --after 6 >"$OUT.viewer" 2>&1 ||
			fail "viewer: $(cat "$OUT.viewer")"
		grep '^viewer: locks:' "$OUT.viewer"
		grep -qE '^viewer: locks: rows=[1-9][0-9]* .* top: 0x[0-9a-f]+ (spin|sleep) ' "$OUT.viewer" ||
			fail "the viewer's lock view is empty: $(grep locks: "$OUT.viewer")"
		# A lock in the kernel image has a symbol; one in the heap (a wait queue of lwIP's,
		# contended on the parallel machine) can only be shown by its address.
		end=$((16#$(powerpc64-linux-gnu-nm build/kov.elf | sed -n 's/^\([0-9a-f]*\) . _end$/\1/p')))
		for a in $(grep -oE '\(no object\) 0x[0-9a-f]+' "$OUT.viewer" | sed 's/.* 0x//'); do
			[ $((16#$a)) -ge "$end" ] ||
				fail "a kernel lock of no object is not named: $(grep locks: "$OUT.viewer")"
		done
	fi
	kill -- -"$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
}
run single
run percpu
python3 - "$OUT" <<'PY' || fail "the distributed page manager"
import json, sys
out = sys.argv[1]
def pm_wait(kind):
    locks = json.load(open(f"{out}.{kind}.locks"))["locks"]
    total = sum(l["wait_us"] for l in locks)
    pm = sum(l["wait_us"] for l in locks if l["class"] in ("PM", "PMPerCPU"))
    return pm, total, locks
def pm_reps(kind):
    scan = json.load(open(f"{out}.{kind}.scan"))
    objs = [o for p in scan["processes"] for o in p["objects"]] if "processes" in scan else scan["objects"]
    cls = {"single": "PM", "percpu": "PMPerCPU"}[kind]
    pms = [o for o in objs if o["class"] in ("PM", "PMPerCPU")]
    assert len(pms) == 1 and pms[0]["class"] == cls, f"{kind}: {[o['class'] for o in pms]}, not one {cls}"
    return len({int(r, 16) for r in pms[0]["reps"]} - {0})   # per CPU: the rep its table holds
s_pm, s_total, s_locks = pm_wait("single")
p_pm, p_total, _ = pm_wait("percpu")
assert s_locks and s_locks[0]["class"] == "PM", f"pm=single: PM's lock is not the most waited-for: {s_locks[:2]}"
assert p_pm < s_pm / 5, f"pm=percpu: PM locks waited {p_pm:.0f} us against {s_pm:.0f} us with one rep"
r_single, r_percpu = pm_reps("single"), pm_reps("percpu")
assert r_single == 1, f"pm=single has {r_single} reps"
assert r_percpu >= 2, f"pm=percpu has {r_percpu} reps on 4 CPUs"
print(f"PM lock wait in 4 s: {s_pm:.0f} us with one rep ({s_pm / s_total:.0%} of the kernel's spin wait), "
      f"{p_pm:.0f} us with {r_percpu} per-CPU reps; kernel spin wait {s_total:.0f} -> {p_total:.0f} us")
PY
echo "distributed page manager: the hot lock KOV found is gone"

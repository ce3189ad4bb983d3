# Per-rep attribution: repbench's per-CPU object has a rep on each of 4 CPUs, and CPU c's rep does
# (c + 1) / 10 of the method's work (repbench prints the truth from its own unit counts).
# kovctl top --by rep must rank the four reps 40/30/20/10 (each within 3 points of the truth),
# single-rep objects show as "single", and kovctl scan lists the object's reps per CPU. The
# viewer, with RepBench selected and opened (Enter), shows a row per rep with its samples, in
# the same proportions, and the screenshot shows them.
source "$(dirname "$0")/lib.bash"
KOVCTL=build/host/kovctl
port=$(free_port)
boot_bg --port "$port" --cpus 4 --timeout 90 --append "dci.token=s3cret" --workload repbench:200:4:0
wait_for '^dcid: listening' 40
wait_for '^repbench: shares' 40
OUT=$(mktemp)
"$KOVCTL" --target 127.0.0.1:"$port" --token s3cret --json top --metric PM_INST_CMPL --by rep \
	--seconds 4 --n 20 >"$OUT" || fail "kovctl top --by rep"
truth=$(grep -a '^repbench: shares' "$LOG" | tail -1)
python3 - "$OUT" "$truth" <<'PY' || fail "per-rep shares"
import json, re, sys
top = json.load(open(sys.argv[1]))
truth = {int(c): float(v) for c, v in re.findall(r"cpu(\d)=([\d.]+)%", sys.argv[2])}
rows = [o for o in top["objects"] if o["class"] == "RepBench"]
assert len(rows) == 4, rows
total = sum(o["metric_samples"] for o in rows)
got = {o["rep_cpu"]: 100.0 * o["metric_samples"] / total for o in rows}
print("truth %s; KOV %s (%d samples)" % (truth, {c: round(v, 1) for c, v in got.items()}, total))
assert set(got) == {0, 1, 2, 3}, got
for c in range(4):
    assert abs(got[c] - truth[c]) <= 3.0, (c, got[c], truth[c])
singles = [o for o in top["objects"] if o["class"] in ("Process", "SegmentHAT", "FCM")]
assert all(o["rep_cpu"] is None for o in singles), singles
PY
"$KOVCTL" --target 127.0.0.1:"$port" scan --class RepBench >"$OUT" || fail "kovctl scan"
grep -qE '^  RepBench  0x[0-9a-f]+  gen [0-9]+  reps 4 \(per CPU\)' "$OUT" || { cat "$OUT"; fail "scan: no per-CPU object"; }
grep -qE '^    reps:  cpu0 0x[0-9a-f]+  cpu1 0x[0-9a-f]+  cpu2 0x[0-9a-f]+  cpu3 0x[0-9a-f]+$' "$OUT" || { cat "$OUT"; fail "scan: reps per CPU"; }
cat "$OUT"

VIEWER=build/asan/kov-viewer
[ -x "$VIEWER" ] && export ASAN_OPTIONS=detect_leaks=0 || VIEWER=build/host/kov-viewer
PNG=$(mktemp --suffix=.png)
xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$port" --token s3cret \
	--config sim/demo.pmu --select RepBench --keys $'\r' --screenshot "$PNG" --after 6 >"$OUT" 2>&1 || fail "viewer: $(cat "$OUT")"
grep '^viewer: rep:' "$OUT"
python3 - "$OUT" "$truth" "$PNG" <<'PY' || fail "viewer's rep rows"
import re, sys, os
rows = {int(c): int(n) for c, n in re.findall(r"^viewer: rep: RepBench cpu=(\d) rep=0x[0-9a-f]+ samples=(\d+)$",
                                              open(sys.argv[1]).read(), re.M)}
truth = {int(c): float(v) for c, v in re.findall(r"cpu(\d)=([\d.]+)%", sys.argv[2])}
assert sorted(rows) == [0, 1, 2, 3], rows
total = sum(rows.values())
assert total > 1000, rows
for c in range(4):
    assert abs(100.0 * rows[c] / total - truth[c]) <= 4.0, (c, rows, truth)
assert os.path.getsize(sys.argv[3]) > 20000, "screenshot too small"
PY
rm -f "$OUT" "$PNG"

# The PMU configuration utility (C) driven by keys under Xvfb, its word checked against the
# target's: the catalogue listed in sections, one per reason an event does not count (each
# reason said once, the same reasons and counts as kovctl events --json), a section hidden by H,
# / searching names and descriptions; the refusal of an event QEMU cannot count is the KM
# planner's own sentence (kovctl configure of the same group gets it from the target); the
# group the utility planned (the events it added, the counters) is what the target applies to
# the configuration it saved; the 970's constraints show in words where QEMU cannot count them
# (PM_LD_MISS_L1 and PM_STOP_COMPLETION both need PMC3, the backend's sentence), the event
# refused; shares and slices in percent and milliseconds; ? lists the keys; a resized window
# is laid out at its new size.
source "$(dirname "$0")/lib.bash"
VIEWER=$PWD/build/asan/kov-viewer
[ -x "$VIEWER" ] && export ASAN_OPTIONS=detect_leaks=0 || VIEWER=$PWD/build/host/kov-viewer
[ -x "$VIEWER" ] || fail "$VIEWER is not built"
KOVCTL=$PWD/build/host/kovctl
DIR=$(mktemp -d)
OUT=$DIR/out PNG=$DIR/shot.png
PORT=$(free_port)
boot_bg --port "$PORT" --timeout 100 --append "dci.token=s3cret" --workload spinbench:1000000:2:0
trap 'kill -- -$SIM_PID 2>/dev/null; rm -rf "$LOG" "$DIR"' EXIT
wait_for '^dcid: listening' 40

# keys, then the utility's report lines (run in $DIR: S saves kov-config.pmu there).
keys() {
	(cd "$DIR" && xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" \
		--token s3cret --config-keys "$1" "${@:2}" --screenshot "$PNG" --after 2 >"$OUT" 2>&1) ||
		fail "the viewer exited $?: $(cat "$OUT")"
	grep -a '^viewer: \(config\|layout\)' "$OUT"
}
line() { sed -n "s/^viewer: $1: //p" "$OUT"; }

"$KOVCTL" --target 127.0.0.1:"$PORT" events --json >"$DIR/events.json" || fail "kovctl events"

# The list: the reasons as kovctl reports them, each once; H hides the section under the
# cursor (the first event's, counting and sampling here), / finds events by description.
keys ""
python3 tests/qemu/png_check.py "$PNG" 1280 800 || fail "screenshot check"
python3 - "$OUT" "$DIR/events.json" <<'PY' || fail "the utility's sections disagree with the catalogue"
import collections, json, re, sys
out, events = open(sys.argv[1]).read(), json.load(open(sys.argv[2]))
want = collections.Counter(e["why_not"] for e in events)
got = {m.group(3): int(m.group(1)) for m in re.finditer(r'^viewer: config section: events=(\d+) hidden=(\d) why="(.*)"$', out, re.M)}
assert got == dict(want), f"sections {got} != catalogue {dict(want)}"
assert max(want.values()) >= 30, "QEMU: one reason covers the 970's events"
rows = re.search(r"^viewer: config list: rows=(\d+) headings=(\d+) events=(\d+)", out, re.M)
assert rows and int(rows.group(2)) == len(want) and int(rows.group(3)) == len(events), rows and rows.group(0)
PY
keys "h"
grep -qE '^viewer: config section: events=7 hidden=1 why=""$' "$OUT" || fail "H did not hide the first section"
grep -qE '^viewer: config list: rows=39 headings=3 events=36 ' "$OUT" || fail "a hidden section still lists its events"
keys "/decrementer"
grep -qE '^viewer: config list: rows=2 headings=1 events=1 search="decrementer"$' "$OUT" || fail "/ did not search descriptions"
grep -q '^viewer: config row: SW_CPU_CLOCK ' "$OUT" || fail "the search did not put the cursor on SW_CPU_CLOCK"

# An event QEMU cannot count: Enter refuses the group with the planner's sentence, the one
# the target's KM gives for the same group.
keys "/larx"$'\r'" E"
viewer_says=$(line config)
printf 'group g1 100\n  PM_LARX_LSU0\n' >"$DIR/larx.pmu"
target_says=$("$KOVCTL" --target 127.0.0.1:"$PORT" --token s3cret configure "$DIR/larx.pmu" 2>&1) &&
	fail "the target applied PM_LARX_LSU0"
[ -n "$viewer_says" ] && [[ "$target_says" == *": $viewer_says" ]] ||
	fail "the viewer said '$viewer_says', the target '$target_says'"
[ "$(line 'config cursor')" = "$viewer_says" ] || fail "the cursor's verdict is not the planner's: $(line 'config cursor')"

# The plan: instructions sampled and the software page faults; the planner adds cycles. The
# configuration saved (S) is applied by the target with the same events.
keys "/inst_cmpl"$'\r'" t/hpt_miss"$'\r'" s"
plan=$(line 'config plan')
[[ "$plan" =~ ^group=g1\ PM_INST_CMPL=PMC[1-6]\ SW_HPT_MISS=sw0\ PM_CYC=PMC[1-6]\+$ ]] || fail "the plan: $plan"
[ -s "$DIR/kov-config.pmu" ] || fail "S saved nothing"
"$KOVCTL" --target 127.0.0.1:"$PORT" --token s3cret configure "$DIR/kov-config.pmu" >"$DIR/applied" ||
	fail "the target refused the saved configuration: $(cat "$DIR/applied")"
applied=$(sed -n 's/^  \([A-Z_0-9]*\).*/\1/p' "$DIR/applied" | sort | tr '\n' ' ')
planned=$(echo "$plan" | tr ' ' '\n' | sed -n 's/^\([A-Z_0-9]*\)=.*/\1/p' | sort | tr '\n' ' ')
[ "$applied" = "$planned" ] || fail "planned [$planned], the target applied [$applied]"

# The 970's constraints, which QEMU cannot show by counting: PM_LD_MISS_L1 stays as a plan for
# a 970 on its only counter, PMC3; PM_STOP_COMPLETION needs PMC3 too and is refused with the
# constraint checker's sentence (tests/unit/test_pmu970.c pins it).
keys "/pm_ld_miss_l1"$'\r'" /stop_comp"$'\r'" "
[ "$(line config)" = "not added: on a 970, PM_LD_MISS_L1 and PM_STOP_COMPLETION both need PMC3" ] ||
	fail "the 970's conflict: $(line config)"
[ "$(line 'config native')" = "selects=970 PM_LD_MISS_L1=PMC3" ] || fail "the 970 plan: $(line 'config native')"
[ "$(line 'config whatif')" = "on a 970: PM_LD_MISS_L1 and PM_STOP_COMPLETION both need PMC3" ] ||
	fail "the cursor's 970 verdict: $(line 'config whatif')"

# Shares and slices in words: a second group takes half the time, +5% more, slices doubled.
keys "g+>"
[ "$(line config)" = "slices of 20 ms: the groups take turns at each" ] || fail "slice: $(line config)"
keys "g+"
[ "$(line config)" = "g2 55%, g1 45%" ] || fail "shares: $(line config)"

# ? lists the keys over the window; a resized window is drawn at its new size.
keys "X" --keys "?" --resize 900x600
grep -qE '^viewer: layout: width=900 height=600 tree_w=288 resizes=[1-9][0-9]* help_open=1 help_lines=[2-9][0-9]$' "$OUT" ||
	fail "resize or help: $(grep layout "$OUT")"
python3 tests/qemu/png_check.py "$PNG" 900 600 || fail "the resized screenshot"
echo "viewer_config: passed"

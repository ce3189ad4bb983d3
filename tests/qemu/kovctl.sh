# kovctl against the real target over QEMU's user networking, on both machines: the
# handshake (info: profile, processor, how the CPUs ran, the kernel's wake-up counters with
# no rescue and no watchdog reset, catalogue; a 1.4 client still gets SERVER_HELLO, a 1.5 one
# SERVER_HELLO_EX and WAKEUPS), the live-object scan as text and as JSON,
# symbolizing a kernel address, ping and status, two clients at once, the controller token
# (right, wrong), a target error, and the usage errors that never reach the target.
source "$(dirname "$0")/lib.bash"

# kovctl built with ASan and UBSan when make test built it (tests/fuzz/fuzz.mk): a memory
# error or a leak makes the command fail.
KOVCTL=build/asan/kovctl
[ -x "$KOVCTL" ] || KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
OUT=$(mktemp)
trap 'rm -f "$LOG" "$OUT" "$OUT.watch" "$OUT.text" "$OUT.conf"' EXIT

# Boots in the background with the DCI port forwarded and waits for the daemon.
boot_target() { # sim/run options...
	PORT=$(free_port)
	boot_bg --port "$PORT" --timeout 60 "$@"
	trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT" "$OUT.watch" "$OUT.text" "$OUT.conf"' EXIT
	wait_for '^dcid: listening' 40
}

stop_target() {
	kill -- -"$SIM_PID" 2>/dev/null
	wait "$SIM_PID" 2>/dev/null
}

# Runs kovctl; its stdout and stderr go to $OUT, its exit status to $RC.
k() {
	"$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 "$@" >"$OUT" 2>&1
	RC=$?
}

out_has() { # regex: must appear in the last kovctl output
	grep -qE -- "$1" "$OUT" || { echo "--- kovctl output ---"; cat "$OUT"; fail "expected /$1/ from kovctl"; }
}

ok() { # kovctl ARGS: must succeed
	k "$@"
	[ "$RC" = 0 ] || { cat "$OUT"; fail "kovctl $* exited with $RC"; }
}

# The kovctl examples of docs/guide.md, as written there (port changed): each must succeed, and
# the symbols example must print what the guide says it prints.
guide_examples() {
	local line n=0
	while IFS= read -r line; do
		line=${line//127.0.0.1:7242/127.0.0.1:$PORT}
		bash -c "$line" >"$OUT" 2>&1 || { cat "$OUT"; fail "docs/guide.md example failed: $line"; }
		case $line in *" symbols "*) out_has '^0xc0[0-9a-f]{14}  kmalloc$' ;; esac
		n=$((n + 1))
	done < <(sed -n 's/^    \(build\/host\/kovctl --target 127\.0\.0\.1:7242 [^#]*\)\( *#.*\)\{0,1\}$/\1/p' docs/guide.md |
		 grep -v -- '--token')
	[ "$n" -ge 5 ] || fail "only $n kovctl examples found in docs/guide.md"
}

check_profile() { # profile pvr-prefix processor sim/run-options...
	local profile=$1 pvr=$2 processor=$3; shift 3
	boot_target --profile "$profile" --append "dci.token=s3cret" --workload cotree:forever "$@"

	ok info
	out_has "^profile +$profile\$"
	out_has "^pvr +0x${pvr}[0-9a-f]{4} \\($processor\\)\$"
	out_has '^role +observer \(client id [0-9]+\)'
	out_has '^pmu +isa207-arch$'    # the backend that counts under QEMU, not the CPU's name
	out_has '^events +[1-9][0-9]*$'
	out_has '^EVENT +SOURCE +COUNTS +SAMPLES +WHY NOT$'
	out_has '^PM_CYC +hw +(yes|no) +(yes|no)'

	# How the CPUs ran (the kernel measures it at boot; any of the three answers here) and
	# the wake-ups: a normal run needs no rescue and no watchdog reset.
	out_has '^cpus +[0-9]+ \((run in parallel|take turns on one host thread: lock waits are round-robin artefacts|how they run is unknown: one CPU, or not measured)\)$'
	out_has '^wake-ups +0 rescued, 0 watchdog resets, [0-9]+ prods, longest late [0-9.]+ (us|ms), [0-9]+ ticks found pending$'

	ok info --json
	python3 -m json.tool "$OUT" >/dev/null || fail "info --json is not JSON"
	python3 - "$OUT" "$PORT" <<'PY' || { cat "$OUT"; fail "info --json: cpus_run, wake_ups, platform, or the handshake by protocol minor"; }
import json, sys
sys.path.insert(0, "tests/qemu")
import kovproto as k
d = json.load(open(sys.argv[1]))
assert d["cpus_run"] in k.CPUS_RUN, d["cpus_run"]
w = d["wake_ups"]
assert w["rescues"] == 0 and w["watchdog_resets"] == 0, w
assert all(isinstance(w[x], int) for x in ("prods", "late_max_us", "ticks_pending")), w
# The platform's self-report (PLATFORM, 1.8): pseries through RTAS, every path exercised;
# plain mac99 through CUDA, its second CPU not exercised.
p = d["platform"]
state = {x["path"]: x["state"] for x in p["paths"]}
assert p["emulated"] and all(state[x] == "exercised" for x in ("console", "power-off", "reboot", "clock")), p
if d["profile"] == "g5":
    assert p["name"] == "mac99" and p["controller"] == "CUDA", p
    assert state["second CPU start"] == "not exercised", state
else:
    assert p["name"] == "pseries" and p["controller"] == "RTAS", p
    assert all(v == "exercised" for v in state.values()), state
# Older clients keep working: a 1.4 client gets the SERVER_HELLO it knows; a 1.5 one (and
# later ones) SERVER_HELLO_EX with the same cpus_run, and WAKEUPS for WAKEUPS_GET. The
# server says it speaks 1.8.
for minor, want in ((4, k.SERVER_HELLO), (5, k.SERVER_HELLO_EX), (6, k.SERVER_HELLO_EX),
                    (7, k.SERVER_HELLO_EX), (8, k.SERVER_HELLO_EX)):
    c = k.Conn(int(sys.argv[2]))
    st, role, reason = c.handshake(minor=minor)
    assert st == 0 and c.welcome_type == want and c.server_minor == 8, (minor, st, reason, c.welcome_type)
    if minor >= 5:
        assert c.cpus_run == d["cpus_run"], (c.cpus_run, d["cpus_run"])
        wk = c.wakeups(9)
        assert wk["rescues"] == 0 and wk["resets"] == 0 and wk["timebase"] > 0, wk
    c.ping(2, 7)            # the connection goes on either way
    c.close()
print("info: cpus_run=%s wake_ups=%s; 1.4 client: SERVER_HELLO, 1.5 to 1.8: SERVER_HELLO_EX" % (d["cpus_run"], w))
PY

	# The kernel, the daemon and a workload, each with objects linked as a tree.
	ok scan
	out_has '^kernel  pid 0  '
	out_has '^cotree  pid [0-9]+  '
	out_has '^  Process  0x[0-9a-f]{16}  gen [0-9]+  reps [0-9]+  children [1-9]'
	out_has '^    [A-Za-z]+  0x[0-9a-f]{16}  gen '
	out_has '^total: [2-9][0-9]* processes, [1-9][0-9]* objects$'
	# COIDs in one form: a user object's without padding, as in the JSON below.
	out_has '^  TreeNode  0xd[0-9a-f]{7}  gen [0-9]+ '
	cp "$OUT" "$OUT.text"
	# The ProcessAnnex's children are the Processes listed under their own pids: links to
	# there. Nothing churns here, so no child is missing from the scan.
	out_has '^    -> Process  0xd0[0-9a-f]{14} gen [0-9]+ \(listed under pid 1, dcid\)$'
	out_has '^    -> Process  0xd0[0-9a-f]{14} gen [0-9]+ \(listed under pid [0-9]+, cotree\)$'
	! grep -q 'not in the scan' "$OUT" || { cat "$OUT"; fail "a child is 'not in the scan' in a quiet system"; }

	ok scan --json
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
procs = {p["pid"]: p for p in d["processes"]}
assert 0 in procs and 1 in procs, "kernel and the daemon expected"
assert any(p["name"] == "cotree" for p in d["processes"]), "the cotree workload expected"
assert d["totals"]["processes"] == len(d["processes"])
assert d["totals"]["objects"] == sum(len(p["objects"]) for p in d["processes"]) > 0
classes = {o["class"] for p in d["processes"] for o in p["objects"]}
assert "Process" in classes and "TreeNode" in classes, classes
annex = [o for o in procs[0]["objects"] if o["class"] == "ProcessAnnex"][0]
assert all(c["in_scan"] for c in annex["children"]), annex
assert {c["listed_under"] for c in annex["children"]} == set(procs) - {0}, annex
for p in d["processes"]:
    for o in p["objects"]:
        int(o["coid"], 16)
        for c in o["children"]:
            int(c["coid"], 16)
# one COID form in text and JSON ("0x", no leading zeros); two scans: mostly the same objects
text = {l.split()[1] for l in open(sys.argv[2]) if l.startswith(" ") and " gen " in l and "->" not in l}
js = {o["coid"] for p in d["processes"] for o in p["objects"]}
assert all(c == hex(int(c, 16)) for c in text | js), sorted(c for c in text | js if c != hex(int(c, 16)))
assert len(text & js) >= len(js) // 2, (len(text), len(js), len(text & js))
' "$OUT" "$OUT.text" || { head -c 2000 "$OUT"; fail "scan --json"; }

	ok scan --pid 1 --class Process
	out_has '^dcid  pid 1  '
	out_has '^total: 1 process, [1-9][0-9]* objects? of class Process$'

	# A kernel code address 0x10 into kmalloc (the code entry is .kmalloc on ELFv1).
	local entry addr
	entry=$(powerpc64-linux-gnu-nm -n --synthetic build/kov.elf | awk '$3 == ".kmalloc" { print $1 }')
	[ -n "$entry" ] || fail "no .kmalloc in build/kov.elf"
	addr=$(printf '%016x' $((16#$entry + 16)))
	ok symbols "$addr" "$entry"
	out_has "^0x$addr  kmalloc\\+0x10\$"
	out_has "^0x$entry  kmalloc\$"
	# A user program's symbols, from its ELF in the initial RAM disk (the daemon reads it).
	local cpid centry
	k scan --json
	cpid=$(python3 -c 'import json,sys; print([p["pid"] for p in json.load(open(sys.argv[1]))["processes"] if p["name"] == "cotree"][0])' "$OUT") ||
		{ head -c 2000 "$OUT"; fail "no cotree pid from scan --json (exit $RC)"; }
	centry=$(powerpc64-linux-gnu-nm --synthetic build/user/bin/cotree | awk '$3 == ".main" { print $1 }')
	ok symbols --pid "$cpid" "$(printf '%016x' $((16#$centry + 8)))"
	out_has "  main\+0x8\$"

	[ "$profile" != smp ] || guide_examples

	ok symbols --json "$addr"
	python3 -m json.tool "$OUT" >/dev/null || fail "symbols --json is not JSON"

	ok ping --count 5
	out_has '^ping 127\.0\.0\.1:[0-9]+: count=5 min_us=[0-9.]+ avg_us=[0-9.]+ max_us=[0-9.]+ median_us=[0-9.]+$'

	# Two clients at once: a watcher holds a connection while status and scan run.
	"$KOVCTL" --target "127.0.0.1:$PORT" watch --seconds 4 >"$OUT.watch" 2>&1 &
	local watcher=$!
	sleep 1
	ok status
	out_has '^clients +([2-9]|[1-9][0-9]+) '
	ok scan
	wait "$watcher" || { cat "$OUT.watch"; fail "watch alongside another client failed"; }
	grep -qE '^watch: frames=[0-9]+ seconds=' "$OUT.watch" || { cat "$OUT.watch"; fail "watch summary"; }

	# The controller token: the right one makes us controller, a wrong one is refused.
	ok --token s3cret info
	out_has '^role +controller '
	k --token wrong info
	[ "$RC" = 1 ] || fail "a wrong token exited with $RC, want 1"
	out_has '^kovctl: target refused: wrong controller token'

	# A process that does not exist is the target's error: exit 1, readable.
	k scan --pid 4000000
	[ "$RC" = 1 ] || fail "scan of a missing pid exited with $RC, want 1"
	out_has '^kovctl: target error \(no such process\)'

	# Usage errors never reach the target: exit 2.
	k frob
	[ "$RC" = 2 ] || fail "unknown command exited with $RC, want 2"
	out_has "^kovctl: unknown command 'frob' \\(try --help\\)\$"
	k scan --pid x
	[ "$RC" = 2 ] || fail "bad --pid exited with $RC, want 2"

	# The target still serves after all of that.
	ok status
	stop_target
	echo "kovctl on $profile: ok"
}

check_profile smp 0039 "PowerPC 970" --cpus 2
check_profile g5 003c "PowerPC 970FX"

# Nothing listening: exit 1 with the reason.
PORT=$(free_port)
k info
[ "$RC" = 1 ] || fail "kovctl against a closed port exited with $RC, want 1"
out_has "^kovctl: cannot connect to 127\\.0\\.0\\.1:$PORT: Connection refused\$"

# Usage errors are 2 whether or not a target answers: files named on the command line are
# read before connecting (the port is closed here).
exits() { local want=$1; shift; k "$@"; [ "$RC" = "$want" ] || { cat "$OUT"; fail "kovctl $* exited $RC, not $want"; }; }
exits 2 configure /nonexistent/kov.pmu
out_has '^kovctl: cannot open /nonexistent/kov\.pmu$'
printf 'group spin 100\n  PM_INST_CMPL lots\n' >"$OUT.conf"
exits 2 configure "$OUT.conf"
out_has 'line 2: threshold .lots. is not a number'
exits 2 replay /nonexistent/rec.kov
exits 2 scan --frob
out_has "unknown option '--frob' for scan"
exits 2 top
out_has '^kovctl: top needs --metric'
exits 2 --timeout 0 info
rm -f "$OUT.conf"
echo "kovctl: all checks passed"

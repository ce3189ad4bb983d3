# What `make run` runs (sim/demo): self-stopping with KOV_RUN_SECONDS it reaches the ready
# line, the daemon answers, the workloads show they are alive and it exits 0 by itself; with
# the viewer open under Xvfb, QEMU killed from outside makes it say so and close the viewer.
source "$(dirname "$0")/lib.bash"
OUT=$(mktemp)
trap 'rm -f "$LOG" "$OUT"; [ -z "${DEMO:-}" ] || kill -- -"$DEMO" 2>/dev/null' EXIT

# A bad setting is a usage error, before anything starts.
KOV_RUN_SECONDS=soon sim/demo >"$OUT" 2>&1; [ $? = 2 ] || fail "KOV_RUN_SECONDS=soon must be a usage error"
grep -q 'positive number of seconds' "$OUT" || fail "unclear error: $(cat "$OUT")"

# Self-stopping, as fresh-machine-check drives it: ready, alive, stopped, exit 0.
PORT=$(free_port)
KOV_RUN_SECONDS=6 KOV_PORT=$PORT KOV_METRICS_PORT=$(free_port) DISPLAY= WAYLAND_DISPLAY= \
	timeout 60 sim/demo >"$LOG" 2>&1
rc=$?
tr -d '\r' <"$LOG" >"$OUT" && cp "$OUT" "$LOG"
[ $rc = 0 ] || fail "KOV_RUN_SECONDS=6 sim/demo exited $rc"
expect '^kov: ready profile=smp cpus=4 '
# sim/demo's own lines share the terminal with the target's console, which QEMU writes
# directly: one can land in the middle of a console line ("dcid: client 1 cKOV: ready: ...",
# beside a loaded test suite), so they are looked for anywhere in a line.
expect 'KOV: ready: .*kovctl ping answered'
expect '^sleepbench: alive after [0-9]+ s: [0-9]+ acquisitions'
expect 'KOV: 6 s up; stopping the target'
pgrep -f "hostfwd=tcp:127.0.0.1:$PORT-" >/dev/null && fail "QEMU still runs after sim/demo stopped"

# Console attached, viewer open; QEMU killed from outside: sim/demo ends and closes the viewer.
PORT=$(free_port)
: >"$LOG"   # now: the background shell truncates it later, and the wait below read the old log
setsid xvfb-run -a -s "-screen 0 1280x800x24" env KOV_PORT="$PORT" KOV_METRICS_PORT="$(free_port)" \
	sim/demo </dev/null >"$LOG" 2>&1 &
DEMO=$!
for ((i = 0; i < 400; i++)); do grep -a -q '^dcid: listening' "$LOG" && break; sleep 0.1; done
grep -a -q '^dcid: listening' "$LOG" || fail "the demo target did not start its daemon"
viewer=$(sed -n 's/^KOV: viewer started (pid \([0-9]*\))/\1/p' "$LOG")
[ -n "$viewer" ] && kill -0 "$viewer" 2>/dev/null || fail "no viewer running under Xvfb"
qemu=$(pgrep -f "hostfwd=tcp:127.0.0.1:$PORT-") || fail "cannot find the demo's QEMU"
kill -9 $qemu
for ((i = 0; i < 100; i++)); do kill -0 "$DEMO" 2>/dev/null || break; sleep 0.1; done
kill -0 "$DEMO" 2>/dev/null && fail "sim/demo still runs 10 s after QEMU was killed"
expect 'KOV: the target stopped'
expect 'KOV: closing the viewer'
for ((i = 0; i < 50; i++)); do kill -0 "$viewer" 2>/dev/null || break; sleep 0.1; done   # SIGTERM takes a moment
kill -0 "$viewer" 2>/dev/null && fail "the viewer (pid $viewer) was left open"
DEMO=
echo "make run: ready, alive, self-stopping; QEMU killed -> viewer closed"

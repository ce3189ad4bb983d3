# Helpers for the QEMU integration tests (sourced). Each test boots the real image through
# sim/run and checks what the kernel printed. All paths are relative to the repository top.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

# The console's lines that usually say why (a panic, a killed program, a closed or cut-off client)
# come first, prefixed "console>": a failure summary that keeps only a test's first lines keeps them.
fail() {
	echo "FAIL: $*"
	grep -a -E 'PANIC|halted|killed|cut off|closed \(|lost|timed out|late' "$LOG" 2>/dev/null | head -n 8 |
		sed 's/^/console> /'
	[ -n "${SIM_PID:-}" ] && ! kill -0 "$SIM_PID" 2>/dev/null && echo "console> (the machine had stopped)"
	echo "--- console ---"
	tail -n 60 "$LOG"
	# The whole console, for a failure whose cause lies further back than its last lines.
	[ -n "${KOV_CONSOLE_KEEP:-}" ] && cp "$LOG" "$KOV_CONSOLE_KEEP" 2>/dev/null &&
		echo "(the whole console: $KOV_CONSOLE_KEEP)"
	exit 1
}

# A command that does not exist (a helper a sourced file failed to define, a typo) fails the
# test: without `set -e` the script would go on and could still say it passed. Bash runs this
# handler in a subshell, so it signals the test's own shell.
TEST_SHELL=$$
trap 'fail "a command was not found (above)"' USR1
command_not_found_handle() {
	echo "$0: $1: command not found" >&2
	kill -USR1 "$TEST_SHELL"
	return 127
}

# Boots with sim/run --check (stops at the ready line); the console goes to $LOG.
boot_check() {
	sim/run --check --log "$LOG" "$@" || fail "sim/run --check $* did not reach ready"
}

# Boots and lets the machine run until it powers itself off (panic tests, halt=1); fails if
# QEMU is still running after the time limit.
boot_until_off() {
	local limit=$1; shift
	timeout "$limit" sim/run "$@" </dev/null >"$LOG" 2>&1
	local rc=$?
	tr -d '\r' <"$LOG" >"$LOG.c" && mv "$LOG.c" "$LOG"
	[ "$rc" != 124 ] || fail "QEMU did not exit within ${limit}s (sim/run $*)"
}

expect() { # regex: must appear in the console log
	grep -a -qE -- "$1" "$LOG" || fail "expected /$1/ in the console"
}

expect_not() {
	! grep -a -qE -- "$1" "$LOG" || fail "did not expect /$1/ in the console"
}

field() { # name: value of name=value in the ready line
	grep -a -m1 '^kov: ready' "$LOG" | tr ' ' '\n' | sed -n "s/^$1=//p"
}

# A TCP port on 127.0.0.1 that nothing listens on right now.
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts sim/run in the background in its own process group (console to $LOG); the target is
# stopped when the test exits. SIM_PID is the group's leader.
boot_bg() {
	: >"$LOG"   # now: the background shell truncates it only later, and a wait_for right after
	            # would find the last boot's lines (kovctl.sh boots twice)
	setsid sim/run "$@" </dev/null >"$LOG" 2>&1 &
	SIM_PID=$!
	trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG"' EXIT
}

# Waits until the console shows N ready lines: the target booted N times (at most $2 seconds).
wait_boots() {
	local n=$1 limit=${2:-30} i
	for ((i = 0; i < limit * 10; i++)); do
		[ "$(grep -a -c '^kov: ready ' "$LOG")" -ge "$n" ] && return 0
		kill -0 "$SIM_PID" 2>/dev/null || fail "the target stopped before booting $n times"
		sleep 0.1
	done
	fail "fewer than $n boots within ${limit}s"
}

# Waits until the console shows regex $1 (at most $2 seconds, default 30).
wait_for() {
	local re=$1 limit=${2:-30} i
	for ((i = 0; i < limit * 10; i++)); do
		grep -a -qE -- "$re" "$LOG" && return 0
		kill -0 "$SIM_PID" 2>/dev/null || fail "the target stopped before /$re/"
		sleep 0.1
	done
	fail "no /$re/ on the console within ${limit}s"
}

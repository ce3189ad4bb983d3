# Helpers for the QEMU integration tests (sourced). Each test boots the real image through
# sim/run and checks what the kernel printed. All paths are relative to the repository top.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

fail() { echo "FAIL: $*"; echo "--- console ---"; tail -n 60 "$LOG"; exit 1; }

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

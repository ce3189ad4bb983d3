# What the viewer's tests under Xvfb share (viewer.sh, viewer_locks.sh): the viewer to run,
# a screenshot with the viewer's report of what it drew, and the screenshot's check.
# The viewer built with ASan and UBSan when make test built it (tests/fuzz/fuzz.mk): a memory
# error or undefined behaviour fails the run. Leaks are not checked here: SDL, fontconfig and
# the X libraries keep allocations until exit (the client code's leaks are checked by the
# sanitized unit tests).
VIEWER=build/asan/kov-viewer
[ -x "$VIEWER" ] && export ASAN_OPTIONS=detect_leaks=0 || VIEWER=build/host/kov-viewer
[ -x "$VIEWER" ] || fail "$VIEWER is not built"
OUT=$(mktemp) PNG=$(mktemp --suffix=.png) CONF=$(mktemp) REC=$(mktemp)
trap 'rm -f "$LOG" "$OUT" "$PNG" "$CONF" "$REC"' EXIT

shot() { # seconds viewer-args...
	local after=$1; shift
	xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" "$@" --screenshot "$PNG" --after "$after" >"$OUT" 2>&1
}

# The PNG is width x height and not blank: its pixels take many values.
png_ok() { # width height
	python3 tests/qemu/png_check.py "$PNG" "$1" "$2" || fail "screenshot check: $(cat "$OUT")"
}

field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" "$OUT"; }

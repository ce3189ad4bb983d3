# User space on both machines: an ELF program from the initial RAM disk runs through the
# Region/FCM/PM/HAT objects, gets its arguments, and its exit status becomes sim/run's.
cd "$(dirname "$0")/../.."
fail() { echo "FAIL: $*"; exit 1; }
for profile in smp g5; do
	out=$(sim/run --profile "$profile" --run hello 42 two 2>&1); rc=$?
	[ "$rc" = 42 ] || fail "$profile: hello exited $rc, want 42: $out"
	echo "$out" | grep -q '^hello from pid 2 on cpu [0-9], 3 argument(s)' || fail "$profile: no greeting: $out"
	echo "$out" | grep -q '^argv\[2\] = two' || fail "$profile: arguments lost: $out"
	echo "$profile: hello ok"
done
out=$(sim/run --run no-such-program 2>&1); rc=$?
[ "$rc" = 127 ] && echo "$out" | grep -q 'cannot run no-such-program: error 2' \
	|| fail "missing program: rc $rc: $out"
out=$(sim/run --run crash 2>&1); rc=$?
[ "$rc" = 139 ] || fail "crash: exit $rc, want 139 (killed by a bad address): $out"
echo "$out" | grep -q '^kov: pid 2 (crash) killed: bad address at 0x0 (pc 0x' || fail "no kill report: $out"
echo "crash reported and contained"

# Invocation counting (the DREF hook) counts every call when on, and when off leaves a call
# exactly as expensive as before it was ever turned on (instruction-exact under --icount).
cd "$(dirname "$0")/../.."
out=$(sim/run --icount --run drefbench 20000 2>&1); rc=$?
echo "$out" | grep drefbench
[ "$rc" = 0 ] || { echo "FAIL: drefbench exited $rc"; exit 1; }
echo "$out" | grep -q '^drefbench: counted 20000 calls (expected 20000)' || { echo "FAIL: count"; exit 1; }
line=$(echo "$out" | grep '^drefbench: 20000 calls')
off=$(echo "$line" | sed -n 's/.*(counting off) \([0-9.]*\),.*/\1/p')
again=$(echo "$line" | sed -n 's/.*off again \([0-9.]*\)$/\1/p')
[ -n "$off" ] && [ "$off" = "$again" ] || { echo "FAIL: counting off costs $off, after on/off $again"; exit 1; }

# The target's memcpy on the big-endian machine (sim/workloads/memcpytest.c): every pair of
# source and destination alignments and every length up to 80 against a byte copy. Its
# merged-doubleword branch for a source out of step is big-endian there; the host's unit test
# (test_string) runs the little-endian one.
source "$(dirname "$0")/lib.bash"
timeout 110 sim/run --cpus 1 --timeout 100 --run memcpytest </dev/null >"$LOG" 2>&1
rc=$?
grep -a '^memcpytest:' "$LOG"
[ "$rc" = 0 ] || fail "memcpytest exited $rc"
expect '^memcpytest: passed$'
echo "memcpy: passed"

# The kernel starts the user init process with the boot command line's run= list; init runs
# the program and passes its status back. init without a program exits cleanly.
cd "$(dirname "$0")/../.."
out=$(sim/run --append "run=hello,9" --timeout 30 2>&1)
echo "$out" | tr -d '\r' | grep -q '^kov: exit status 9$' || { echo "FAIL: run=hello: $out" | tail -5; exit 1; }
out=$(sim/run --run init 2>&1); rc=$?
echo "$out" | grep -q '^init: nothing to run$' && [ "$rc" = 0 ] || { echo "FAIL: bare init: $out"; exit 1; }
echo "init passes statuses through"

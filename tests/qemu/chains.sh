# Call chains end to end against chainbench's known call paths (sim/workloads/chainbench.c):
# a configuration with 32-frame chains, a 3 s recording by a 1.4 client, kovctl export. User
# samples in the ChainBench method read main <- chain_a <- chain_b <- chain_c <- the method
# with the object on its frame; kernel samples of its FILE_READ system call read
# copy_to_user <- syscall_dispatch (kernel frames), then across the boundary file_read <-
# chain_read <- chain_b <- chain_a <- main (user frames). The exports load into the real
# tools (tests/qemu/chains_tools.bash). CHAINS_PROFILE=g5 runs it on the g5 machine.
source "$(dirname "$0")/lib.bash"

PROFILE=${CHAINS_PROFILE:-smp}
KOVCTL=build/asan/kovctl
[ -x "$KOVCTL" ] || KOVCTL=build/host/kovctl
[ -x "$KOVCTL" ] || fail "$KOVCTL is not built"
OUT=$(mktemp) CONF=$(mktemp) REC=$(mktemp) DIR=$(mktemp -d)
PORT=$(free_port)
boot_bg --profile "$PROFILE" --port "$PORT" --timeout 100 --append "dci.token=s3cret" \
	--workload chainbench
trap 'kill -- -$SIM_PID 2>/dev/null; rm -rf "$LOG" "$OUT" "$CONF" "$REC" "$DIR"' EXIT
wait_for '^dcid: listening' 60
wait_for 'chainbench: pid' 30

k() { "$KOVCTL" --target "127.0.0.1:$PORT" --timeout 10 "$@" >"$OUT" 2>&1; RC=$?; }
ok() { k "$@"; [ "$RC" = 0 ] || { cat "$OUT"; fail "kovctl $* exited with $RC"; }; }

# What the chains are, not how many: the cost bound off, as the mechanical tests have it (beside
# a loaded suite the bound took the period to x16 within the 3 s recorded, and too few samples
# were left to judge the paths; the bound has tests of its own, throttle.sh and throttle_dci.sh).
ok --token s3cret throttle --limit off
printf 'chains 32\ncount kernel user\ngroup all 100\n  PM_INST_CMPL 20000\n' >"$CONF"
ok --token s3cret configure "$CONF"
grep -q 'chains 32' "$OUT" || { cat "$OUT"; fail "the applied configuration lost its chains"; }
ok --token s3cret start --interval 100
# The daemon names a sample's object from its scans, which chainbench's scanner thread answers
# between rounds: record once a scan lists the object (a scan it missed left every sample
# without it, about one run in six).
for _ in $(seq 20); do
	k scan --class ChainBench
	grep -q '^  ChainBench ' "$OUT" && break
	sleep 0.5
done
grep -q '^  ChainBench ' "$OUT" || { cat "$OUT"; fail "no scan lists the ChainBench object"; }
ok record --out "$REC" --seconds 3
ok --token s3cret stop

"$KOVCTL" export "$REC" --format folded --out "$DIR/folded" 2>"$OUT" \
	|| { cat "$OUT"; fail "export folded"; }
grep -qE 'exported [0-9]+ samples \([1-9][0-9]* with call chains' "$OUT" \
	|| { cat "$OUT"; fail "no sample came with a chain"; }
# Every chain a sample names was defined: a chain the daemon could not encode (a kernel frame
# read from a stale LR save slot of a shrink-wrapped function, once 1 run in 3) never is.
grep -q 'never defined' "$OUT" && { cat "$OUT"; fail "samples name chains the recording never defined"; }
python3 tests/qemu/chains_check.py "$DIR/folded" || fail "the chains are not chainbench's paths"
bash tests/qemu/chains_tools.bash "$KOVCTL" "$REC" "$DIR" || fail "the profilers' tools disagree"
echo "$PROFILE: $(cat "$OUT")"

# The image without software instrumentation (make instr-variants: build/no-instr, built with
# both switches of kernel/abi/kov_instr.h). The hooks are really gone: symbols and code of
# build/kov.elf that the variant's kov.elf lacks (lock statistics, invocation counting, the
# lock release's reservation, CO_METHOD's counting prologue). It boots with jbb, which runs,
# and asking it for lock statistics or invocation counting gets the daemon's clear error
# (UNAVAILABLE: "... not built into this image"), never an empty answer. Fails, not skips,
# when the variant is not built (make test builds it).
source "$(dirname "$0")/lib.bash"
V=build/no-instr
K=build/host/kovctl
NM=powerpc64-linux-gnu-nm
OBJDUMP=powerpc64-linux-gnu-objdump
[ -f "$V/kov.elf" ] && [ -f "$V/kov.bin" ] || fail "$V is not built (make instr-variants)"
[ -f build/kov.elf ] || fail "build/kov.elf is not built"
[ -x "$K" ] || fail "$K is not built"
OUT=$(mktemp)
trap 'rm -f "$LOG" "$OUT"' EXIT

# Symbols of the hooks: in the normal kernel and C library, not in the variant's.
has() { [ "$($NM "$1" 2>/dev/null | grep -cE " $2\$")" -ge 1 ]; }
for sym in lockstat_get km_lock_record km_lock_owner_gone co_count_enable_rep co_count_fast; do
	has build/kov.elf "$sym" || fail "build/kov.elf has no $sym: the check would prove nothing"
	! has "$V/kov.elf" "$sym" || fail "$V/kov.elf still has $sym"
done
for sym in lockstat_get co_count_fast; do
	has build/user/bin/jbb "$sym" || fail "build/user/bin/jbb has no $sym"
	! has "$V/user/bin/jbb" "$sym" || fail "$V/user/bin/jbb still has $sym"
done

# Code: spin_unlock releases with a plain store (no lwarx, no call to the measured release),
# and no CO_METHOD entry stub has the counting prologue (ldarx) before it.
disasm() { # ELF FUNCTION: its instructions
	$OBJDUMP -d --no-show-raw-insn "$1" | awk -v f="<.$2>:" '$2 == f { on = 1; next } on && /^$/ { on = 0 } on'
}
stubs() { # ELF: the instructions between __co_stubs_start and __co_stubs_end
	local s e
	s=$($NM "$1" | awk '$3 == "__co_stubs_start" { print $1 }')
	e=$($NM "$1" | awk '$3 == "__co_stubs_end" { print $1 }')
	$OBJDUMP -d --no-show-raw-insn --start-address="0x$s" --stop-address="0x$e" "$1"
}
[ "$(disasm build/kov.elf spin_unlock | grep -c lwarx)" -ge 1 ] || fail "build/'s spin_unlock has no lwarx: the check would prove nothing"
n=$(disasm "$V/kov.elf" spin_unlock | grep -cE 'lwarx|stwcx|bl ')
[ "$n" = 0 ] && [ "$(disasm "$V/kov.elf" spin_unlock | grep -c 'stw ')" -ge 1 ] \
	|| fail "$V's spin_unlock is not a plain store: $(disasm "$V/kov.elf" spin_unlock)"
entries=$(stubs "$V/kov.elf" | grep -c 'std *r3,48(r1)')
normal=$(stubs build/kov.elf | grep -c ldarx)
[ "$entries" -ge 10 ] && [ "$normal" -ge 10 ] || fail "CO_METHOD stubs not found ($entries in $V, $normal prologues in build/)"
[ "$(stubs "$V/kov.elf" | grep -c ldarx)" = 0 ] || fail "$V still has counting prologues"
echo "hooks gone: lockstat/co_count symbols, spin_unlock a plain store, $entries method stubs without the $normal prologues"

PORT=$(free_port)
boot_bg --build "$V" --cpus 2 --port "$PORT" --timeout 90 --append "dci.token=ni" --workload jbb
trap 'kill -- -$SIM_PID 2>/dev/null; rm -f "$LOG" "$OUT"' EXIT
wait_for '^dcid: listening' 40
wait_for '^jbb: t=[0-9]+ ms tps=[1-9]' 30
expect '^KOV kernel [^ ]*\+no-instr '

unavailable() { # TEXT KOVCTL-ARGS...: kovctl fails with TEXT
	local text=$1; shift
	"$K" --target 127.0.0.1:"$PORT" --token ni --timeout 15 "$@" >"$OUT" 2>&1 &&
		fail "kovctl $* succeeded on an image without it: $(cat "$OUT")"
	grep -q "$text" "$OUT" || fail "kovctl $*: no clear error: $(cat "$OUT")"
	echo "kovctl $*: $(head -n1 "$OUT")"
}
locks='lock statistics are not built into this image'
calls='invocation counting is not built into this image'
unavailable "$locks" lockstat --seconds 1
unavailable "$locks" top --metric spinlock --seconds 1
unavailable "$locks" instrument --pid 0 --what full-locks on
unavailable "$calls" instrument --pid 0 on
unavailable "$calls" top --metric invocations --seconds 1
# The viewer, as `make run` starts it, on this image: it starts monitoring without the lock
# stream the target refuses, samples arrive, and the lock panes say why they are empty.
VIEWER=build/host/kov-viewer
[ -x "$VIEWER" ] || fail "$VIEWER is not built"
xvfb-run -a -s "-screen 0 1280x800x24" "$VIEWER" --target 127.0.0.1:"$PORT" --token ni \
	--config sim/demo.pmu --screenshot "$OUT.png" --after 8 >"$OUT" 2>&1 || fail "viewer: $(tail -n 5 "$OUT")"
grep -q "^viewer: locks_refused: .*$locks" "$OUT" || fail "the viewer did not keep the refusal: $(grep locks_refused "$OUT")"
grep -qE '^viewer: pane .* available=1 points=[1-9]' "$OUT" || fail "the viewer got no data: $(grep '^viewer: pane' "$OUT")"
grep -qE "^viewer: pane \"Spin-lock wait\" available=0 .*$locks" "$OUT" ||
	fail "the spin-lock pane does not say why: $(grep '^viewer: pane' "$OUT")"
rm -f "$OUT.png"
echo "viewer: monitoring started without the lock stream; the lock panes say: $locks"
# The rest of the monitor is there: the daemon answers, and jbb still runs after all that.
"$K" --target 127.0.0.1:"$PORT" --timeout 15 info >"$OUT" 2>&1 || fail "kovctl info: $(cat "$OUT")"
grep -q 'no-instr' "$OUT" || fail "kovctl info does not name the variant: $(cat "$OUT")"
before=$(grep -a -c '^jbb: t=' "$LOG")
wait_for "^jbb: t=[0-9]+ ms tps=[1-9]" 10
sleep 2
[ "$(grep -a -c '^jbb: t=' "$LOG")" -gt "$before" ] || fail "jbb stopped reporting"
expect_not 'PANIC'
echo "no-instr image: jbb runs; lock statistics and invocation counting answered as not built"

# A boot that hangs with interrupts off: sim/run --check times out, sends an NMI through the
# QEMU monitor, and the kernel's system-reset handler reports where the CPU was stuck.
source "$(dirname "$0")/lib.bash"
sim/run --check --log "$LOG" --profile smp --cpus 2 --timeout 2 --append hang=1 >/dev/null 2>&1 \
	&& fail "a hanging boot must not pass --check"
expect '^kov: hang test: spinning with interrupts off$'
expect '^kov: PANIC on cpu [01]: NMI 0x100 \(system reset\)$'
expect '^  nip  c0000000[0-9a-f]{8} run_hang_test\+0x'
expect '^kov: halted$'
# cpu1 was never started (the hang comes before SMP bring-up): one report, from cpu0.
[ "$(grep -a -c 'kov: PANIC' "$LOG")" = 1 ] || fail "want exactly one report (cpu1 never started)"

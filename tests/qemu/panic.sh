# A deliberate illegal instruction on both machines: a full panic report with a symbolized
# back-chain trace, then the machine powers off so QEMU exits by itself.
source "$(dirname "$0")/lib.bash"
for profile in smp g5; do
	boot_until_off 30 --profile "$profile" --append "fault=illegal"
	expect '^kov: PANIC on cpu 0: unexpected exception 0x700 \(program\): illegal instruction'
	expect '^  nip  c0000000[0-9a-f]{8} fault_illegal(\+0x[0-9a-f]+)?$'
	expect '^  srr1 [0-9a-f]{16}  dar [0-9a-f]{16}  dsisr [0-9a-f]{8}$'
	expect '^  r0  [0-9a-f]{16} r1  c0000000[0-9a-f]{8} r2  c0000000'
	expect '^  r28 [0-9a-f]{16} r29 [0-9a-f]{16} r30 [0-9a-f]{16} r31 [0-9a-f]{16}$'
	expect '^  lr   c0000000[0-9a-f]{8} run_fault_test\+0x'
	expect '^  #[0-9 ]+ c0000000[0-9a-f]{8} kernel_init\+0x'
	expect '^  #[0-9 ]+ c0000000[0-9a-f]{8} thread_start_asm\+0x'
	expect '^  \(end of stack\)$'
	expect '^kov: halted$'
	echo "$profile: panic report complete, QEMU exited"
done
# With translation on, a store far outside the linear mapping is a data segment fault the MMU
# refuses to resolve: a report naming the address, not a silent write into nowhere.
for profile in smp g5; do
	boot_until_off 30 --profile "$profile" --append "fault=dsi"
	expect '^kov: PANIC on cpu 0: unhandled storage fault 0x380 \(data segment\)$'
	expect '^  nip  c0000000[0-9a-f]{8} fault_dsi(\+0x[0-9a-f]+)?$'
	expect ' dar cfff000000000000 '
	expect '^kov: halted$'
	echo "$profile: storage fault reported"
done

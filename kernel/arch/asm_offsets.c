/* Compiled to assembly only: emits structure offsets for the assembler code as "->NAME value"
 * markers, which the build turns into build/include/asm_offsets.h. */
#include <stddef.h>
#include "percpu.h"
#include "trap.h"

#define DEFINE(sym, val) __asm__ volatile("\n->" #sym " %0" : : "i"(val))

void asm_offsets(void);
void asm_offsets(void)
{
	DEFINE(PC_SCRATCH0, offsetof(struct percpu, scratch[0]));
	DEFINE(PC_SCRATCH1, offsetof(struct percpu, scratch[1]));
	DEFINE(PC_SCRATCH2, offsetof(struct percpu, scratch[2]));
	DEFINE(PC_PMU_ENTRY_TB, offsetof(struct percpu, pmu_entry_tb));
	DEFINE(PC_KERNEL_TOC, offsetof(struct percpu, kernel_toc));
	DEFINE(PC_STACK_TOP, offsetof(struct percpu, stack_top));
	DEFINE(PC_KSTACK_TOP, offsetof(struct percpu, kstack_top));
	DEFINE(PC_INDEX, offsetof(struct percpu, index));
	DEFINE(PC_RUNNING_PID, offsetof(struct percpu, running_pid));
	DEFINE(PC_RUNNING_TID, offsetof(struct percpu, running_tid));
	DEFINE(PC_RUNNING_KM, offsetof(struct percpu, running_km));
	DEFINE(PC_KM_CPU, offsetof(struct percpu, km_cpu));
	DEFINE(PC_UACCESS_NOFAULT, offsetof(struct percpu, uaccess_nofault));
	DEFINE(PERCPU_SIZE, sizeof(struct percpu));
	DEFINE(TF_GPR0, offsetof(struct trap_frame, gpr[0]));
	DEFINE(TF_NIP, offsetof(struct trap_frame, nip));
	DEFINE(TF_MSR, offsetof(struct trap_frame, msr));
	DEFINE(TF_LR, offsetof(struct trap_frame, lr));
	DEFINE(TF_CTR, offsetof(struct trap_frame, ctr));
	DEFINE(TF_XER, offsetof(struct trap_frame, xer));
	DEFINE(TF_CR, offsetof(struct trap_frame, cr));
	DEFINE(TF_DAR, offsetof(struct trap_frame, dar));
	DEFINE(TF_DSISR, offsetof(struct trap_frame, dsisr));
	DEFINE(TF_VECTOR, offsetof(struct trap_frame, vector));
	DEFINE(TF_SIZE, sizeof(struct trap_frame));
}

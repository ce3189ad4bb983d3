/* The trap frame: the full register state the exception entry code saves (boot/vectors.S, its
 * offsets generated into asm_offsets.h). One definition for the kernel (kernel/arch/trap.h) and
 * the monitor, whose hooks take it and whose stack walks start from it and find the user state
 * a thread's entry into the kernel left under its kernel stack's top. */
#ifndef KOV_TRAP_FRAME_H
#define KOV_TRAP_FRAME_H

#include <stdint.h>

struct trap_frame {
	uint64_t gpr[32];
	uint64_t nip;    /* SRR0: where the interrupt was taken */
	uint64_t msr;    /* SRR1: MSR at the interrupt (plus cause bits for some vectors) */
	uint64_t lr, ctr, xer, cr;
	uint64_t dar, dsisr;
	uint64_t vector; /* exception vector offset, e.g. 0x900 */
	uint64_t pad;
};

#endif

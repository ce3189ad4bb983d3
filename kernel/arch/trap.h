/* Trap frames: the full register state saved by the exception entry code (boot/vectors.S). */
#ifndef KOV_TRAP_H
#define KOV_TRAP_H

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

/* Called from the entry code with interrupts disabled (kernel/proc/trap.c). */
void exception_dispatch(struct trap_frame *tf);

/* Prints a full report of an unexpected exception and halts the machine (kernel/panic.c). */
void panic_trap(const struct trap_frame *tf, const char *why) __attribute__((noreturn));

/* Human-readable name of an exception vector ("data storage", ...). */
const char *vector_name(uint64_t vector);
/* What a program interrupt's SRR1 (tf->msr) says caused it ("illegal instruction", ...). */
const char *program_cause(uint64_t srr1);

#endif

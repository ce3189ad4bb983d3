/* Trap frames: the full register state saved by the exception entry code (boot/vectors.S). */
#ifndef KOV_TRAP_H
#define KOV_TRAP_H

#include <stdint.h>
#include "kernel/include/trap_frame.h"

/* Called from the entry code with interrupts disabled (kernel/proc/trap.c). */
void exception_dispatch(struct trap_frame *tf);

/* Prints a full report of an unexpected exception and halts the machine (kernel/panic.c). */
void panic_trap(const struct trap_frame *tf, const char *why) __attribute__((noreturn));

/* Human-readable name of an exception vector ("data storage", ...). */
const char *vector_name(uint64_t vector);
/* What a program interrupt's SRR1 (tf->msr) says caused it ("illegal instruction", ...). */
const char *program_cause(uint64_t srr1);

#endif

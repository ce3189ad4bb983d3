/* Bringing up the other CPUs. */
#ifndef KOV_SMP_H
#define KOV_SMP_H

#include <stdbool.h>

/* Starts every CPU of the device tree (up to MAX_CPUS) and waits for each to come online.
 * Returns the number of CPUs online, the boot CPU included. */
unsigned int smp_start(void);

/* C entry of a secondary CPU (from boot/head.S). */
void secondary_main(unsigned long index) __attribute__((noreturn));

/* Runs fn(arg) on every online CPU, the caller included, and waits until all have returned.
 * Other CPUs pick the call up in their idle loop (within one timer tick). False on timeout. */
bool smp_call_all(void (*fn)(void *), void *arg);

/* The per-CPU idle loop: waits for interrupts, runs cross-CPU calls, passes quiescent points. */
void cpu_idle_loop(void) __attribute__((noreturn));

#endif

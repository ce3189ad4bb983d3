/* Bringing up the other CPUs. */
#ifndef KOV_SMP_H
#define KOV_SMP_H

/* Starts every CPU of the device tree (up to MAX_CPUS) and waits for each to come online.
 * Returns the number of CPUs online, the boot CPU included. */
unsigned int smp_start(void);

/* C entry of a secondary CPU (from boot/head.S). */
void secondary_main(unsigned long index) __attribute__((noreturn));

/* The per-CPU idle loop: waits for interrupts forever. */
void cpu_idle_loop(void) __attribute__((noreturn));

#endif

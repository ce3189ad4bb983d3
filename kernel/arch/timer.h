/* The decrementer tick and the monotonic clock (from the timebase). */
#ifndef KOV_TIMER_H
#define KOV_TIMER_H

#include <stdint.h>
#include "trap.h"

#define TIMER_HZ_DEFAULT 100
#define TIMER_HZ_MAX 10000

/* Sets the tick rate for all CPUs (call before timer_start_cpu). */
void timer_set_hz(unsigned int hz);
unsigned int timer_hz(void);

/* Programs this CPU's decrementer for periodic ticks. */
void timer_start_cpu(void);

/* The decrementer interrupt: counts the tick and re-arms it (the dispatcher then ticks the
 * scheduler: kernel/proc/trap.c). */
void timer_interrupt(struct trap_frame *tf);

/* Re-arms this CPU's decrementer when its tick is more than two periods overdue and its
 * interrupt is not pending (call with interrupts off, where the CPU passes often: external
 * interrupts, system calls). An overdue tick whose interrupt is still pending is only counted
 * (ticks_pending): it is taken when interrupts come back on. */
void timer_check(void);

/* Nanoseconds since the timebase started (monotonic, never wraps in practice). */
uint64_t clock_ns(void);

/* Timebase ticks for a number of microseconds. */
uint64_t tb_from_us(uint64_t us);

#endif

/* Randomized sampling periods. A counter reloaded with the same threshold T every time samples
 * a program loop whose length divides T (or nearly) at the same few points of the loop, again
 * and again, so whichever code sits there gets all the samples (aliasing; issue 12). Each
 * reload therefore draws its period uniformly from [T - T/8, T + T/8]: the mean stays T, and
 * the sampled point drifts through any loop shorter than the spread of T/4.
 *
 * The generator is xorshift64* (Vigna 2016; a handful of instructions: the overflow handler's
 * cost is measured per sample), one per CPU, seeded with splitmix64 from the timebase and the
 * CPU index at START. Portable: compiled into the kernel and into the host unit tests. */
#ifndef KOV_SAMPLE_PERIOD_H
#define KOV_SAMPLE_PERIOD_H

#include <stdbool.h>
#include <stdint.h>

/* The longest period a 32-bit counter preloaded below its top bit can count. */
#define PERIOD_MAX 0x80000000u

struct period_gen {
	uint64_t state;      /* never 0 */
	bool fixed;          /* draw exactly T every time (the old behaviour, for comparison) */
};

void period_seed(struct period_gen *g, uint64_t timebase, uint32_t cpu, bool fixed);

/* A period for threshold t (1 <= t): uniform over [t - t/8, t + t/8] (t itself when the spread
 * is 0, i.e. t < 8, or the generator is fixed), capped at PERIOD_MAX. */
uint32_t period_draw(struct period_gen *g, uint64_t t);

/* After the overflow of a counter reading `value` (top bit set: `value - 2^31` events counted
 * past the end of the period): draws the next period into *period and returns the counter's
 * preload, so the next overflow comes exactly *period events after the one just taken. Periods
 * that already ended while the interrupt was held off are added to *lost (each would have been
 * a sample): drawn one by one for the first four, then counted at the mean T. */
uint32_t period_reload(struct period_gen *g, uint64_t t, uint32_t value, uint32_t *period,
	uint64_t *lost);

#endif

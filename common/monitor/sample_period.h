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

/* The generator's next state (xorshift64*'s state step). */
static inline uint64_t period_step(uint64_t x)
{
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	return x;
}

/* lo plus a uniform pick from [0, n) made from state x: 32 output bits of xorshift64* scaled
 * with a multiply and a shift instead of a division, so each value gets floor or ceil of
 * 2^32/n of the inputs (even within 0.1% for n up to 2^22). */
extern const uint64_t period_multiplier;   /* xorshift64*'s, 0x2545F4914F6CDD1D */
static inline uint64_t period_pick(uint64_t x, uint64_t lo, uint64_t n)
{
	/* The multiplier is loaded, not built: in the kernel that is 2 instructions, not 5. */
	uint64_t r = (x * period_multiplier) >> 32;
	return lo + ((r * n) >> 32);
}

/* The draw's range for threshold t: from *lo, *n values ([t - t/8, t + t/8], t capped at
 * PERIOD_MAX; just t when the spread is 0, i.e. t < 8, or the periods are fixed). */
static inline void period_range(uint64_t t, bool fixed, uint64_t *lo, uint64_t *n)
{
	if (t > PERIOD_MAX)
		t = PERIOD_MAX;
	*lo = fixed ? t : t - t / 8;
	*n = fixed ? 1 : 2 * (t / 8) + 1;
}

/* A period for threshold t (1 <= t): uniform over [t - t/8, t + t/8] (t itself when the spread
 * is 0, i.e. t < 8, or the generator is fixed), capped at PERIOD_MAX. Inline: the overflow
 * handler's cost is counted per sample, and the call and frame of an out-of-line draw were a
 * third of its cost. */
static inline __attribute__((always_inline)) uint32_t period_draw(struct period_gen *g, uint64_t t)
{
	uint64_t lo, n;
	period_range(t, g->fixed, &lo, &n);
	if (n == 1)
		return (uint32_t)lo;
	g->state = period_step(g->state);
	uint64_t p = period_pick(g->state, lo, n);
	return p > PERIOD_MAX ? PERIOD_MAX : (uint32_t)p;
}

/* The interrupt was held off past the end of the next period p (or several): usually by one,
 * drawn exactly; a long hold-off at the mean, so the handler's time stays bounded. Returns the
 * period now being counted (high half) and what is left of `over` (low half, below it). Out of
 * line: rare. */
uint64_t period_skip(struct period_gen *g, uint64_t t, uint32_t over, uint32_t p, uint64_t *lost);

/* After the overflow of a counter reading `value` (top bit set: `value - 2^31` events counted
 * past the end of the period): draws the next period into *period and returns the counter's
 * preload, so the next overflow comes exactly *period events after the one just taken. Periods
 * that already ended while the interrupt was held off are added to *lost (each would have been
 * a sample): drawn one by one for the first four, then counted at the mean T. */
static inline __attribute__((always_inline)) uint32_t period_reload(struct period_gen *g,
	uint64_t t, uint32_t value, uint32_t *period, uint64_t *lost)
{
	uint32_t over = value - PERIOD_MAX;
	uint32_t p = period_draw(g, t);
	if (__builtin_expect(over >= p, 0)) {
		uint64_t r = period_skip(g, t, over, p, lost);
		p = (uint32_t)(r >> 32);
		over = (uint32_t)r;
	}
	*period = p;
	return PERIOD_MAX - (p - over);
}

#endif

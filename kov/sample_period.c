/* Randomized sampling periods (kov/sample_period.h). */
#include "sample_period.h"

static uint64_t splitmix64(uint64_t x)
{
	x += 0x9E3779B97F4A7C15ull;
	x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
	x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
	return x ^ (x >> 31);
}

void period_seed(struct period_gen *g, uint64_t timebase, uint32_t cpu, bool fixed)
{
	/* splitmix64 spreads nearby timebases and CPU indices over the whole state space; two
	 * rounds keep CPUs started in the same tick apart. */
	uint64_t s = splitmix64(splitmix64(timebase) ^ ((uint64_t)cpu << 32 | cpu));
	g->state = s ? s : 0x9E3779B97F4A7C15ull;
	g->fixed = fixed;
}

/* Inlined into the reload: the overflow handler's cost is counted per sample. */
static inline __attribute__((always_inline)) uint32_t draw(struct period_gen *g, uint64_t t)
{
	if (t > PERIOD_MAX)
		t = PERIOD_MAX;
	uint64_t spread = t / 8;
	if (g->fixed || spread == 0)
		return (uint32_t)t;
	uint64_t x = g->state;
	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	g->state = x;
	/* 32 random bits scaled to 2*spread+1 values with a multiply and a shift instead of a
	 * division: each value gets floor or ceil of 2^32/(2*spread+1) of the inputs, even
	 * within 0.1% for thresholds up to 2^24. */
	uint64_t r = (x * 0x2545F4914F6CDD1Dull) >> 32;
	uint64_t p = t - spread + ((r * (2 * spread + 1)) >> 32);
	return p > PERIOD_MAX ? PERIOD_MAX : (uint32_t)p;
}

uint32_t period_draw(struct period_gen *g, uint64_t t)
{
	return draw(g, t);
}

/* The interrupt was held off past the end of the next period p (or several): usually by one,
 * drawn exactly; a long hold-off at the mean, so the handler's time stays bounded. Returns the
 * period now being counted (high half) and what is left of `over` (low half, below it). */
static __attribute__((noinline)) uint64_t skip(struct period_gen *g, uint64_t t, uint32_t over,
	uint32_t p, uint64_t *lost)
{
	uint64_t n = 0;
	while (over >= p && n < 4) {
		over -= p;
		n++;
		p = draw(g, t);
	}
	if (over >= p) {
		uint64_t mean = t > PERIOD_MAX ? PERIOD_MAX : t;
		n += over / mean;
		over %= mean;
		if (over >= p) {   /* p < mean: once at most, over < mean - p < p after */
			over -= p;
			n++;
		}
	}
	*lost += n;
	return (uint64_t)p << 32 | over;
}

uint32_t period_reload(struct period_gen *g, uint64_t t, uint32_t value, uint32_t *period,
	uint64_t *lost)
{
	uint32_t over = value - PERIOD_MAX;
	uint32_t p = draw(g, t);
	if (__builtin_expect(over >= p, 0)) {
		uint64_t r = skip(g, t, over, p, lost);
		p = (uint32_t)(r >> 32);
		over = (uint32_t)r;
	}
	*period = p;
	return PERIOD_MAX - (p - over);
}

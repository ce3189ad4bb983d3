/* Randomized sampling periods (common/monitor/sample_period.h). */
#include "sample_period.h"

const uint64_t period_multiplier = 0x2545F4914F6CDD1Dull;

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

/* Periods that ended while the interrupt was held off (common/monitor/sample_period.h). */
uint64_t period_skip(struct period_gen *g, uint64_t t, uint32_t over, uint32_t p, uint64_t *lost)
{
	uint64_t n = 0;
	while (over >= p && n < 4) {
		over -= p;
		n++;
		p = period_draw(g, t);
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

/* The monitor's cost bound (common/monitor/throttle.h). */
#include "throttle.h"

#define COST_CAP_BP 1000000u

void throttle_init(struct throttle *t, uint32_t limit_bp)
{
	*t = (struct throttle){ .limit_bp = limit_bp, .factor = 1,
				.calm_needed = THROTTLE_CALM_WINDOWS };
}

static uint32_t ratio_bp(uint64_t part, uint64_t whole)
{
	if (!whole)
		return 0;
	if (part / whole >= COST_CAP_BP / 10000)
		return COST_CAP_BP;
	/* part < 100 x whole, and windows are well under 2^40 ticks: no overflow. */
	return (uint32_t)(part * 10000 / whole);
}

/* a x num / den, for den >= num (shifted down first, so neither product overflows). */
static uint64_t scale(uint64_t a, uint64_t num, uint64_t den)
{
	while (num >> 31) {
		num >>= 1;
		den >>= 1;
	}
	return den ? a / den * num + a % den * num / den : 0;
}

void throttle_window_of(struct throttle_window *w, uint64_t ticks, const struct throttle_cpu *cpus,
	unsigned n, bool turns)
{
	uint64_t handlers = 0, other = 0, busy = 0;
	*w = (struct throttle_window){ .ticks = ticks, .machine_ticks = ticks * n };
	for (unsigned i = 0; i < n; i++) {
		const struct throttle_cpu *c = &cpus[i];
		w->handler_max = c->handler > w->handler_max ? c->handler : w->handler_max;
		handlers += c->handler;
		other += c->other;
		busy += ticks - (c->idle < ticks ? c->idle : ticks);
	}
	w->total = handlers + other;
	if (!turns || n < 2)
		return;
	/* A span of the daemon's of h (its own) that starts at a random point of a turn of
	 * length S crosses the turn's end with probability h / S, and then gains the (k - 1) S
	 * of the other busy CPUs' turns: k h on average. Handlers are short enough to be
	 * capped instead (the KM's KM_HANDLER_CAP_TICKS). */
	busy = busy < ticks ? ticks : busy > ticks * n ? ticks * n : busy;
	w->ticks = scale(ticks, ticks, busy);
	w->machine_ticks = ticks;
	w->total = handlers + scale(other, ticks, busy);
}

uint32_t throttle_cost_bp(const struct throttle_window *w)
{
	uint32_t handler = ratio_bp(w->handler_max, w->ticks);
	uint32_t all = ratio_bp(w->total, w->machine_ticks);
	return handler > all ? handler : all;
}

uint32_t throttle_decide(struct throttle *t, const struct throttle_window *w)
{
	uint32_t cost = throttle_cost_bp(w);
	t->last_cost_bp = cost;
	if (!t->limit_bp) {
		t->factor = 1;
		t->calm = t->since_halving = 0;
		return 1;
	}
	/* Cost is close to proportional to the sampling rate, so the factor that brings this
	 * window's cost to three quarters of the limit is its ratio to that target, rounded up
	 * to a power of two: one step, not one doubling per window. */
	uint64_t target = (uint64_t)t->limit_bp * 3 / 4;
	if (!target)
		target = 1;
	/* A halving undone within the calm windows it waited for: the load is not proportional
	 * to the rate there (a daemon with a backlog, bursts), so wait twice as long before the
	 * next one; one that held lets the wait shrink again. */
	if (t->since_halving && ++t->since_halving > t->calm_needed + 1) {
		t->since_halving = 0;
		if (t->calm_needed > THROTTLE_CALM_WINDOWS)
			t->calm_needed /= 2;
	}
	if (cost > t->limit_bp) {
		if (t->since_halving) {
			t->since_halving = 0;
			if (t->calm_needed < THROTTLE_MAX_CALM_WINDOWS)
				t->calm_needed *= 2;
		}
		uint64_t want = (uint64_t)t->factor * ((cost + target - 1) / target);
		uint32_t f = t->factor;
		while (f < want && f < THROTTLE_MAX_FACTOR)
			f *= 2;
		t->factor = f;
		t->calm = 0;
		return f;
	}
	/* Halving doubles the cost: only when the doubled cost would still be under the target,
	 * for several windows in a row, so a bursty load does not make the period swing. */
	if (t->factor > 1 && (uint64_t)cost * 2 < target) {
		if (++t->calm >= t->calm_needed) {
			/* The halving before this one held until now. */
			if (t->since_halving && t->calm_needed > THROTTLE_CALM_WINDOWS)
				t->calm_needed /= 2;
			t->factor /= 2;
			t->calm = 0;
			t->since_halving = 1;
		}
		return t->factor;
	}
	t->calm = 0;
	return t->factor;
}

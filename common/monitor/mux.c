#include "mux.h"
#include "common/lib/string.h"

/* 64 x 64 -> 128-bit product from 32-bit halves: the kernel has no 128-bit type to rely on. */
struct u128 {
	uint64_t hi, lo;
};

static struct u128 mul64(uint64_t a, uint64_t b)
{
	uint64_t al = a & 0xffffffffu, ah = a >> 32, bl = b & 0xffffffffu, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (lh & 0xffffffffu) + (hl & 0xffffffffu);
	return (struct u128){ hh + (lh >> 32) + (hl >> 32) + (mid >> 32),
		(ll & 0xffffffffu) | mid << 32 };
}

/* -1, 0, 1 as a*b is below, equal to, above c*d. */
static int cmp_products(uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
	struct u128 x = mul64(a, b), y = mul64(c, d);
	if (x.hi != y.hi)
		return x.hi < y.hi ? -1 : 1;
	if (x.lo != y.lo)
		return x.lo < y.lo ? -1 : 1;
	return 0;
}

uint64_t mux_muldiv(uint64_t a, uint64_t b, uint64_t d, bool *overflow)
{
	struct u128 p = mul64(a, b);
	if (overflow)
		*overflow = false;
	if (d == 0 || p.hi >= d) {
		if (overflow)
			*overflow = true;
		return UINT64_MAX;
	}
	if (p.hi == 0)
		return p.lo / d;
	/* Restoring long division; the remainder stays below d but needs a 65th bit while
	 * shifting, kept in `carry`. */
	uint64_t r = p.hi, q = 0, lo = p.lo;
	for (int i = 0; i < 64; i++) {
		uint64_t carry = r >> 63;
		r = r << 1 | lo >> 63;
		lo <<= 1;
		q <<= 1;
		if (carry || r >= d) {
			r -= d;
			q |= 1;
		}
	}
	return q;
}

static uint64_t isqrt64(uint64_t x)
{
	uint64_t r = 0, bit = 1ull << 62;
	while (bit > x)
		bit >>= 2;
	for (; bit; bit >>= 2) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
	}
	return r;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* ---- scheduling -------------------------------------------------------------------------- */

void mux_init(struct mux *m)
{
	memset(m, 0, sizeof *m);
	m->current = -1;
}

static void restart(struct mux *m)
{
	for (int i = 0; i < m->n; i++)
		m->group[i].ran = m->group[i].slices = 0;
	m->total = 0;
}

int mux_find(const struct mux *m, const char *name)
{
	for (int i = 0; i < m->n; i++)
		if (strcmp(m->group[i].name, name) == 0)
			return i;
	return -1;
}

int mux_add(struct mux *m, const char *name, uint32_t share)
{
	size_t len = 0;
	while (name && len < MUX_NAME_MAX && name[len])
		len++;
	if (m->n >= MUX_MAX_GROUPS || share == 0 || len == 0 || len >= MUX_NAME_MAX ||
		mux_find(m, name) >= 0)
		return -1;
	struct mux_group *g = &m->group[m->n];
	memset(g, 0, sizeof *g);
	memcpy(g->name, name, len + 1);
	g->share = share;
	restart(m);
	return m->n++;
}

static uint64_t share_sum(const struct mux *m)
{
	uint64_t w = 0;
	for (int i = 0; i < m->n; i++)
		w += m->group[i].share;
	return w;
}

/* Group i's next slice is due at (ran_i + L) * W / share_i; comparing two of them, W cancels
 * and the products are compared exactly. A group is eligible when it has not run ahead of
 * its entitlement: ran_i * W <= total * share_i. */
static int pick(const struct mux *m, uint64_t slice)
{
	uint64_t w = share_sum(m);
	int best = -1;
	/* Some group is always eligible (their lags sum to zero); the second pass only guards
	 * against saturated clocks. */
	for (int pass = 0; pass < 2 && best < 0; pass++) {
		for (int i = 0; i < m->n; i++) {
			const struct mux_group *g = &m->group[i];
			const struct mux_group *b = best >= 0 ? &m->group[best] : NULL;
			if (pass == 0 && cmp_products(g->ran, w, m->total, g->share) > 0)
				continue;
			if (!b || cmp_products(add_sat(g->ran, slice), b->share,
				add_sat(b->ran, slice), g->share) < 0)
				best = i;
		}
	}
	return best;
}

struct mux_switch mux_switch(struct mux *m, uint64_t now)
{
	struct mux_switch s = { .ran = -1, .length = 0, .next = -1 };
	if (m->started && m->current >= 0 && m->current < m->n) {
		struct mux_group *g = &m->group[m->current];
		s.ran = m->current;
		s.length = now > m->last ? now - m->last : 0;
		g->ran = add_sat(g->ran, s.length);
		g->slices++;
		m->total = add_sat(m->total, s.length);
		if (s.length)
			m->last_len = s.length;
	}
	m->started = true;
	m->last = now;
	s.next = m->n ? pick(m, m->last_len ? m->last_len : 1) : -1;
	m->current = s.next;
	return s;
}

/* ---- accounting -------------------------------------------------------------------------- */

void mux_count_slice(struct mux_count *c, uint64_t length, bool running, uint64_t delta)
{
	c->enabled = add_sat(c->enabled, length);
	if (running) {
		c->running = add_sat(c->running, length);
		c->raw = add_sat(c->raw, delta);
	}
}

void mux_count_reset(struct mux_count *c)
{
	c->raw = c->enabled = c->running = 0;
}

struct mux_estimate mux_estimate(const struct mux_count *c)
{
	struct mux_estimate e = { 0 };
	bool over;
	if (c->running == 0)
		return e;
	e.counted = true;
	e.value = c->raw;
	if (c->running >= c->enabled)
		return e;
	e.value = mux_muldiv(c->raw, c->enabled, c->running, &over);
	e.saturated = over;
	e.extrapolated = e.value - c->raw;
	uint64_t var = mux_muldiv(e.extrapolated, c->enabled, c->running, &over);
	e.saturated |= over;
	e.stddev = isqrt64(var);
	return e;
}

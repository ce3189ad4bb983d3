/* Multiplexing: shares converge (within one slice at every point for equal slices), the
 * scheduler is deterministic, and scaling is exact, saturating and "not counted" when an event
 * never ran. 64x64-bit products are checked against the host compiler's 128-bit type. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/mux.h"

/* Deterministic pseudo-random numbers (xorshift64). */
static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int64_t absdiff(int64_t a, int64_t b)
{
	return a > b ? a - b : b - a;
}

/* Runs `slices` equal slices and checks the scheduler's counts after each one:
 * |count_i - n * share_i / W| < 1, n the slices since the group set last changed. */
static void check_equal_slices(struct mux *m, int slices)
{
	int64_t w = 0;
	for (int i = 0; i < m->n; i++)
		w += m->group[i].share;
	uint64_t now = m->last;
	int next = m->started ? m->current : mux_switch(m, now).next;
	for (int k = 0; k < slices; k++) {
		now += 250;
		struct mux_switch s = mux_switch(m, now);
		assert_int_equal(s.ran, next);
		assert_int_equal(s.length, 250);
		next = s.next;
		int64_t n = 0;
		for (int i = 0; i < m->n; i++)
			n += (int64_t)m->group[i].slices;
		for (int i = 0; i < m->n; i++)
			assert_true(absdiff((int64_t)m->group[i].slices * w,
				n * m->group[i].share) < w);
	}
}

static void test_percentages(void **state)
{
	(void)state;
	struct mux m;
	mux_init(&m);
	assert_int_equal(mux_add(&m, "ipc", 50), 0);
	assert_int_equal(mux_add(&m, "locks", 30), 1);
	assert_int_equal(mux_add(&m, "tlb", 20), 2);
	check_equal_slices(&m, 10000);
	assert_int_equal(m.group[0].slices, 5000);
	assert_int_equal(m.group[1].slices, 3000);
	assert_int_equal(m.group[2].slices, 2000);
}

static void test_random_shares(void **state)
{
	(void)state;
	for (int trial = 0; trial < 200; trial++) {
		struct mux m;
		char name[8];
		mux_init(&m);
		int k = 1 + (int)(next_random() % MUX_MAX_GROUPS);
		for (int i = 0; i < k; i++) {
			name[0] = 'g';
			name[1] = (char)('a' + i);
			name[2] = 0;
			assert_int_equal(mux_add(&m, name, 1 + (uint32_t)(next_random() % 100)), i);
		}
		check_equal_slices(&m, 600);
	}
}

/* Slices of uneven length (timer jitter): each group's time stays within 1.5 longest slices of
 * its entitled time (about 1.05 is what this schedule reaches). */
static void test_uneven_slices(void **state)
{
	(void)state;
	for (int trial = 0; trial < 100; trial++) {
		struct mux m;
		char name[8];
		mux_init(&m);
		int k = 1 + (int)(next_random() % 8);
		int64_t w = 0;
		for (int i = 0; i < k; i++) {
			name[0] = 'g';
			name[1] = (char)('a' + i);
			name[2] = 0;
			uint32_t share = 1 + (uint32_t)(next_random() % 100);
			w += share;
			assert_int_equal(mux_add(&m, name, share), i);
		}
		uint64_t now = 0, longest = 0;
		mux_switch(&m, now);
		for (int n = 0; n < 1000; n++) {
			uint64_t len = 500 + next_random() % 1001;
			longest = len > longest ? len : longest;
			now += len;
			mux_switch(&m, now);
			for (int i = 0; i < k; i++) {
				int64_t lag = absdiff((int64_t)m.group[i].ran * w,
					(int64_t)m.total * m.group[i].share);
				assert_true(2 * lag <= 3 * (int64_t)longest * w);
			}
		}
		assert_int_equal(m.total, now);
	}
}

static void test_switch_details(void **state)
{
	(void)state;
	struct mux m;
	mux_init(&m);
	struct mux_switch s = mux_switch(&m, 5);
	assert_int_equal(s.ran, -1);
	assert_int_equal(s.next, -1);

	assert_int_equal(mux_add(&m, "a", 20), 0);
	assert_int_equal(mux_add(&m, "b", 60), 1);
	assert_int_equal(mux_add(&m, "c", 20), 2);
	assert_int_equal(mux_find(&m, "c"), 2);
	assert_int_equal(mux_find(&m, "d"), -1);
	mux_init(&m);
	mux_add(&m, "a", 20);
	mux_add(&m, "b", 60);
	mux_add(&m, "c", 20);
	/* Largest share first; equal shares in index order; the sequence repeats exactly. */
	int expected[] = { 1, 0, 1, 2, 1, 1, 0, 1, 2, 1 };
	uint64_t now = 100;
	s = mux_switch(&m, now);
	assert_int_equal(s.ran, -1);
	assert_int_equal(s.length, 0);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(s.next, expected[i]);
		now += 10;
		s = mux_switch(&m, now);
		assert_int_equal(s.ran, expected[i]);
	}

	/* A clock that goes backwards charges nothing. */
	int ran = s.next;
	uint64_t before = m.group[ran].ran;
	s = mux_switch(&m, now - 50);
	assert_int_equal(s.ran, ran);
	assert_int_equal(s.length, 0);
	assert_int_equal(m.group[ran].ran, before);

	/* One group runs all the time. */
	mux_init(&m);
	mux_add(&m, "only", 7);
	for (int i = 0; i < 5; i++)
		assert_int_equal(mux_switch(&m, (uint64_t)i * 3).next, 0);
}

static void test_add_refusals(void **state)
{
	(void)state;
	struct mux m;
	char name[8];
	mux_init(&m);
	assert_int_equal(mux_add(&m, "a", 0), -1);
	assert_int_equal(mux_add(&m, "", 10), -1);
	assert_int_equal(mux_add(&m, NULL, 10), -1);
	assert_int_equal(mux_add(&m, "0123456789012345678901234567890", 10), 0);   /* 31 chars */
	assert_int_equal(mux_add(&m, "01234567890123456789012345678901", 10), -1); /* 32 */
	assert_int_equal(mux_add(&m, "0123456789012345678901234567890", 10), -1);  /* taken */
	for (int i = 1; i < MUX_MAX_GROUPS; i++) {
		name[0] = 'g';
		name[1] = (char)('a' + i);
		name[2] = 0;
		assert_int_equal(mux_add(&m, name, 10), i);
	}
	assert_int_equal(mux_add(&m, "full", 10), -1);
}

/* Adding a group restarts the accounting, so a newcomer does not monopolise the PMU. */
static void test_add_restarts(void **state)
{
	(void)state;
	struct mux m;
	mux_init(&m);
	mux_add(&m, "a", 50);
	mux_switch(&m, 0);
	mux_switch(&m, 1000);
	assert_int_equal(m.total, 1000);
	mux_add(&m, "b", 50);      /* "a" keeps the PMU until the next switch */
	assert_int_equal(m.total, 0);
	assert_int_equal(m.group[0].ran, 0);
	check_equal_slices(&m, 100);
}

static void test_muldiv_exact(void **state)
{
	(void)state;
	bool over;
	assert_int_equal(mux_muldiv(1000, 300, 100, &over), 3000);
	assert_false(over);
	assert_int_equal(mux_muldiv(UINT64_MAX, UINT64_MAX, UINT64_MAX, &over), UINT64_MAX);
	assert_false(over);
	assert_int_equal(mux_muldiv(UINT64_MAX, 2, 3, &over), 0xAAAAAAAAAAAAAAAAull);   /* (2^65-2)/3 */
	assert_false(over);
	assert_int_equal(mux_muldiv(UINT64_MAX, 2, 1, &over), UINT64_MAX);
	assert_true(over);
	assert_int_equal(mux_muldiv(5, 5, 0, &over), UINT64_MAX);
	assert_true(over);
	assert_int_equal(mux_muldiv(0, 0, 7, NULL), 0);
	for (int i = 0; i < 100000; i++) {
		int shift = (int)(next_random() % 64);
		uint64_t a = next_random(), b = next_random() >> shift, d = next_random() >> (63 - shift);
		if (d == 0)
			d = 1;
		unsigned __int128 q = (unsigned __int128)a * b / d;
		uint64_t r = mux_muldiv(a, b, d, &over);
		if (q >> 64) {
			assert_true(over);
			assert_int_equal(r, UINT64_MAX);
		} else {
			assert_false(over);
			assert_int_equal(r, (uint64_t)q);
		}
	}
}

static void test_scaling(void **state)
{
	(void)state;
	struct mux_count c = { 0 };
	struct mux_estimate e = mux_estimate(&c);
	assert_false(e.counted);

	/* Enabled three slices, running one: 1000 seen -> 3000. Extrapolated 2000; the Poisson
	 * standard deviation is sqrt(raw * u * enabled) / running = sqrt(1000*200*300)/100 =
	 * sqrt(6000) = 77. */
	mux_count_slice(&c, 100, true, 1000);
	mux_count_slice(&c, 100, false, 12345);      /* not running: the delta is ignored */
	mux_count_slice(&c, 100, false, 0);
	assert_int_equal(c.raw, 1000);
	assert_int_equal(c.enabled, 300);
	assert_int_equal(c.running, 100);
	e = mux_estimate(&c);
	assert_true(e.counted);
	assert_false(e.saturated);
	assert_int_equal(e.value, 3000);
	assert_int_equal(e.extrapolated, 2000);
	assert_int_equal(e.stddev, 77);

	/* Never on the PMU: not counted, whatever the enabled time. */
	mux_count_reset(&c);
	mux_count_slice(&c, 500, false, 0);
	e = mux_estimate(&c);
	assert_false(e.counted);
	assert_int_equal(e.value, 0);

	/* Always on the PMU: raw, nothing extrapolated. */
	mux_count_reset(&c);
	mux_count_slice(&c, 500, true, 42);
	e = mux_estimate(&c);
	assert_true(e.counted);
	assert_int_equal(e.value, 42);
	assert_int_equal(e.extrapolated, 0);
	assert_int_equal(e.stddev, 0);

	/* Large values where raw * enabled needs more than 64 bits. */
	c = (struct mux_count){ .raw = (1ull << 40) + 7, .enabled = 3ull << 30,
		.running = (1ull << 30) + 1 };
	e = mux_estimate(&c);
	unsigned __int128 q = (unsigned __int128)c.raw * c.enabled / c.running;
	assert_int_equal(e.value, (uint64_t)q);
	assert_int_equal(e.extrapolated, (uint64_t)q - c.raw);

	/* Too big to scale: saturated, and said so. */
	c = (struct mux_count){ .raw = UINT64_MAX / 2, .enabled = 4, .running = 1 };
	e = mux_estimate(&c);
	assert_true(e.saturated);
	assert_int_equal(e.value, UINT64_MAX);

	/* Sums saturate instead of wrapping. */
	c = (struct mux_count){ .raw = UINT64_MAX - 1, .enabled = UINT64_MAX, .running = 1 };
	mux_count_slice(&c, 10, true, 10);
	assert_int_equal(c.raw, UINT64_MAX);
	assert_int_equal(c.enabled, UINT64_MAX);
	assert_int_equal(c.running, 11);
}

/* End to end: three groups, events at constant rates; scaled counts are exact and the
 * standard deviation comes out near the Poisson model's. */
static void test_rotation_scaling(void **state)
{
	(void)state;
	struct mux m;
	struct mux_count c[3] = { 0 };
	const uint64_t rate[3] = { 7, 3, 11 };       /* events per time unit */
	mux_init(&m);
	mux_add(&m, "g0", 50);
	mux_add(&m, "g1", 25);
	mux_add(&m, "g2", 25);
	uint64_t now = 0;
	mux_switch(&m, now);
	for (int n = 0; n < 400; n++) {
		uint64_t len = 100 + (uint64_t)(n % 7) * 10;
		now += len;
		struct mux_switch s = mux_switch(&m, now);
		for (int g = 0; g < 3; g++)
			mux_count_slice(&c[g], s.length, s.ran == g, rate[g] * s.length);
	}
	for (int g = 0; g < 3; g++) {
		struct mux_estimate e = mux_estimate(&c[g]);
		assert_true(e.counted);
		assert_int_equal(c[g].enabled, now);
		assert_int_equal(e.value, rate[g] * now);
		assert_true(e.stddev > 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_percentages),
		cmocka_unit_test(test_random_shares),
		cmocka_unit_test(test_uneven_slices),
		cmocka_unit_test(test_switch_details),
		cmocka_unit_test(test_add_refusals),
		cmocka_unit_test(test_add_restarts),
		cmocka_unit_test(test_muldiv_exact),
		cmocka_unit_test(test_scaling),
		cmocka_unit_test(test_rotation_scaling),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Randomized sampling periods: the draw stays in [T - T/8, T + T/8] with mean T and reaches
 * every value; seeds separate CPUs; the reload keeps exactly one overflow per drawn period and
 * counts the periods a held-off interrupt skipped; and a loop whose length divides the period
 * is sampled in proportion to its phases only when the period is randomized (issue 12). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/sample_period.h"

static void draws_stay_in_range_with_mean_t(void **state)
{
	(void)state;
	struct period_gen g;
	period_seed(&g, 123456789, 0, false);
	const uint64_t t = 100003, s = t / 8;
	uint64_t sum = 0, lo = UINT64_MAX, hi = 0;
	const int n = 200000;
	for (int i = 0; i < n; i++) {
		uint32_t p = period_draw(&g, t);
		assert_in_range(p, t - s, t + s);
		sum += p;
		lo = p < lo ? p : lo;
		hi = p > hi ? p : hi;
	}
	/* The mean of n uniform draws over 2s+1 values is within s/sqrt(3n) of t at 1 sigma. */
	double mean = (double)sum / n;
	assert_true(mean > t - 0.01 * s && mean < t + 0.01 * s);
	assert_true(lo < t - s + s / 100 && hi > t + s - s / 100);
}

static void every_value_is_drawn_evenly(void **state)
{
	(void)state;
	struct period_gen g;
	period_seed(&g, 42, 3, false);
	const uint64_t t = 80;   /* spread 10: 21 values */
	unsigned seen[21] = { 0 };
	const int n = 21000;
	for (int i = 0; i < n; i++) {
		uint32_t p = period_draw(&g, t);
		assert_in_range(p, 70, 90);
		seen[p - 70]++;
	}
	for (int v = 0; v < 21; v++)   /* expected 1000 each; 4 sigma is about 125 */
		assert_in_range(seen[v], 850, 1150);
}

static void fixed_small_and_huge_thresholds(void **state)
{
	(void)state;
	struct period_gen g;
	period_seed(&g, 1, 0, true);
	for (int i = 0; i < 100; i++)
		assert_int_equal(period_draw(&g, 100003), 100003);
	period_seed(&g, 1, 0, false);
	for (uint64_t t = 1; t < 8; t++)   /* no spread below 8 */
		assert_int_equal(period_draw(&g, t), t);
	for (int i = 0; i < 1000; i++) {
		assert_true(period_draw(&g, PERIOD_MAX) <= PERIOD_MAX);
		assert_true(period_draw(&g, 1ull << 40) <= PERIOD_MAX);
		assert_true(period_draw(&g, PERIOD_MAX) >= PERIOD_MAX - PERIOD_MAX / 8);
	}
}

static void seeds_separate_cpus_and_repeat(void **state)
{
	(void)state;
	struct period_gen a, b, c;
	period_seed(&a, 1000, 0, false);
	period_seed(&b, 1000, 1, false);
	period_seed(&c, 1000, 0, false);
	int same_ab = 0;
	for (int i = 0; i < 1000; i++) {
		uint32_t x = period_draw(&a, 1u << 20), y = period_draw(&b, 1u << 20);
		same_ab += x == y;
		assert_int_equal(period_draw(&c, 1u << 20), x);
	}
	assert_true(same_ab < 10);   /* 1 in 2^18 by chance */
	period_seed(&a, 0, 0, false);
	assert_true(a.state != 0);
}

/* A counter in software: `events` counted, the overflow raised when the top bit is reached
 * and taken `hold` events later; the reload must put every overflow exactly on the boundary
 * of the periods drawn from a twin generator, skipping (and counting lost) those passed. */
static void reload_keeps_one_overflow_per_drawn_period(void **state)
{
	(void)state;
	struct period_gen g, twin;
	period_seed(&g, 77, 2, false);
	twin = g;
	const uint64_t t = 5000;
	uint32_t period;
	uint32_t value = PERIOD_MAX - period_draw(&g, t);
	uint64_t boundary = period_draw(&twin, t), pos = 0, lost = 0, twin_lost = 0;
	uint64_t holdoffs[] = { 0, 1, 17, 4000, 5600, 9000, 14000, 19000, 0, 3 };
	for (int k = 0; k < 1000; k++) {
		uint64_t to_overflow = PERIOD_MAX - value;
		pos += to_overflow;
		assert_int_equal(pos, boundary);   /* the overflow is on the drawn boundary */
		uint64_t hold = holdoffs[k % 10];
		pos += hold;
		value = PERIOD_MAX + (uint32_t)hold;
		value = period_reload(&g, t, value, &period, &lost);
		assert_true(value < PERIOD_MAX);
		/* The twin: every boundary at or before pos was passed without its sample. */
		boundary += period_draw(&twin, t);
		while (boundary <= pos) {
			twin_lost++;
			boundary += period_draw(&twin, t);
		}
		assert_int_equal(lost, twin_lost);
		assert_int_equal(pos + (PERIOD_MAX - value), boundary);
		assert_in_range(period, t - t / 8, t + t / 8);
	}
	assert_true(lost > 0);
}

static void long_holdoff_is_counted_at_the_mean(void **state)
{
	(void)state;
	struct period_gen g;
	period_seed(&g, 5, 0, false);
	const uint64_t t = 1000;
	uint64_t lost = 0;
	uint32_t period;
	uint32_t over = 1000000;   /* a thousand periods */
	uint32_t v = period_reload(&g, t, PERIOD_MAX + over, &period, &lost);
	assert_true(v < PERIOD_MAX && PERIOD_MAX - v <= period);
	assert_in_range(lost, 990, 1010);
	period_seed(&g, 5, 0, false);
	lost = 0;
	v = period_reload(&g, 1, PERIOD_MAX + 0x7fffffffu, &period, &lost);   /* t = 1: no spread */
	assert_int_equal(lost, 0x7fffffffu);
	assert_int_equal(v, PERIOD_MAX - 1);
}

/* A loop of L instructions, phase A the first a of them, sampled by a counter with threshold T
 * a multiple or near multiple of L: the share of samples whose instruction falls in phase A. */
static double share_in_a(uint64_t a, uint64_t l, uint64_t t, bool fixed, int samples)
{
	struct period_gen g;
	period_seed(&g, 2024, 0, fixed);
	uint64_t pos = 0, in_a = 0, lost = 0;
	uint32_t period, value = PERIOD_MAX - period_draw(&g, t);
	for (int k = 0; k < samples; k++) {
		pos += PERIOD_MAX - value;
		in_a += pos % l < a;
		value = period_reload(&g, t, PERIOD_MAX, &period, &lost);
	}
	assert_int_equal(lost, 0);
	return (double)in_a / samples;
}

static void randomized_periods_do_not_alias(void **state)
{
	(void)state;
	const uint64_t a = 75000, l = 100000;   /* phase A: 75% of the instructions */
	const uint64_t periods[] = { l, 3 * l, 3 * l + 1, l / 2, 10 * l + 2 };
	for (size_t i = 0; i < sizeof periods / sizeof periods[0]; i++) {
		double fixed = share_in_a(a, l, periods[i], true, 20000);
		double rnd = share_in_a(a, l, periods[i], false, 20000);
		print_message("T=%llu: share of samples in A (75%% of the loop): fixed %.1f%%, "
			      "randomized %.1f%%\n", (unsigned long long)periods[i], 100 * fixed, 100 * rnd);
		assert_true(fixed < 0.02 || fixed > 0.98);
		assert_true(rnd > 0.73 && rnd < 0.77);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(draws_stay_in_range_with_mean_t),
		cmocka_unit_test(every_value_is_drawn_evenly),
		cmocka_unit_test(fixed_small_and_huge_thresholds),
		cmocka_unit_test(seeds_separate_cpus_and_repeat),
		cmocka_unit_test(reload_keeps_one_overflow_per_drawn_period),
		cmocka_unit_test(long_holdoff_is_counted_at_the_mean),
		cmocka_unit_test(randomized_periods_do_not_alias),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

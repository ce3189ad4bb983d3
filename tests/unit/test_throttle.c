/* The monitor's cost bound (common/monitor/throttle.h), driven by a model of a machine whose
 * monitoring cost is proportional to the sampling rate: an overload is brought under the limit
 * in one window, the factor stays put while the cost sits between the calm level and the
 * limit, comes back to 1 once the load goes, and a limit of 0 turns it all off. The cost is
 * the busiest CPU's handler time or the whole monitor's share of the machine, whichever is
 * larger. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/monitor/throttle.h"

#define WINDOW 51200000ull        /* 100 ms of a 512 MHz timebase */

/* A window of a machine of `cpus` CPUs whose monitoring would cost `cost_bp` of each CPU at the
 * periods asked for (handler a third of it, the rest drains and the daemon), sampled at the
 * throttled periods. */
static struct throttle_window model(uint32_t cpus, uint64_t cost_bp, uint32_t factor)
{
	uint64_t per_cpu = WINDOW * cost_bp / 10000 / factor;
	return (struct throttle_window){ .ticks = WINDOW, .machine_ticks = WINDOW * cpus,
					 .handler_max = per_cpu / 3,
					 .total = per_cpu * cpus };
}

static void cost_is_the_larger_of_busiest_handler_and_machine_share(void **state)
{
	(void)state;
	struct throttle_window w = { .ticks = 1000, .machine_ticks = 4000, .handler_max = 300, .total = 400 };
	assert_int_equal(throttle_cost_bp(&w), 3000);   /* one CPU's interrupts: 30% */
	w.handler_max = 10;
	assert_int_equal(throttle_cost_bp(&w), 1000);   /* 400 of 4 x 1000: 10% */
	w.total = 1000000;
	assert_int_equal(throttle_cost_bp(&w), 1000000);   /* capped */
	w.ticks = w.machine_ticks = 0;
	assert_int_equal(throttle_cost_bp(&w), 0);
}

static void overload_is_brought_under_the_limit_in_one_window(void **state)
{
	(void)state;
	struct throttle t;
	throttle_init(&t, THROTTLE_DEFAULT_LIMIT_BP);
	/* 356% of each CPU at the asked periods (a sample every 1,000 instructions). */
	struct throttle_window w = model(4, 35600, t.factor);
	uint32_t f = throttle_decide(&t, &w);
	assert_true(f > 1 && (f & (f - 1)) == 0);
	w = model(4, 35600, f);
	assert_true(throttle_cost_bp(&w) <= THROTTLE_DEFAULT_LIMIT_BP * 3 / 4);
	/* Under the limit now: the factor holds. */
	for (int i = 0; i < 20; i++)
		assert_int_equal(throttle_decide(&t, &w), f);
	/* And the smallest such factor: half of it would be over the limit's three quarters. */
	struct throttle_window half = model(4, 35600, f / 2);
	assert_true(throttle_cost_bp(&half) > THROTTLE_DEFAULT_LIMIT_BP * 3 / 4);
}

static void factor_returns_to_one_when_the_load_goes(void **state)
{
	(void)state;
	struct throttle t;
	throttle_init(&t, 1000);
	struct throttle_window w = model(2, 8000, 1);
	uint32_t f = throttle_decide(&t, &w);
	assert_int_equal(f, 16);   /* 80% / 7.5% -> 11 -> 16 */
	int windows = 0, changes = 0;
	uint32_t last = f;
	/* The load drops to 1% at the asked periods. */
	while (t.factor > 1 && windows < 100) {
		w = model(2, 100, t.factor);
		throttle_decide(&t, &w);
		changes += t.factor != last;
		last = t.factor;
		windows++;
	}
	assert_int_equal(t.factor, 1);
	assert_int_equal(changes, 4);                       /* 16 -> 8 -> 4 -> 2 -> 1 */
	assert_int_equal(windows, 4 * THROTTLE_CALM_WINDOWS);   /* each after the calm windows */
}

static void no_swing_between_calm_level_and_limit(void **state)
{
	(void)state;
	struct throttle t;
	throttle_init(&t, 1000);
	throttle_decide(&t, &(struct throttle_window){ .ticks = WINDOW, .machine_ticks = WINDOW,
							.total = WINDOW / 4 });   /* 25% */
	uint32_t f = t.factor;
	assert_int_equal(f, 4);
	/* At factor 4 the cost is 6.25%: halving would make it 12.5%, over the limit. */
	for (int i = 0; i < 50; i++) {
		struct throttle_window w = model(1, 2500, t.factor);
		assert_int_equal(throttle_decide(&t, &w), f);
	}
}

static void a_calm_window_run_broken_by_a_burst_starts_again(void **state)
{
	(void)state;
	struct throttle t;
	throttle_init(&t, 1000);
	struct throttle_window hot = model(1, 1600, 1), cold = model(1, 100, 1);
	assert_int_equal(throttle_decide(&t, &hot), 4);   /* 16% / 7.5% -> 3 -> 4 */
	for (int i = 0; i < THROTTLE_CALM_WINDOWS - 1; i++)
		assert_int_equal(throttle_decide(&t, &cold), 4);
	struct throttle_window mid = model(1, 1600, 4);   /* 4%: under the limit, not calm */
	assert_int_equal(throttle_decide(&t, &mid), 4);
	for (int i = 0; i < THROTTLE_CALM_WINDOWS - 1; i++)
		assert_int_equal(throttle_decide(&t, &cold), 4);
	assert_int_equal(throttle_decide(&t, &cold), 2);
}

/* A load that is not proportional to the rate (a daemon that falls behind at the periods asked
 * for): 11% at factor 1, 2.5% at 2. Halving back to 1 has to be undone each time; the wait
 * before the next try doubles, so the changes thin out instead of coming every 4 windows. */
static void halvings_that_do_not_hold_are_tried_less_often(void **state)
{
	(void)state;
	struct throttle t;
	throttle_init(&t, 1000);
	int changes = 0;
	uint32_t last = 1;
	for (int i = 0; i < 300; i++) {
		struct throttle_window w = model(1, t.factor == 1 ? 1100 : 500, t.factor);
		throttle_decide(&t, &w);
		changes += t.factor != last;
		last = t.factor;
	}
	print_message("300 windows: %d changes, calm windows needed now %u\n", changes, t.calm_needed);
	assert_true(changes <= 16);
	assert_int_equal(t.calm_needed, THROTTLE_MAX_CALM_WINDOWS);
	/* The load goes: halvings hold again, and the wait comes back down. */
	throttle_decide(&t, &(struct throttle_window){ .ticks = WINDOW, .machine_ticks = WINDOW,
							.total = WINDOW });   /* 100%: up */
	uint32_t top = t.factor;
	for (int i = 0; i < 2000 && t.factor > 1; i++) {
		struct throttle_window w = model(1, 10, t.factor);
		throttle_decide(&t, &w);
	}
	assert_true(top > 2);
	assert_int_equal(t.factor, 1);
	assert_true(t.calm_needed < THROTTLE_MAX_CALM_WINDOWS);
}

static void limit_zero_is_off_and_factor_is_capped(void **state)
{
	(void)state;
	struct throttle t;
	throttle_init(&t, 1000);
	struct throttle_window storm = { .ticks = WINDOW, .machine_ticks = WINDOW, .handler_max = WINDOW * 200 };
	assert_int_equal(throttle_decide(&t, &storm), THROTTLE_MAX_FACTOR >= 2048 ? 2048 : THROTTLE_MAX_FACTOR);
	for (int i = 0; i < 10; i++)
		throttle_decide(&t, &storm);
	assert_int_equal(t.factor, THROTTLE_MAX_FACTOR);
	t.limit_bp = 0;
	assert_int_equal(throttle_decide(&t, &storm), 1);
	assert_int_equal(t.last_cost_bp, 1000000);
}

static void throttled_period_saturates(void **state)
{
	(void)state;
	assert_int_equal(throttle_period(1000, 0), 1000);
	assert_int_equal(throttle_period(1000, 1), 1000);
	assert_int_equal(throttle_period(1000, 64), 64000);
	assert_true(throttle_period(1ull << 60, 4096) == 1ull << 63);
}

/* CPUs with a core each: every CPU had the whole window, the machine CPUs x window. */
static void parallel_window_is_cpus_times_the_window(void **state)
{
	(void)state;
	struct throttle_cpu c[2] = { { 300, 1000, 0 }, { 500, 0, WINDOW } };
	struct throttle_window w;
	throttle_window_of(&w, WINDOW, c, 2, false);
	assert_true(w.ticks == WINDOW && w.machine_ticks == 2 * WINDOW);
	assert_true(w.handler_max == 500 && w.total == 1800);
}

/* Four CPUs taking turns on one host thread, all busy: each runs a quarter of the window, the
 * machine has one window in all, and the daemon's span (4x its own time) counts a quarter. A
 * CPU spending 2.5% of the window in its handler spends 10% of its own time there; the old
 * measure (the window as each CPU's time) made it 2.5%, and let monitoring take 4x the limit. */
static void turns_all_busy_share_one_host_thread(void **state)
{
	(void)state;
	struct throttle_cpu c[4] = { { WINDOW / 40, 4 * WINDOW / 10, 0 }, { WINDOW / 40, 0, 0 },
				     { WINDOW / 40, 0, 0 }, { WINDOW / 40, 0, 0 } };
	struct throttle_window w;
	throttle_window_of(&w, WINDOW, c, 4, true);
	assert_true(w.ticks == WINDOW / 4 && w.machine_ticks == WINDOW);
	assert_true(w.total == 4 * (WINDOW / 40) + WINDOW / 10);
	/* handlers 10% of each CPU, the daemon 10% of the machine: 20% in all */
	assert_int_equal(throttle_cost_bp(&w), 2000);
}

/* Idle CPUs give their turns up: one busy CPU of four has the host thread to itself, two share
 * it; an idle figure past the window (a CPU that came online in it) counts as idle. */
static void turns_with_idle_cpus_share_among_the_busy(void **state)
{
	(void)state;
	struct throttle_cpu one[4] = { { WINDOW / 10, WINDOW / 10, 0 }, { 0, 0, WINDOW },
				       { 0, 0, WINDOW }, { 0, 0, 3 * WINDOW } };
	struct throttle_window w;
	throttle_window_of(&w, WINDOW, one, 4, true);
	assert_true(w.ticks == WINDOW && w.machine_ticks == WINDOW);
	assert_true(w.total == WINDOW / 5);
	assert_int_equal(throttle_cost_bp(&w), 2000);
	struct throttle_cpu two[4] = { { 0, WINDOW / 5, WINDOW / 2 }, { 0, 0, WINDOW / 2 },
				       { 0, 0, 0 }, { 0, 0, WINDOW } };
	throttle_window_of(&w, WINDOW, two, 4, true);   /* 2 CPUs' worth busy */
	assert_true(w.ticks == WINDOW / 2 && w.total == WINDOW / 10);
	struct throttle_cpu none[2] = { { 0, 0, WINDOW }, { 0, 0, WINDOW } };
	throttle_window_of(&w, WINDOW, none, 2, true);  /* all idle: no division by zero */
	assert_true(w.ticks == WINDOW && w.total == 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cost_is_the_larger_of_busiest_handler_and_machine_share),
		cmocka_unit_test(overload_is_brought_under_the_limit_in_one_window),
		cmocka_unit_test(factor_returns_to_one_when_the_load_goes),
		cmocka_unit_test(no_swing_between_calm_level_and_limit),
		cmocka_unit_test(a_calm_window_run_broken_by_a_burst_starts_again),
		cmocka_unit_test(halvings_that_do_not_hold_are_tried_less_often),
		cmocka_unit_test(limit_zero_is_off_and_factor_is_capped),
		cmocka_unit_test(throttled_period_saturates),
		cmocka_unit_test(parallel_window_is_cpus_times_the_window),
		cmocka_unit_test(turns_all_busy_share_one_host_thread),
		cmocka_unit_test(turns_with_idle_cpus_share_among_the_busy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

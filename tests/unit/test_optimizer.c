/* kovctl optimize's policy (gui/client/optimizer.c) on synthetic interval series whose truth
 * is known: a sustained hot object is swapped once, a short spike and noise around the
 * threshold are not, a swapped object is left alone through its cool-down, and swapped back
 * only when the coarse class's wait predicted at its call rate now is well below the
 * threshold. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "client/optimizer.h"

static struct kov_optimizer opt;

static void init(void)
{
	struct kov_opt_params p;
	kov_opt_defaults(&p);
	kov_opt_init(&opt, &p);
}

/* One object over one interval: its decisions (at most one), and the decision in *d. */
static size_t step(const char *cls, double wait, double rate, struct kov_opt_decision *d)
{
	struct kov_opt_figures f = { 3, 0x1234, cls, wait, rate };
	return kov_opt_step(&opt, &f, 1, d, 1);
}

/* k intervals at wait and rate, the swap they lead to granted. */
static void hot_then_swapped(const char *cls, double wait, double rate)
{
	struct kov_opt_decision d;
	for (int i = 0; i < KOV_OPT_K - 1; i++)
		assert_int_equal(step(cls, wait, rate, &d), 0);
	assert_int_equal(step(cls, wait, rate, &d), 1);
	assert_int_equal(d.action, KOV_OPT_SWAP);
	kov_opt_done(&opt, &d, true);
}

/* n intervals that lead to nothing. */
static void quiet(const char *cls, double wait, double rate, int n)
{
	struct kov_opt_decision d;
	for (int i = 0; i < n; i++)
		assert_int_equal(step(cls, wait, rate, &d), 0);
}

/* Feeds a series to the object as it is now (following swaps, always granted); returns the
 * number of swaps and the interval (0-based) of the first in *first. */
static unsigned series(const double *wait, const double *rate, size_t n, int *first)
{
	char cls[KOV_OPT_CLASS_MAX + 1] = "Warehouse";
	unsigned swaps = 0;
	*first = -1;
	for (size_t i = 0; i < n; i++) {
		struct kov_opt_decision d;
		if (step(cls, wait[i], rate ? rate[i] : -1, &d)) {
			assert_string_equal(d.from, cls);
			kov_opt_done(&opt, &d, true);
			snprintf(cls, sizeof cls, "%s", d.to);
			if (*first < 0)
				*first = (int)i;
			swaps++;
		}
	}
	return swaps;
}

static void test_defaults(void **state)
{
	(void)state;
	struct kov_opt_params p;
	kov_opt_defaults(&p);
	assert_true(p.threshold == 5.0 && p.k == 3 && p.cooldown == 5 && p.back_pct == 25.0);
	bool fine;
	assert_string_equal(kov_opt_peer(&p, "Counter", &fine), "DCounter");
	assert_true(fine);
	assert_string_equal(kov_opt_peer(&p, "WarehouseFine", &fine), "Warehouse");
	assert_false(fine);
	assert_null(kov_opt_peer(&p, "Process", &fine));
}

/* Above the threshold for k intervals: one swap, at the k-th, with the figures behind it. */
static void test_hot_swaps_once(void **state)
{
	(void)state;
	init();
	struct kov_opt_decision d;
	assert_int_equal(step("Warehouse", 1.0, 900, &d), 0);
	assert_int_equal(step("Warehouse", 20.0, 1000, &d), 0);
	assert_int_equal(step("Warehouse", 25.0, 1000, &d), 0);
	assert_int_equal(step("Warehouse", 30.0, 1000, &d), 1);
	assert_int_equal(d.action, KOV_OPT_SWAP);
	assert_string_equal(d.from, "Warehouse");
	assert_string_equal(d.to, "WarehouseFine");
	assert_int_equal(d.pid, 3);
	assert_true(d.coid == 0x1234);
	assert_int_equal(d.intervals, 3);
	assert_true(d.wait == 25.0 && d.rate == 1000 && d.limit == 5.0);
	kov_opt_done(&opt, &d, true);
	quiet("WarehouseFine", 0.0, 1000, 50);   /* still busy, no wait: nothing more, ever */
}

/* A spike shorter than k, twice, with a quiet interval between: no swap. */
static void test_spike_no_swap(void **state)
{
	(void)state;
	init();
	const double wait[] = { 0, 40, 40, 0, 60, 60, 1, 0, 0 };
	int first;
	assert_int_equal(series(wait, NULL, sizeof wait / sizeof wait[0], &first), 0);
}

/* At the threshold is not above it; noise alternating around it never makes k in a row. */
static void test_oscillation_no_swap(void **state)
{
	(void)state;
	init();
	double wait[60];
	for (int i = 0; i < 60; i++)
		wait[i] = i % 3 == 2 ? 4.9 : (i % 2 ? 5.0 : 7.0);
	int first;
	assert_int_equal(series(wait, NULL, 60, &first), 0);
}

/* An interval without a value (no report) neither counts nor breaks a run. */
static void test_gap_neutral(void **state)
{
	(void)state;
	init();
	const double wait[] = { 9, -1, 9, -1, -1, 9 };
	int first;
	assert_int_equal(series(wait, NULL, 6, &first), 1);
	assert_int_equal(first, 5);
}

/* Demand collapses after the swap: back once the coarse class's predicted wait (20% x rate /
 * 1000) and the measured one stay below 1.25% for k intervals, after the cool-down. */
static void test_swap_back(void **state)
{
	(void)state;
	init();
	struct kov_opt_decision d;
	hot_then_swapped("Warehouse", 20.0, 1000);
	quiet("WarehouseFine", 0.0, 0, 5);      /* cool-down: even a collapse is not looked at */
	quiet("WarehouseFine", 0.0, 100, 10);   /* 100 calls/s: predicted 2%, above 1.25%: keep */
	quiet("WarehouseFine", 0.0, 50, 2);     /* 50 calls/s: predicted 1% */
	assert_int_equal(step("WarehouseFine", 0.0, 50, &d), 1);
	assert_int_equal(d.action, KOV_OPT_SWAP_BACK);
	assert_string_equal(d.from, "WarehouseFine");
	assert_string_equal(d.to, "Warehouse");
	assert_true(d.base_wait == 20.0 && d.base_rate == 1000 && d.rate == 50);
	assert_true(d.predicted > 0.99 && d.predicted < 1.01 && d.limit == 1.25);
}

/* Still contended in the distributed class (measured wait above threshold / 4): keep it, however
 * low the rate. */
static void test_no_back_while_waiting(void **state)
{
	(void)state;
	init();
	hot_then_swapped("Counter", 20.0, 1000);
	quiet("DCounter", 2.0, 1, 30);
}

/* Without call counts (rate < 0) the saving cannot be told: never back. An object found
 * already distributed has no figures from before: never back either. */
static void test_no_rate_no_back(void **state)
{
	(void)state;
	init();
	struct kov_opt_decision d;
	hot_then_swapped("Warehouse", 20.0, -1);
	quiet("WarehouseFine", 0.0, -1, 30);
	quiet("WarehouseFine", 0.0, 0, 30);
	struct kov_opt_figures f = { 4, 0x99, "DCounter", 0.0, 0.0 };
	for (int i = 0; i < 30; i++)
		assert_int_equal(kov_opt_step(&opt, &f, 1, &d, 1), 0);
}

/* Demand that swings between hot and idle every few intervals: every swap is at least
 * cool-down + k intervals after the one before, whatever the swings. */
static void test_no_flapping(void **state)
{
	(void)state;
	init();
	double wait[200], rate[200];
	for (int i = 0; i < 200; i++) {
		bool hot = (i / 4) % 2 == 0;   /* 4 hot, 4 idle */
		wait[i] = hot ? 30.0 : 0.0;
		rate[i] = hot ? 1000 : 10;
	}
	char cls[KOV_OPT_CLASS_MAX + 1] = "Warehouse";
	int last = -100;
	unsigned swaps = 0;
	for (int i = 0; i < 200; i++) {
		struct kov_opt_decision d;
		/* In the distributed class the wait is gone whatever the demand. */
		if (step(cls, strcmp(cls, "Warehouse") ? 0.0 : wait[i], rate[i], &d)) {
			assert_true(i - last >= 5 + 3);
			last = i;
			swaps++;
			kov_opt_done(&opt, &d, true);
			snprintf(cls, sizeof cls, "%s", d.to);
		}
	}
	assert_true(swaps >= 1 && swaps <= 200 / 8);
}

/* A refused swap (or a dry run) starts the cool-down too: the same decision comes back
 * after cool-down + k intervals, not every interval. */
static void test_refused_cooldown(void **state)
{
	(void)state;
	init();
	struct kov_opt_decision d;
	int decided[18], n = 0;   /* 2, 10; the third would be at 18 */
	for (int i = 0; i < 18; i++)
		if (step("Counter", 50.0, -1, &d)) {
			decided[n++] = i;
			kov_opt_done(&opt, &d, false);
		}
	assert_int_equal(n, 2);
	assert_int_equal(decided[0], 2);
	assert_int_equal(decided[1], 2 + 5 + 3);
}

/* Swapped by someone else meanwhile: the run measured on the old class does not carry over. */
static void test_class_change_resets(void **state)
{
	(void)state;
	init();
	quiet("Counter", 50.0, -1, 2);
	quiet("DCounter", 0.0, -1, 1);
	hot_then_swapped("Counter", 50.0, -1);
}

/* Objects are judged each on its own figures. */
static void test_objects_apart(void **state)
{
	(void)state;
	init();
	struct kov_opt_figures f[2] = { { 3, 0x10, "Counter", 10.0, -1 }, { 3, 0x20, "Counter", 1.0, -1 } };
	struct kov_opt_decision d[2];
	assert_int_equal(kov_opt_step(&opt, f, 2, d, 2), 0);
	assert_int_equal(kov_opt_step(&opt, f, 2, d, 2), 0);
	assert_int_equal(kov_opt_step(&opt, f, 2, d, 2), 1);
	assert_true(d[0].coid == 0x10);
}

static void test_pairs_parse(void **state)
{
	(void)state;
	struct kov_opt_params p;
	char err[200];
	bool fine;
	kov_opt_defaults(&p);
	assert_int_equal(kov_opt_parse_pairs("A=B,Counter=PCounter", &p, err, sizeof err), 0);
	assert_int_equal(p.n_pairs, 2);
	assert_string_equal(kov_opt_peer(&p, "Counter", &fine), "PCounter");
	assert_null(kov_opt_peer(&p, "DCounter", &fine));   /* replaced, not added to */
	assert_string_equal(kov_opt_peer(&p, "B", &fine), "A");
	const char *bad[] = { "", "A", "=B", "A=", "A=A", "A=B,", ",A=B", "A=B,B=C", "A=B,C=B",
			      "A B=C", "A=B=C", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456=B" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = 0;
		assert_int_equal(kov_opt_parse_pairs(bad[i], &p, err, sizeof err), -1);
		assert_true(strstr(err, "--pairs") != NULL);
		assert_int_equal(p.n_pairs, 2);   /* untouched */
	}
	char many[400] = "";
	for (int i = 0; i < KOV_OPT_PAIRS_MAX + 1; i++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "%sA%d=B%d", i ? "," : "", i, i);
	assert_int_equal(kov_opt_parse_pairs(many, &p, err, sizeof err), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_hot_swaps_once),
		cmocka_unit_test(test_spike_no_swap),
		cmocka_unit_test(test_oscillation_no_swap),
		cmocka_unit_test(test_gap_neutral),
		cmocka_unit_test(test_swap_back),
		cmocka_unit_test(test_no_back_while_waiting),
		cmocka_unit_test(test_no_rate_no_back),
		cmocka_unit_test(test_no_flapping),
		cmocka_unit_test(test_refused_cooldown),
		cmocka_unit_test(test_class_change_resets),
		cmocka_unit_test(test_objects_apart),
		cmocka_unit_test(test_pairs_parse),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

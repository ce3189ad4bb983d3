/* The DCI daemon's invocation counts per interval (proto/inv_delta.c), on synthetic scans: a
 * report never carries an object's totals since counting began, whether memory ran out at
 * START or later (the next report spans both intervals), a process's runtime did not answer the
 * baseline's scan, or the scan was truncated; objects whose counting began in the interval
 * report all their calls; counting off and on again starts from 0. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "proto/inv_delta.h"

static int allocs_left = -1;   /* -1: no limit */

static void *test_alloc(size_t n)
{
	if (allocs_left == 0)
		return NULL;
	if (allocs_left > 0)
		allocs_left--;
	return malloc(n);
}

static const struct inv_mem mem = { test_alloc, free };

#define MAX 16
struct world {
	struct scan_record objs[MAX];
	uint32_t n;
	uint32_t alive[8];
	uint32_t n_alive;
};

static bool alive(void *ctx, uint32_t pid)
{
	const struct world *w = ctx;
	for (uint32_t i = 0; i < w->n_alive; i++)
		if (w->alive[i] == pid)
			return true;
	return false;
}

/* An object of the kernel (pid 0) or of pid's own runtime, counted with `calls` so far. */
static void object(struct world *w, uint32_t pid, uint32_t index, uint64_t calls)
{
	struct scan_record *o = &w->objs[w->n++];
	memset(o, 0, sizeof *o);
	o->index = index;
	o->pid = pid;
	o->flags = SCAN_COUNTED | (pid ? SCAN_USER : 0);
	o->invocations = calls;
}

static struct inv_scan view(struct world *w, bool truncated)
{
	return (struct inv_scan){ w->objs, w->n, truncated, alive, w };
}

struct got { struct inv_entry e[MAX]; int n; };

static void emit(void *arg, const struct inv_entry *e)
{
	struct got *g = arg;
	g->e[g->n++] = *e;
}

static uint64_t calls_of(const struct got *g, uint32_t space, uint32_t index)
{
	for (int i = 0; i < g->n; i++)
		if (g->e[i].space == space && g->e[i].index == index)
			return g->e[i].calls;
	return 0;
}

static enum inv_outcome report(struct inv_baseline *b, struct world *w, uint64_t end,
			       struct got *g, uint64_t *start)
{
	struct inv_scan v = view(w, false);
	memset(g, 0, sizeof *g);
	return inv_report(b, &v, end, start, &mem, emit, g);
}

static void teardown_baseline(struct inv_baseline *b)
{
	allocs_left = -1;
	inv_reset(b, &mem);
}

static void no_memory_at_start_skips_one_report(void **state)
{
	(void)state;
	struct world w = { .n_alive = 1, .alive = { 5 } };
	object(&w, 0, 1, 1000);
	object(&w, 5, 2, 500);
	struct inv_baseline b = { 0 };
	struct inv_scan v = view(&w, false);
	allocs_left = 0;
	assert_false(inv_start(&b, &v, 100, &mem));
	allocs_left = -1;
	w.objs[0].invocations = 1100;
	struct got g;
	uint64_t start;
	assert_int_equal(report(&b, &w, 200, &g, &start), INV_BASELINE_ONLY);
	assert_int_equal(g.n, 0);                /* never the totals 1100 and 500 */
	assert_int_equal(b.skipped_reports, 1);
	w.objs[0].invocations = 1150;
	w.objs[1].invocations = 510;
	assert_int_equal(report(&b, &w, 300, &g, &start), INV_REPORTED);
	assert_int_equal(start, 200);
	assert_int_equal(calls_of(&g, 0, 1), 50);
	assert_int_equal(calls_of(&g, 5, 2), 10);
	teardown_baseline(&b);
}

static void no_memory_later_spans_two_intervals(void **state)
{
	(void)state;
	struct world w = { .n_alive = 1, .alive = { 5 } };
	object(&w, 0, 1, 1000);
	struct inv_baseline b = { 0 };
	struct inv_scan v = view(&w, false);
	assert_true(inv_start(&b, &v, 100, &mem));
	w.objs[0].invocations = 1040;
	struct got g;
	uint64_t start;
	for (int fail_after = 0; fail_after < 2; fail_after++) {   /* either allocation failing */
		allocs_left = fail_after;
		assert_int_equal(report(&b, &w, 200, &g, &start), INV_NO_MEMORY);
		assert_int_equal(g.n, 0);
	}
	allocs_left = -1;
	w.objs[0].invocations = 1100;
	assert_int_equal(report(&b, &w, 300, &g, &start), INV_REPORTED);
	assert_int_equal(start, 100);            /* the report says it covers both intervals */
	assert_int_equal(calls_of(&g, 0, 1), 100);
	teardown_baseline(&b);
}

static void silent_at_start_is_not_reported_as_totals(void **state)
{
	(void)state;
	struct world w = { .n_alive = 1, .alive = { 5 } };
	object(&w, 0, 1, 1000);                  /* pid 5 is alive but did not answer */
	struct inv_baseline b = { 0 };
	struct inv_scan v = view(&w, false);
	assert_true(inv_start(&b, &v, 100, &mem));
	object(&w, 5, 2, 90000);                 /* it answers: counted long before the baseline */
	struct got g;
	uint64_t start;
	assert_int_equal(report(&b, &w, 200, &g, &start), INV_REPORTED);
	assert_int_equal(calls_of(&g, 5, 2), 0);
	assert_int_equal(b.skipped_objects, 1);
	w.objs[1].invocations = 90030;
	assert_int_equal(report(&b, &w, 300, &g, &start), INV_REPORTED);
	assert_int_equal(calls_of(&g, 5, 2), 30);
	teardown_baseline(&b);
}

static void silent_later_keeps_its_baseline(void **state)
{
	(void)state;
	struct world w = { .n_alive = 1, .alive = { 5 } };
	object(&w, 5, 2, 100);
	struct inv_baseline b = { 0 };
	struct inv_scan v = view(&w, false);
	assert_true(inv_start(&b, &v, 100, &mem));
	struct world silent = { .n_alive = 1, .alive = { 5 } };
	struct got g;
	uint64_t start;
	assert_int_equal(report(&b, &silent, 200, &g, &start), INV_REPORTED);
	assert_int_equal(g.n, 0);
	w.objs[0].invocations = 170;
	assert_int_equal(report(&b, &w, 300, &g, &start), INV_REPORTED);
	assert_int_equal(calls_of(&g, 5, 2), 70);   /* what it missed, not 170 */
	teardown_baseline(&b);
}

static void truncated_baseline_scan(void **state)
{
	(void)state;
	struct world w = { 0 };
	object(&w, 0, 1, 10);
	struct inv_baseline b = { 0 };
	struct inv_scan v = view(&w, true);          /* more objects than the scan held */
	assert_true(inv_start(&b, &v, 100, &mem));
	object(&w, 0, 7, 5000);                       /* one of those, counted all along */
	struct got g;
	uint64_t start;
	assert_int_equal(report(&b, &w, 200, &g, &start), INV_REPORTED);
	assert_int_equal(calls_of(&g, 0, 7), 0);
	assert_int_equal(b.skipped_objects, 1);
	teardown_baseline(&b);
}

static void counting_that_began_in_the_interval(void **state)
{
	(void)state;
	struct world w = { .n_alive = 2, .alive = { 5, 6 } };
	object(&w, 0, 1, 10);
	object(&w, 5, 2, 10);
	struct inv_baseline b = { 0 };
	struct inv_scan v = view(&w, false);
	assert_true(inv_start(&b, &v, 100, &mem));
	object(&w, 0, 3, 40);       /* a kernel object whose counting began: the kernel was covered */
	object(&w, 5, 4, 25);       /* a new object of a process that answered */
	inv_counting_on(&b, 6, 0xFFFFFFFFu);
	object(&w, 6, 1, 60);       /* pid 6 started after the baseline, counting turned on since */
	struct got g;
	uint64_t start;
	assert_int_equal(report(&b, &w, 200, &g, &start), INV_REPORTED);
	assert_int_equal(calls_of(&g, 0, 3), 40);
	assert_int_equal(calls_of(&g, 5, 4), 25);
	assert_int_equal(calls_of(&g, 6, 1), 60);
	assert_int_equal(b.skipped_objects, 0);
	/* Off and on again: the count restarts at 0, and the old baseline is forgotten. */
	inv_forget(&b, 5, 0xFFFFFFFFu);
	inv_counting_on(&b, 5, 0xFFFFFFFFu);
	w.objs[1].invocations = 3;
	w.objs[3].invocations = 4;
	assert_int_equal(report(&b, &w, 300, &g, &start), INV_REPORTED);
	assert_int_equal(calls_of(&g, 5, 2), 3);
	assert_int_equal(calls_of(&g, 5, 4), 4);
	teardown_baseline(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_memory_at_start_skips_one_report),
		cmocka_unit_test(no_memory_later_spans_two_intervals),
		cmocka_unit_test(silent_at_start_is_not_reported_as_totals),
		cmocka_unit_test(silent_later_keeps_its_baseline),
		cmocka_unit_test(truncated_baseline_scan),
		cmocka_unit_test(counting_that_began_in_the_interval),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

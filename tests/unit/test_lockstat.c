/* Lock statistics tables (common/lib/lockstat.c): records made once per lock address by
 * compare-and-swap, found again (lockstat_find without making one), dropped (and counted) when
 * the table is full; a contended acquisition's figures (wait min/max/total, waiters, bounces,
 * call sites with the overflow in other_sites, the hold closed at release); full counting's
 * uncontended acquisitions; and an owner's destruction, after which its locks are attributed
 * again when next met (KM_LOCK_ATTRIBUTED once the owner was looked for). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include "common/lib/lockstat.h"

static struct km_lock_area *new_area(uint32_t records)
{
	uint64_t bytes = sizeof(struct km_lock_area) + records * sizeof(struct km_lock_stats);
	struct km_lock_area *a = calloc(1, bytes + 100);   /* +100: rounds down to a power of 2 */
	assert_non_null(a);
	assert_true(lockstat_area_init(a, bytes + 100));
	return a;
}

static void records_are_made_once_and_dropped_when_full(void **state)
{
	(void)state;
	struct km_lock_area *a = new_area(6);
	assert_int_equal(a->capacity, 4);
	assert_null(lockstat_find(a, 0x1000));   /* finding makes nothing */
	assert_int_equal(a->used, 0);
	bool made;
	struct km_lock_stats *s = lockstat_get(a, 0x1000, KM_LOCK_SPIN, &made);
	assert_non_null(s);
	assert_true(made);
	assert_int_equal(s->kind, KM_LOCK_SPIN);
	assert_ptr_equal(lockstat_get(a, 0x1000, KM_LOCK_SPIN, &made), s);
	assert_false(made);
	for (uint64_t l = 0x2000; l <= 0x4000; l += 0x1000)
		assert_non_null(lockstat_get(a, l, KM_LOCK_SLEEP, &made));
	assert_int_equal(a->used, 4);
	assert_null(lockstat_get(a, 0x9000, KM_LOCK_SPIN, &made));
	assert_int_equal(a->dropped, 1);
	assert_ptr_equal(lockstat_find(a, 0x1000), s);
	assert_non_null(lockstat_find(a, 0x4000));
	assert_null(lockstat_find(a, 0x9000));   /* a full table probed to the end */
	struct km_lock_area tiny;
	assert_false(lockstat_area_init(&tiny, sizeof tiny));
	free(a);
}

static void contention_figures(void **state)
{
	(void)state;
	struct km_lock_area *a = new_area(16);
	bool made;
	struct km_lock_stats *s = lockstat_get(a, 0x1000, KM_LOCK_SPIN, &made);
	assert_int_equal(lockstat_wait_begin(s), 1);
	assert_int_equal(lockstat_wait_begin(s), 2);
	lockstat_wait_end(s);
	lockstat_contended(s, 0xA0, 1, 0, 2), lockstat_waited(s, 100, 150);   /* waited 50, holder was on CPU 0 */
	lockstat_released(s, 170);
	lockstat_wait_end(s);
	lockstat_contended(s, 0xA0, 1, ~0u, 1), lockstat_waited(s, 200, 210); /* previous: the last acquirer, CPU 1 */
	lockstat_released(s, 240);
	for (uint64_t site = 0xB0; site <= 0xE0; site += 0x10)   /* 4 more sites: one too many */
		lockstat_contended(s, site, 2, 2, 1), lockstat_waited(s, 300, 400), lockstat_released(s, 401);
	assert_int_equal(s->waiters, 0);
	assert_int_equal(s->contentions, 6);
	assert_int_equal(s->acquisitions, 6);
	assert_int_equal(s->wait_total, 50 + 10 + 4 * 100);
	assert_int_equal(s->wait_min, 10);
	assert_int_equal(s->wait_max, 100);
	assert_int_equal(s->holds, 6);
	assert_int_equal(s->hold_total, 20 + 30 + 4 * 1);
	assert_int_equal(s->hold_max, 30);
	assert_int_equal(s->bounces, 1);   /* CPU 0 -> 1; then 1 -> 1 and 2 -> 2 are none */
	assert_int_equal(s->qlen_max, 2);
	assert_int_equal(s->qlen_samples, 6);
	assert_int_equal(s->site[0].pc, 0xA0);
	assert_int_equal(s->site[0].count, 2);
	assert_int_equal(s->site[3].pc, 0xD0);
	assert_int_equal(s->other_sites, 1);
	/* A release with no measured hold open adds nothing. */
	lockstat_released(s, 999);
	assert_int_equal(s->holds, 6);
	free(a);
}

static void full_counting_counts_uncontended_acquisitions(void **state)
{
	(void)state;
	struct km_lock_area *a = new_area(16);
	bool made;
	struct km_lock_stats *s = lockstat_get(a, 0x1000, KM_LOCK_SLEEP, &made);
	for (uint64_t t = 1000; t < 1010; t++) {
		lockstat_acquired(s, t * 10);
		lockstat_released(s, t * 10 + 3);
	}
	assert_int_equal(s->acquisitions, 10);
	assert_int_equal(s->contentions, 0);
	assert_int_equal(s->holds, 10);
	assert_int_equal(s->hold_total, 30);
	assert_int_equal(s->wait_total, 0);
	free(a);
}

static void a_gone_owner_is_found_again(void **state)
{
	(void)state;
	struct km_lock_area *a = new_area(16);
	bool made;
	struct km_lock_stats *s = lockstat_get(a, 0x1000, KM_LOCK_SPIN, &made);
	assert_true(lockstat_needs_owner(s, made, KM_LOCK_SPIN));
	s->owner = 0xAAA0;
	s->flags = KM_LOCK_FULL | KM_LOCK_OWNER_SET;
	struct km_lock_stats *other = lockstat_get(a, 0x2000, KM_LOCK_SPIN, &made);
	other->owner = 0xBBB0;
	other->flags = KM_LOCK_FULL;
	lockstat_owner_gone(a, 0xAAA0);
	assert_int_equal(s->owner, 0);
	assert_int_equal(s->flags, KM_LOCK_OWNER_GONE);   /* no full counting, no registration */
	assert_int_equal(other->owner, 0xBBB0);
	assert_int_equal(other->flags, KM_LOCK_FULL);
	/* The address now holds a sleep lock: found again, once, with its new kind. */
	assert_ptr_equal(lockstat_get(a, 0x1000, KM_LOCK_SLEEP, &made), s);
	assert_false(made);
	s->flags |= KM_LOCK_ATTRIBUTED;
	assert_true(lockstat_needs_owner(s, made, KM_LOCK_SLEEP));
	assert_int_equal(s->kind, KM_LOCK_SLEEP);
	assert_int_equal(s->flags, 0);   /* not attributed until the walk is done */
	lockstat_attributed(s, 0xCCC0);
	assert_int_equal(s->owner, 0xCCC0);
	assert_int_equal(s->flags, KM_LOCK_ATTRIBUTED);
	/* A walk that ends after the program named the owner does not overwrite it. */
	other->flags |= KM_LOCK_OWNER_SET;
	lockstat_attributed(other, 0xDDD0);
	assert_int_equal(other->owner, 0xBBB0);
	assert_true(other->flags & KM_LOCK_ATTRIBUTED);
	other->flags = KM_LOCK_FULL | KM_LOCK_ATTRIBUTED;
	assert_false(lockstat_needs_owner(s, false, KM_LOCK_SLEEP));
	assert_false(lockstat_needs_owner(other, false, KM_LOCK_SPIN));
	lockstat_owner_gone(a, 0);   /* "no owner" is nobody's */
	assert_int_equal(other->owner, 0xBBB0);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(records_are_made_once_and_dropped_when_full),
		cmocka_unit_test(contention_figures),
		cmocka_unit_test(full_counting_counts_uncontended_acquisitions),
		cmocka_unit_test(a_gone_owner_is_found_again),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

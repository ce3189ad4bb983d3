/* The DCI daemon's lock figures per interval (proto/lock_delta.c): a record copied while its
 * holder writes it (a contention counted before its acquisition, a wait added after its
 * acquisition was copied, hold time before its count, a site's count before its pc) never
 * loses or doubles an event, every report is consistent, and a record not attributed yet
 * reports nothing until it is. The last case replays a writer with every copy torn at random
 * and checks that the reports add up to the record, figure by figure. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "proto/lock_delta.h"

static struct km_lock_stats record(void)
{
	return (struct km_lock_stats){ .lock = 0x1000, .kind = KM_LOCK_SPIN,
				       .flags = KM_LOCK_ATTRIBUTED };
}

/* What proto_data.c requires of a LOCK_CONTENTION report. */
static void assert_consistent(const struct proto_lock *l)
{
	assert_true(l->contentions <= l->acquisitions);
	assert_true(l->bounces <= l->contentions);
	assert_true(l->wait_max <= l->wait_total && l->wait_min <= l->wait_max);
	assert_true(l->hold_max <= l->hold_total && (l->holds || !l->hold_total));
	assert_true(l->qlen_max <= l->qlen_sum && (l->qlen_samples || !l->qlen_sum));
	uint64_t sites = l->other_sites;
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		assert_true(l->site[i].pc || !l->site[i].count);
		sites += l->site[i].count;
	}
	assert_true(sites <= l->contentions);
}

static void a_torn_copy_holds_back_and_reports_later(void **state)
{
	(void)state;
	struct km_lock_stats sent = record(), now = record();
	struct proto_lock l;
	/* Copied between the two stores of a contention, the wait not added yet. */
	now.contentions = 1;
	now.qlen_sum = 2;
	now.hold_total = 40;
	now.site[0] = (struct km_lock_site){ 0, 1 };
	assert_false(lock_delta(7, &now, &sent, &l));   /* nothing consistent to say yet */
	assert_int_equal(sent.contentions, 0);
	/* The rest of it, with no new acquisition: reported, not dropped. */
	now.acquisitions = 1;
	now.qlen_samples = 1;
	now.wait_total = now.wait_max = now.wait_min = 300;
	now.holds = 1;
	now.hold_max = 40;
	now.site[0].pc = 0xA0;
	assert_true(lock_delta(7, &now, &sent, &l));
	assert_consistent(&l);
	assert_int_equal(l.pid, 7);
	assert_int_equal(l.acquisitions, 1);
	assert_int_equal(l.contentions, 1);
	assert_int_equal(l.wait_total, 300);
	assert_int_equal(l.hold_total, 40);
	assert_int_equal(l.qlen_sum, 2);
	assert_int_equal(l.site[0].pc, 0xA0);
	assert_int_equal(l.site[0].count, 1);
	/* A wait added after its acquisition was copied. */
	now.wait_total += 50;
	assert_true(lock_delta(7, &now, &sent, &l));
	assert_int_equal(l.acquisitions, 0);
	assert_int_equal(l.wait_total, 50);
	assert_false(lock_delta(7, &now, &sent, &l));
}

static void an_unattributed_record_waits_for_its_owner(void **state)
{
	(void)state;
	struct km_lock_stats sent = { 0 }, now = record();
	struct proto_lock l;
	now.flags = 0;
	now.acquisitions = now.contentions = 3;
	now.wait_total = 90;
	assert_false(lock_delta(0, &now, &sent, &l));
	assert_int_equal(sent.acquisitions, 0);
	now.owner = 0x5000;
	now.flags = KM_LOCK_ATTRIBUTED;
	now.acquisitions = now.contentions = 4;
	assert_true(lock_delta(0, &now, &sent, &l));
	assert_int_equal(l.contentions, 4);
	assert_int_equal(l.wait_total, 90);
	/* Registered by the program: attributed too. */
	struct km_lock_stats sent2 = { 0 }, reg = record();
	reg.flags = KM_LOCK_OWNER_SET;
	reg.acquisitions = 1;
	assert_true(lock_delta(0, &reg, &sent2, &l));
	assert_int_equal(l.flags, KM_LOCK_OWNER_SET);
}

static void a_record_made_anew_reports_all_of_it(void **state)
{
	(void)state;
	struct km_lock_stats sent = record(), now = record();
	struct proto_lock l;
	sent.acquisitions = sent.contentions = 10;
	sent.wait_total = 1000;
	now.acquisitions = now.contentions = 2;
	now.wait_total = 20;
	assert_true(lock_delta(0, &now, &sent, &l));
	assert_int_equal(l.contentions, 2);
	assert_int_equal(l.wait_total, 20);
}

/* The figures a contended acquisition and its release store, in the order they are made
 * visible (common/lib/lockstat.c: dependents before their base). */
enum { BOUNCE, QSUM, SITE_N, SITE_PC, QS, CONT, ACQ, WAIT, HOLD_T, HOLDS, TRYF, N_STORES };

/* Address order of the figures (struct km_lock_stats), as the daemon's copy reads them. */
static const int copy_order[] = { ACQ, CONT, WAIT, HOLDS, HOLD_T, BOUNCE, TRYF, QS, QSUM, SITE_PC, SITE_N };

static uint64_t *field(struct km_lock_stats *s, int f, int site)
{
	switch (f) {
	case ACQ: return &s->acquisitions;
	case CONT: return &s->contentions;
	case BOUNCE: return &s->bounces;
	case QS: return &s->qlen_samples;
	case QSUM: return &s->qlen_sum;
	case SITE_PC: return &s->site[site].pc;
	case SITE_N: return &s->site[site].count;
	case WAIT: return &s->wait_total;
	case HOLDS: return &s->holds;
	case HOLD_T: return &s->hold_total;
	default: return &s->trylock_failures;
	}
}

/* A report added to the sums (sites by pc: site j's pc is 0xA0 + 0x10 j). */
static void add(struct km_lock_stats *sum, uint64_t *site_sum, const struct proto_lock *l)
{
	assert_consistent(l);
	sum->acquisitions += l->acquisitions, sum->contentions += l->contentions;
	sum->bounces += l->bounces, sum->wait_total += l->wait_total;
	sum->holds += l->holds, sum->hold_total += l->hold_total;
	sum->qlen_samples += l->qlen_samples, sum->qlen_sum += l->qlen_sum;
	sum->trylock_failures += l->trylock_failures;
	for (int i = 0; i < PROTO_LOCK_SITES; i++)
		if (l->site[i].pc)
			site_sum[(l->site[i].pc - 0xA0) / 0x10] += l->site[i].count;
}

static void random_torn_copies_add_up(void **state)
{
	(void)state;
	srand(12345);
	struct km_lock_stats live = record(), sent = live, sum = { 0 };
	uint64_t site_sum[KM_LOCK_SITES] = { 0 };
	struct proto_lock l;
	for (int round = 0; round < 20000; round++) {
		/* One event's stores, the copy reading each figure before or after them. */
		struct km_lock_stats next = live;
		int site = rand() % KM_LOCK_SITES;
		if (rand() % 4 == 0) {
			next.trylock_failures++;
		} else {
			next.acquisitions++, next.contentions++, next.bounces += rand() % 2;
			next.qlen_samples++, next.qlen_sum += 1 + rand() % 3;
			next.site[site].pc = 0xA0 + 0x10 * (uint64_t)site, next.site[site].count++;
			next.wait_total += 1 + (uint64_t)(rand() % 500);
			next.holds++, next.hold_total += 1 + (uint64_t)(rand() % 90);
		}
		next.wait_max = next.wait_total, next.hold_max = next.hold_total;
		next.qlen_max = 1;
		/* The copy reads the figures in address order, each seeing the stores made so
		 * far: a prefix of them that grows along the copy (torn anywhere). */
		struct km_lock_stats copy = live;
		int seen = 0;
		for (size_t k = 0; k < sizeof copy_order / sizeof copy_order[0]; k++) {
			if (rand() % 3 == 0)
				seen += rand() % (N_STORES + 1 - seen);
			if (copy_order[k] < seen)
				*field(&copy, copy_order[k], site) = *field(&next, copy_order[k], site);
		}
		copy.wait_max = next.wait_max, copy.hold_max = next.hold_max, copy.qlen_max = 1;
		live = next;
		const struct km_lock_stats *reads[2] = { &copy, &live };
		for (int r = rand() % 2; r < 2; r += 1 + rand() % 2) {
			if (!lock_delta(0, reads[r], &sent, &l))
				continue;
			add(&sum, site_sum, &l);
		}
	}
	if (lock_delta(0, &live, &sent, &l))   /* the last report, after the writer stopped */
		add(&sum, site_sum, &l);
	for (int f = 0; f < N_STORES; f++)
		if (f != SITE_PC && f != SITE_N)
			assert_int_equal(*field(&sum, f, 0), *field(&live, f, 0));
	for (int j = 0; j < KM_LOCK_SITES; j++)
		assert_int_equal(site_sum[j], live.site[j].count);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_torn_copy_holds_back_and_reports_later),
		cmocka_unit_test(an_unattributed_record_waits_for_its_owner),
		cmocka_unit_test(a_record_made_anew_reports_all_of_it),
		cmocka_unit_test(random_torn_copies_add_up),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Monitoring data the server pushes as it is produced: samples, interval counts, lock
 * statistics, invocation counts and reports of samples the target's rings lost; layouts and
 * entries of the codec's table (dci/proto_wire.h). */
#include "dci/proto_wire.h"

#define SAMPLE_MIN 44
#define COUNT_SIZE 30
#define LOCK_SIZE 94
#define LOCK_CONTENTION_SIZE (LOCK_SIZE + 2 + 5 * 8 + PROTO_LOCK_SITES * 16)
#define INVOCATION_SIZE 24
#define LOST_SIZE 14
#define PMC_MAX 8

/* ---- SAMPLES ------------------------------------------------------------------------- */

static const struct proto_field samples_head_fields[] = {
	PF(struct proto_samples_head, config_id, PF_U32),
};

static int check_sample(const void *msg)
{
	const struct proto_sample *s = msg;
	const uint16_t mode = s->flags & (PROTO_SMP_KERNEL | PROTO_SMP_USER);
	if (mode != PROTO_SMP_KERNEL && mode != PROTO_SMP_USER)
		return PROTO_E_INCONSISTENT;
	if ((s->flags & PROTO_SMP_NO_OBJECT) && (s->coid || s->gen))
		return PROTO_E_INCONSISTENT;
	if (s->depth > PROTO_MAX_CHAIN)
		return PROTO_E_COUNT;
	return 0;
}

static const struct proto_field sample_fields[] = {
	PF(struct proto_sample, timebase, PF_U64),
	PF(struct proto_sample, pc, PF_U64),
	PF(struct proto_sample, coid, PF_U64),
	PF(struct proto_sample, gen, PF_U32),
	PF(struct proto_sample, pid, PF_U32),
	PF(struct proto_sample, tid, PF_U32),
	PF(struct proto_sample, cpu, PF_U16),
	PF(struct proto_sample, event, PF_U16),
	PF(struct proto_sample, flags, PF_U16),
	PF(struct proto_sample, depth, PF_U16),
};

/* The call chain: `depth` PCs after the fixed fields. */
static int put_chain(struct wr *w, const void *msg)
{
	const struct proto_sample *s = msg;
	for (unsigned i = 0; i < s->depth; i++)
		put_u64(w, s->chain[i]);
	return 0;
}

static void get_chain(struct rd *r, void *msg)
{
	struct proto_sample *s = msg;
	if (r->err) {
		s->depth = 0;
		return;
	}
	for (unsigned i = 0; i < s->depth; i++)
		s->chain[i] = get_u64(r);
}

/* ---- the interval heads, INTERVAL_COUNTS --------------------------------------------- */

static int check_counts_head(const void *msg)
{
	const struct proto_counts_head *h = msg;
	return h->start > h->end ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field counts_head_fields[] = {
	PF(struct proto_counts_head, config_id, PF_U32),
	PF(struct proto_counts_head, start, PF_U64),
	PF(struct proto_counts_head, end, PF_U64),
};

static int check_interval(const void *msg)
{
	const struct proto_interval *h = msg;
	return h->start > h->end ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field interval_fields[] = {
	PF(struct proto_interval, start, PF_U64),
	PF(struct proto_interval, end, PF_U64),
};

static int check_count(const void *msg)
{
	const struct proto_count *c = msg;
	return c->running > c->enabled ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field count_fields[] = {
	PF(struct proto_count, cpu, PF_U16),
	PF(struct proto_count, group, PF_U16),
	PF(struct proto_count, event, PF_U16),
	PF(struct proto_count, raw, PF_U64),
	PF(struct proto_count, enabled, PF_U64),
	PF(struct proto_count, running, PF_U64),
};

/* ---- LOCK_STATS, LOCK_CONTENTION ----------------------------------------------------- */

static int check_lock(const void *msg)
{
	const struct proto_lock *l = msg;
	if (l->contentions > l->acquisitions || l->wait_max > l->wait_total ||
	    l->hold_max > l->hold_total || l->qlen_max > l->qlen_sum)
		return PROTO_E_INCONSISTENT;
	if (l->qlen_samples == 0 && l->qlen_sum != 0)
		return PROTO_E_INCONSISTENT;
	return 0;
}

/* What LOCK_CONTENTION adds must agree with itself and with the common part. */
static int check_lock_contention(const void *msg)
{
	const struct proto_lock *l = msg;
	int err = check_lock(l);
	if (err)
		return err;
	if (l->wait_min > l->wait_max || l->bounces > l->contentions ||
	    (l->holds == 0 && l->hold_total != 0) ||
	    (l->flags & ~(PROTO_LOCK_FULL | PROTO_LOCK_OWNER_SET)))
		return PROTO_E_INCONSISTENT;
	uint64_t sites = l->other_sites;
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		if (!l->site[i].pc && l->site[i].count)
			return PROTO_E_INCONSISTENT;
		sites += l->site[i].count;
	}
	return sites > l->contentions ? PROTO_E_INCONSISTENT : 0;
}

/* LOCK_STATS carries the first LOCK_FIELDS of these; LOCK_CONTENTION all of them. */
#define LOCK_FIELDS 14
#define SITE(i) \
	PF(struct proto_lock, site[i].pc, PF_U64), PF(struct proto_lock, site[i].count, PF_U64)
static const struct proto_field lock_fields[] = {
	PF(struct proto_lock, lock, PF_U64),
	PF(struct proto_lock, coid, PF_U64),
	PF(struct proto_lock, gen, PF_U32),
	PF(struct proto_lock, pid, PF_U32),
	PF(struct proto_lock, kind, PF_U16),
	PF(struct proto_lock, acquisitions, PF_U64),
	PF(struct proto_lock, contentions, PF_U64),
	PF(struct proto_lock, wait_total, PF_U64),
	PF(struct proto_lock, wait_max, PF_U64),
	PF(struct proto_lock, hold_total, PF_U64),
	PF(struct proto_lock, hold_max, PF_U64),
	PF(struct proto_lock, qlen_samples, PF_U64),
	PF(struct proto_lock, qlen_sum, PF_U64),
	PF(struct proto_lock, qlen_max, PF_U32),
	/* since 1.2, LOCK_CONTENTION only */
	PF(struct proto_lock, flags, PF_U16),
	PF(struct proto_lock, wait_min, PF_U64),
	PF(struct proto_lock, holds, PF_U64),
	PF(struct proto_lock, bounces, PF_U64),
	PF(struct proto_lock, trylock_failures, PF_U64),
	PF(struct proto_lock, other_sites, PF_U64),
	SITE(0), SITE(1), SITE(2), SITE(3),
};
_Static_assert(PROTO_LOCK_SITES == 4, "lock_fields lists four call sites");

/* ---- INVOCATIONS, LOST_SAMPLES ------------------------------------------------------- */

static const struct proto_field invocation_fields[] = {
	PF(struct proto_invocation, coid, PF_U64),
	PF(struct proto_invocation, gen, PF_U32),
	PF(struct proto_invocation, pid, PF_U32),
	PF(struct proto_invocation, count, PF_U64),
};

static int check_lost(const void *msg)
{
	return ((const struct proto_lost *)msg)->pmc > PMC_MAX ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field lost_fields[] = {
	PF(struct proto_lost, cpu, PF_U16),
	PF(struct proto_lost, pmc, PF_U16),
	PF(struct proto_lost, event, PF_U16),
	PF(struct proto_lost, lost, PF_U64),
};

/* ---- the table ----------------------------------------------------------------------- */

static const struct proto_layout samples_head_layout =
	PROTO_LAYOUT(struct proto_samples_head, samples_head_fields, NULL);
static const struct proto_layout sample_layout = {
	sample_fields, sizeof sample_fields / sizeof sample_fields[0], false,
	sizeof(struct proto_sample), check_sample, put_chain, get_chain,
};
static const struct proto_layout counts_head_layout =
	PROTO_LAYOUT(struct proto_counts_head, counts_head_fields, check_counts_head);
static const struct proto_layout interval_layout =
	PROTO_LAYOUT(struct proto_interval, interval_fields, check_interval);
static const struct proto_layout count_layout =
	PROTO_LAYOUT(struct proto_count, count_fields, check_count);
/* What LOCK_STATS does not carry reads as none. */
static const struct proto_layout lock_layout = {
	lock_fields, LOCK_FIELDS, true, sizeof(struct proto_lock), check_lock, NULL, NULL,
};
static const struct proto_layout lock_contention_layout = {
	lock_fields, sizeof lock_fields / sizeof lock_fields[0], true, sizeof(struct proto_lock),
	check_lock_contention, NULL, NULL,
};
static const struct proto_layout invocation_layout =
	PROTO_LAYOUT(struct proto_invocation, invocation_fields, NULL);
static const struct proto_layout lost_layout =
	PROTO_LAYOUT(struct proto_lost, lost_fields, check_lost);

const struct proto_message proto_data_messages[] = {
	{ PROTO_SAMPLES, &samples_head_layout, &sample_layout, SAMPLE_MIN, NULL },
	{ PROTO_INTERVAL_COUNTS, &counts_head_layout, &count_layout, COUNT_SIZE, NULL },
	{ PROTO_LOCK_STATS, &interval_layout, &lock_layout, LOCK_SIZE, NULL },
	{ PROTO_LOCK_CONTENTION, &interval_layout, &lock_contention_layout, LOCK_CONTENTION_SIZE,
	  NULL },
	{ PROTO_INVOCATIONS, &interval_layout, &invocation_layout, INVOCATION_SIZE, NULL },
	{ PROTO_LOST_SAMPLES, &interval_layout, &lost_layout, LOST_SIZE, NULL },
};
const size_t proto_data_message_count = sizeof proto_data_messages / sizeof proto_data_messages[0];

PROTO_LIST_NAMES(samples, sample, PROTO_SAMPLES, struct proto_samples_head, struct proto_sample)
PROTO_LIST_NAMES(interval_counts, count, PROTO_INTERVAL_COUNTS, struct proto_counts_head,
                 struct proto_count)
PROTO_LIST_NAMES(lock_stats, lock, PROTO_LOCK_STATS, struct proto_interval, struct proto_lock)
PROTO_LIST_NAMES(lock_contention, lock_contention, PROTO_LOCK_CONTENTION, struct proto_interval,
                 struct proto_lock)
PROTO_LIST_NAMES(invocations, invocation, PROTO_INVOCATIONS, struct proto_interval,
                 struct proto_invocation)
PROTO_LIST_NAMES(lost_samples, lost, PROTO_LOST_SAMPLES, struct proto_interval,
                 struct proto_lost)

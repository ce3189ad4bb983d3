/* Monitoring data the server pushes as it is produced: samples, interval counts, lock
 * statistics, invocation counts and reports of samples the target's rings lost; layouts and
 * entries of the codec's table (proto/proto_wire.h). */
#include "proto_wire.h"

#define SAMPLE_MIN 44
#define SAMPLE_CHAINED_SIZE 50
#define CHAIN_MIN (10 + CHAIN_FRAME_SIZE)
#define CHAIN_FRAME_SIZE 21
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

/* The fields SAMPLES and SAMPLES_CHAINED records share, offsets 0 to 42. */
#define SAMPLE_HEAD_FIELDS                                   \
	PF(struct proto_sample, timebase, PF_U64),           \
	PF(struct proto_sample, pc, PF_U64),                 \
	PF(struct proto_sample, coid, PF_U64),               \
	PF(struct proto_sample, gen, PF_U32),                \
	PF(struct proto_sample, pid, PF_U32),                \
	PF(struct proto_sample, tid, PF_U32),                \
	PF(struct proto_sample, cpu, PF_U16),                \
	PF(struct proto_sample, event, PF_U16),              \
	PF(struct proto_sample, flags, PF_U16)

static const struct proto_field sample_fields[] = {
	SAMPLE_HEAD_FIELDS,
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

/* ---- SAMPLES_CHAINED, CHAINS (1.4) ---------------------------------------------------- */

static const struct proto_field sample_chained_fields[] = {
	SAMPLE_HEAD_FIELDS,
	PF(struct proto_sample, period, PF_U32),
	PF(struct proto_sample, chain_id, PF_U32),
};

int proto_check_sample_chained(const void *msg)
{
	const struct proto_sample *s = msg;
	return s->depth ? PROTO_E_INCONSISTENT : check_sample(s);
}

/* Frames: user ones after every kernel one, and only in a chain of a process; an object's
 * identity only with OBJECT. */
static int check_chain(const void *msg)
{
	const struct proto_chain *c = msg;
	if (c->id == 0)
		return PROTO_E_INCONSISTENT;
	if (c->depth < 1 || c->depth > PROTO_MAX_CHAIN_DEPTH)
		return PROTO_E_COUNT;
	bool user = false;
	for (unsigned i = 0; i < c->depth; i++) {
		const struct proto_chain_frame *f = &c->frames[i];
		if (f->flags & ~(PROTO_FRAME_USER | PROTO_FRAME_OBJECT))
			return PROTO_E_INCONSISTENT;
		if (!(f->flags & PROTO_FRAME_OBJECT) && (f->coid || f->gen))
			return PROTO_E_INCONSISTENT;
		if (user && !(f->flags & PROTO_FRAME_USER))
			return PROTO_E_INCONSISTENT;
		user = f->flags & PROTO_FRAME_USER;
	}
	return user && c->pid == 0 ? PROTO_E_INCONSISTENT : 0;
}

bool proto_chain_frames_equal(const struct proto_chain_frame *a, const struct proto_chain_frame *b,
                              unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (a[i].flags != b[i].flags || a[i].pc != b[i].pc || a[i].coid != b[i].coid ||
		    a[i].gen != b[i].gen)
			return false;
	return true;
}

static const struct proto_field chain_fields[] = {
	PF(struct proto_chain, id, PF_U32),
	PF(struct proto_chain, pid, PF_U32),
	PF(struct proto_chain, depth, PF_U16),
};

/* The frames, `depth` of them after the fixed fields; checked with the rest once read. */
static int put_frames(struct wr *w, const void *msg)
{
	const struct proto_chain *c = msg;
	for (unsigned i = 0; i < c->depth; i++) {
		put_u8(w, c->frames[i].flags);
		put_u64(w, c->frames[i].pc);
		put_u64(w, c->frames[i].coid);
		put_u32(w, c->frames[i].gen);
	}
	return 0;
}

static void get_frames(struct rd *r, void *msg)
{
	struct proto_chain *c = msg;
	if (r->err)
		return;
	if (c->depth < 1 || c->depth > PROTO_MAX_CHAIN_DEPTH ||
	    rd_left(r) / CHAIN_FRAME_SIZE < c->depth) {
		rd_fail(r, PROTO_E_COUNT);
		c->depth = 0;
		return;
	}
	for (unsigned i = 0; i < c->depth; i++) {
		c->frames[i].flags = get_u8(r);
		c->frames[i].pc = get_u64(r);
		c->frames[i].coid = get_u64(r);
		c->frames[i].gen = get_u32(r);
	}
	int err = check_chain(c);
	if (err)
		rd_fail(r, err);
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
	sample_fields, sizeof sample_fields / sizeof sample_fields[0], true,
	sizeof(struct proto_sample), check_sample, put_chain, get_chain,
};
/* Both sample layouts clear the structure first: what the wire lacks (SAMPLES: period and
 * chain id; SAMPLES_CHAINED: the inline chain) reads as none. */
static const struct proto_layout sample_chained_layout = {
	sample_chained_fields, sizeof sample_chained_fields / sizeof sample_chained_fields[0], true,
	sizeof(struct proto_sample), proto_check_sample_chained, NULL, NULL,
};
/* The fixed fields' check cannot see the frames: the whole record is checked by get_frames
 * and, encoding, by check_chain_fixed before anything is written. */
static int check_chain_fixed(const void *msg)
{
	const struct proto_chain *c = msg;
	return c->depth < 1 || c->depth > PROTO_MAX_CHAIN_DEPTH ? PROTO_E_COUNT : 0;
}
static int put_chain_record(struct wr *w, const void *msg)
{
	int err = check_chain(msg);
	return err ? err : put_frames(w, msg);
}
static const struct proto_layout chain_layout = {
	chain_fields, sizeof chain_fields / sizeof chain_fields[0], false,
	sizeof(struct proto_chain), check_chain_fixed, put_chain_record, get_frames,
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
	{ PROTO_SAMPLES_CHAINED, &samples_head_layout, &sample_chained_layout, SAMPLE_CHAINED_SIZE,
	  NULL },
	{ PROTO_CHAINS, &samples_head_layout, &chain_layout, CHAIN_MIN, NULL },
};
const size_t proto_data_message_count = sizeof proto_data_messages / sizeof proto_data_messages[0];

PROTO_LIST_NAMES(samples, sample, PROTO_SAMPLES, struct proto_samples_head, struct proto_sample)

/* SAMPLES_CHAINED by hand on the way out: every sample the monitor delivers is one of these
 * records, and the table's writer (a bounds check and a jump per field) took about 300
 * instructions of the pipeline's 1,100 per sample; one check for the record and its eleven
 * stores take about 40. The table still reads them (sample_chained_layout), and
 * tests/unit/test_proto.c holds the two to the same bytes. */
int proto_begin_samples_chained(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_samples_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_SAMPLES_CHAINED, req, flags, h);
}

int proto_add_sample_chained(struct proto_builder *b, const struct proto_sample *r)
{
	if (b->err)
		return -b->err;
	if (b->type != PROTO_SAMPLES_CHAINED)
		return -PROTO_E_INVALID;
	int err = proto_check_sample_chained(r);
	if (err)
		return -err;
	if (b->len > b->cap || b->cap - b->len < SAMPLE_CHAINED_SIZE)
		return b->len + SAMPLE_CHAINED_SIZE > PROTO_MAX_FRAME ? -PROTO_E_TOO_BIG : -PROTO_E_NOSPACE;
	uint8_t *p = b->buf + b->len;
	be64_store(p, r->timebase);
	be64_store(p + 8, r->pc);
	be64_store(p + 16, r->coid);
	be32_store(p + 24, r->gen);
	be32_store(p + 28, r->pid);
	be32_store(p + 32, r->tid);
	be16_store(p + 36, r->cpu);
	be16_store(p + 38, r->event);
	be16_store(p + 40, r->flags);
	be32_store(p + 42, r->period);
	be32_store(p + 46, r->chain_id);
	b->len += SAMPLE_CHAINED_SIZE;
	b->count++;
	return 0;
}

int proto_decode_samples_chained(const struct proto_frame *f, struct proto_samples_head *h,
                                 struct proto_iter *it)
{
	return proto_list_decode(f, PROTO_SAMPLES_CHAINED, h, it);
}

bool proto_next_sample_chained(struct proto_iter *it, struct proto_sample *r)
{
	return proto_list_next(it, PROTO_SAMPLES_CHAINED, r);
}

int proto_decode_any_samples(const struct proto_frame *f, struct proto_samples_head *h,
                             struct proto_iter *it)
{
	if (f->type == PROTO_SAMPLES_PACKED)
		return proto_decode_samples_packed(f, h, it);
	return proto_list_decode(f, proto_is_samples(f->type) ? f->type : PROTO_SAMPLES, h, it);
}

bool proto_next_any_sample(struct proto_iter *it, struct proto_sample *r)
{
	if (it->type == PROTO_SAMPLES_PACKED)
		return proto_next_sample_packed(it, r);
	return proto_is_samples(it->type) && proto_list_next(it, it->type, r);
}

bool proto_is_samples(uint16_t type)
{
	return type == PROTO_SAMPLES || type == PROTO_SAMPLES_CHAINED || type == PROTO_SAMPLES_PACKED;
}

PROTO_LIST_NAMES(chains, chain, PROTO_CHAINS, struct proto_samples_head, struct proto_chain)
PROTO_LIST_NAMES(interval_counts, count, PROTO_INTERVAL_COUNTS, struct proto_counts_head,
                 struct proto_count)
PROTO_LIST_NAMES(lock_stats, lock, PROTO_LOCK_STATS, struct proto_interval, struct proto_lock)
PROTO_LIST_NAMES(lock_contention, lock_contention, PROTO_LOCK_CONTENTION, struct proto_interval,
                 struct proto_lock)
PROTO_LIST_NAMES(invocations, invocation, PROTO_INVOCATIONS, struct proto_interval,
                 struct proto_invocation)
PROTO_LIST_NAMES(lost_samples, lost, PROTO_LOST_SAMPLES, struct proto_interval,
                 struct proto_lost)

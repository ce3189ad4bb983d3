/* Monitoring data the server pushes as it is produced: samples, interval counts, lock
 * statistics, invocation counts and reports of samples the target's rings lost. */
#include "dci/proto_wire.h"

#define SAMPLE_MIN 44
#define COUNT_SIZE 30
#define LOCK_SIZE 94
#define LOCK_CONTENTION_SIZE (LOCK_SIZE + 2 + 5 * 8 + PROTO_LOCK_SITES * 16)
#define INVOCATION_SIZE 24
#define LOST_SIZE 14
#define PMC_MAX 8

/* ---- SAMPLES ------------------------------------------------------------------------- */

static int put_samples_head(struct wr *w, const void *msg)
{
	put_u32(w, ((const struct proto_samples_head *)msg)->config_id);
	return 0;
}

static void get_samples_head(struct rd *r, void *msg)
{
	((struct proto_samples_head *)msg)->config_id = get_u32(r);
}

static int check_sample(const struct proto_sample *s)
{
	const uint16_t mode = s->flags & (PROTO_SMP_KERNEL | PROTO_SMP_USER);
	if (mode != PROTO_SMP_KERNEL && mode != PROTO_SMP_USER)
		return PROTO_E_INCONSISTENT;
	if ((s->flags & PROTO_SMP_NO_OBJECT) && (s->coid || s->gen))
		return PROTO_E_INCONSISTENT;
	if (s->depth > PROTO_MAX_CHAIN)
		return PROTO_E_COUNT;
	return 0;
}

static int put_sample(struct wr *w, const void *msg)
{
	const struct proto_sample *s = msg;
	int err = check_sample(s);
	if (err)
		return err;
	put_u64(w, s->timebase);
	put_u64(w, s->pc);
	put_u64(w, s->coid);
	put_u32(w, s->gen);
	put_u32(w, s->pid);
	put_u32(w, s->tid);
	put_u16(w, s->cpu);
	put_u16(w, s->event);
	put_u16(w, s->flags);
	put_u16(w, s->depth);
	for (unsigned i = 0; i < s->depth; i++)
		put_u64(w, s->chain[i]);
	return 0;
}

static void get_sample(struct rd *r, void *msg)
{
	struct proto_sample *s = msg;
	s->timebase = get_u64(r);
	s->pc = get_u64(r);
	s->coid = get_u64(r);
	s->gen = get_u32(r);
	s->pid = get_u32(r);
	s->tid = get_u32(r);
	s->cpu = get_u16(r);
	s->event = get_u16(r);
	s->flags = get_u16(r);
	s->depth = get_u16(r);
	if (!r->err)
		r->err = check_sample(s);
	if (r->err) {
		s->depth = 0;
		return;
	}
	for (unsigned i = 0; i < s->depth; i++)
		s->chain[i] = get_u64(r);
}

int proto_begin_samples(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                        uint16_t flags, const struct proto_samples_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_SAMPLES, req, flags, put_samples_head, h);
}

int proto_add_sample(struct proto_builder *b, const struct proto_sample *r)
{
	return proto_list_add(b, PROTO_SAMPLES, put_sample, r);
}

int proto_decode_samples(const struct proto_frame *f, struct proto_samples_head *h,
                         struct proto_iter *it)
{
	struct proto_sample scratch;
	return proto_list_decode(f, PROTO_SAMPLES, get_samples_head, h, get_sample, &scratch,
	                         SAMPLE_MIN, it);
}

bool proto_next_sample(struct proto_iter *it, struct proto_sample *r)
{
	return proto_list_next(it, PROTO_SAMPLES, get_sample, r);
}

/* ---- the interval heads -------------------------------------------------------------- */

static int put_counts_head(struct wr *w, const void *msg)
{
	const struct proto_counts_head *h = msg;
	if (h->start > h->end)
		return PROTO_E_INCONSISTENT;
	put_u32(w, h->config_id);
	put_u64(w, h->start);
	put_u64(w, h->end);
	return 0;
}

static void get_counts_head(struct rd *r, void *msg)
{
	struct proto_counts_head *h = msg;
	h->config_id = get_u32(r);
	h->start = get_u64(r);
	h->end = get_u64(r);
	if (!r->err && h->start > h->end)
		r->err = PROTO_E_INCONSISTENT;
}

static int put_interval(struct wr *w, const void *msg)
{
	const struct proto_interval *h = msg;
	if (h->start > h->end)
		return PROTO_E_INCONSISTENT;
	put_u64(w, h->start);
	put_u64(w, h->end);
	return 0;
}

static void get_interval(struct rd *r, void *msg)
{
	struct proto_interval *h = msg;
	h->start = get_u64(r);
	h->end = get_u64(r);
	if (!r->err && h->start > h->end)
		r->err = PROTO_E_INCONSISTENT;
}

/* ---- INTERVAL_COUNTS ----------------------------------------------------------------- */

static int put_count(struct wr *w, const void *msg)
{
	const struct proto_count *c = msg;
	if (c->running > c->enabled)
		return PROTO_E_INCONSISTENT;
	put_u16(w, c->cpu);
	put_u16(w, c->group);
	put_u16(w, c->event);
	put_u64(w, c->raw);
	put_u64(w, c->enabled);
	put_u64(w, c->running);
	return 0;
}

static void get_count(struct rd *r, void *msg)
{
	struct proto_count *c = msg;
	c->cpu = get_u16(r);
	c->group = get_u16(r);
	c->event = get_u16(r);
	c->raw = get_u64(r);
	c->enabled = get_u64(r);
	c->running = get_u64(r);
	if (!r->err && c->running > c->enabled)
		r->err = PROTO_E_INCONSISTENT;
}

int proto_begin_interval_counts(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_counts_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_INTERVAL_COUNTS, req, flags, put_counts_head, h);
}

int proto_add_count(struct proto_builder *b, const struct proto_count *r)
{
	return proto_list_add(b, PROTO_INTERVAL_COUNTS, put_count, r);
}

int proto_decode_interval_counts(const struct proto_frame *f, struct proto_counts_head *h,
                                 struct proto_iter *it)
{
	struct proto_count scratch;
	return proto_list_decode(f, PROTO_INTERVAL_COUNTS, get_counts_head, h, get_count, &scratch,
	                         COUNT_SIZE, it);
}

bool proto_next_count(struct proto_iter *it, struct proto_count *r)
{
	return proto_list_next(it, PROTO_INTERVAL_COUNTS, get_count, r);
}

/* ---- LOCK_STATS ---------------------------------------------------------------------- */

static int check_lock(const struct proto_lock *l)
{
	if (l->contentions > l->acquisitions || l->wait_max > l->wait_total ||
	    l->hold_max > l->hold_total || l->qlen_max > l->qlen_sum)
		return PROTO_E_INCONSISTENT;
	if (l->qlen_samples == 0 && l->qlen_sum != 0)
		return PROTO_E_INCONSISTENT;
	return 0;
}

/* What LOCK_CONTENTION adds must agree with itself and with the common part. */
static int check_lock_contention(const struct proto_lock *l)
{
	int err = check_lock(l);
	if (err)
		return err;
	if (l->wait_min > l->wait_max || l->bounces > l->contentions ||
	    (l->holds == 0 && l->hold_total != 0) || (l->flags & ~(PROTO_LOCK_FULL | PROTO_LOCK_OWNER_SET)))
		return PROTO_E_INCONSISTENT;
	uint64_t sites = l->other_sites;
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		if (!l->site[i].pc && l->site[i].count)
			return PROTO_E_INCONSISTENT;
		sites += l->site[i].count;
	}
	return sites > l->contentions ? PROTO_E_INCONSISTENT : 0;
}

static int put_lock(struct wr *w, const void *msg)
{
	const struct proto_lock *l = msg;
	int err = check_lock(l);
	if (err)
		return err;
	put_u64(w, l->lock);
	put_u64(w, l->coid);
	put_u32(w, l->gen);
	put_u32(w, l->pid);
	put_u16(w, l->kind);
	put_u64(w, l->acquisitions);
	put_u64(w, l->contentions);
	put_u64(w, l->wait_total);
	put_u64(w, l->wait_max);
	put_u64(w, l->hold_total);
	put_u64(w, l->hold_max);
	put_u64(w, l->qlen_samples);
	put_u64(w, l->qlen_sum);
	put_u32(w, l->qlen_max);
	return 0;
}

static void get_lock(struct rd *r, void *msg)
{
	struct proto_lock *l = msg;
	*l = (struct proto_lock){ 0 };   /* what LOCK_STATS does not carry reads as none */
	l->lock = get_u64(r);
	l->coid = get_u64(r);
	l->gen = get_u32(r);
	l->pid = get_u32(r);
	l->kind = get_u16(r);
	l->acquisitions = get_u64(r);
	l->contentions = get_u64(r);
	l->wait_total = get_u64(r);
	l->wait_max = get_u64(r);
	l->hold_total = get_u64(r);
	l->hold_max = get_u64(r);
	l->qlen_samples = get_u64(r);
	l->qlen_sum = get_u64(r);
	l->qlen_max = get_u32(r);
	if (!r->err)
		r->err = check_lock(l);
}

static int put_lock_contention(struct wr *w, const void *msg)
{
	const struct proto_lock *l = msg;
	int err = check_lock_contention(l);
	if (err)
		return err;
	put_lock(w, l);
	put_u16(w, l->flags);
	put_u64(w, l->wait_min);
	put_u64(w, l->holds);
	put_u64(w, l->bounces);
	put_u64(w, l->trylock_failures);
	put_u64(w, l->other_sites);
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		put_u64(w, l->site[i].pc);
		put_u64(w, l->site[i].count);
	}
	return 0;
}

static void get_lock_contention(struct rd *r, void *msg)
{
	struct proto_lock *l = msg;
	get_lock(r, l);
	l->flags = get_u16(r);
	l->wait_min = get_u64(r);
	l->holds = get_u64(r);
	l->bounces = get_u64(r);
	l->trylock_failures = get_u64(r);
	l->other_sites = get_u64(r);
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		l->site[i].pc = get_u64(r);
		l->site[i].count = get_u64(r);
	}
	if (!r->err)
		r->err = check_lock_contention(l);
}

int proto_begin_lock_contention(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_interval *h)
{
	return proto_list_begin(b, buf, cap, PROTO_LOCK_CONTENTION, req, flags, put_interval, h);
}

int proto_add_lock_contention(struct proto_builder *b, const struct proto_lock *r)
{
	return proto_list_add(b, PROTO_LOCK_CONTENTION, put_lock_contention, r);
}

int proto_decode_lock_contention(const struct proto_frame *f, struct proto_interval *h,
                                 struct proto_iter *it)
{
	struct proto_lock scratch;
	return proto_list_decode(f, PROTO_LOCK_CONTENTION, get_interval, h, get_lock_contention,
	                         &scratch, LOCK_CONTENTION_SIZE, it);
}

bool proto_next_lock_contention(struct proto_iter *it, struct proto_lock *r)
{
	return proto_list_next(it, PROTO_LOCK_CONTENTION, get_lock_contention, r);
}

int proto_begin_lock_stats(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                           uint16_t flags, const struct proto_interval *h)
{
	return proto_list_begin(b, buf, cap, PROTO_LOCK_STATS, req, flags, put_interval, h);
}

int proto_add_lock(struct proto_builder *b, const struct proto_lock *r)
{
	return proto_list_add(b, PROTO_LOCK_STATS, put_lock, r);
}

int proto_decode_lock_stats(const struct proto_frame *f, struct proto_interval *h,
                            struct proto_iter *it)
{
	struct proto_lock scratch;
	return proto_list_decode(f, PROTO_LOCK_STATS, get_interval, h, get_lock, &scratch,
	                         LOCK_SIZE, it);
}

bool proto_next_lock(struct proto_iter *it, struct proto_lock *r)
{
	return proto_list_next(it, PROTO_LOCK_STATS, get_lock, r);
}

/* ---- INVOCATIONS --------------------------------------------------------------------- */

static int put_invocation(struct wr *w, const void *msg)
{
	const struct proto_invocation *v = msg;
	put_u64(w, v->coid);
	put_u32(w, v->gen);
	put_u32(w, v->pid);
	put_u64(w, v->count);
	return 0;
}

static void get_invocation(struct rd *r, void *msg)
{
	struct proto_invocation *v = msg;
	v->coid = get_u64(r);
	v->gen = get_u32(r);
	v->pid = get_u32(r);
	v->count = get_u64(r);
}

int proto_begin_invocations(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                            uint16_t flags, const struct proto_interval *h)
{
	return proto_list_begin(b, buf, cap, PROTO_INVOCATIONS, req, flags, put_interval, h);
}

int proto_add_invocation(struct proto_builder *b, const struct proto_invocation *r)
{
	return proto_list_add(b, PROTO_INVOCATIONS, put_invocation, r);
}

int proto_decode_invocations(const struct proto_frame *f, struct proto_interval *h,
                             struct proto_iter *it)
{
	struct proto_invocation scratch;
	return proto_list_decode(f, PROTO_INVOCATIONS, get_interval, h, get_invocation, &scratch,
	                         INVOCATION_SIZE, it);
}

bool proto_next_invocation(struct proto_iter *it, struct proto_invocation *r)
{
	return proto_list_next(it, PROTO_INVOCATIONS, get_invocation, r);
}

/* ---- LOST_SAMPLES -------------------------------------------------------------------- */

static int put_lost(struct wr *w, const void *msg)
{
	const struct proto_lost *l = msg;
	if (l->pmc > PMC_MAX)
		return PROTO_E_INCONSISTENT;
	put_u16(w, l->cpu);
	put_u16(w, l->pmc);
	put_u16(w, l->event);
	put_u64(w, l->lost);
	return 0;
}

static void get_lost(struct rd *r, void *msg)
{
	struct proto_lost *l = msg;
	l->cpu = get_u16(r);
	l->pmc = get_u16(r);
	l->event = get_u16(r);
	l->lost = get_u64(r);
	if (!r->err && l->pmc > PMC_MAX)
		r->err = PROTO_E_INCONSISTENT;
}

int proto_begin_lost_samples(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                             uint16_t flags, const struct proto_interval *h)
{
	return proto_list_begin(b, buf, cap, PROTO_LOST_SAMPLES, req, flags, put_interval, h);
}

int proto_add_lost(struct proto_builder *b, const struct proto_lost *r)
{
	return proto_list_add(b, PROTO_LOST_SAMPLES, put_lost, r);
}

int proto_decode_lost_samples(const struct proto_frame *f, struct proto_interval *h,
                              struct proto_iter *it)
{
	struct proto_lost scratch;
	return proto_list_decode(f, PROTO_LOST_SAMPLES, get_interval, h, get_lost, &scratch,
	                         LOST_SIZE, it);
}

bool proto_next_lost(struct proto_iter *it, struct proto_lost *r)
{
	return proto_list_next(it, PROTO_LOST_SAMPLES, get_lost, r);
}

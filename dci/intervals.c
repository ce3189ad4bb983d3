/* What goes out at the end of each report interval, to every subscriber: INTERVAL_COUNTS,
 * LOST_SAMPLES when the rings lost samples, and what each lock did (LOCK_CONTENTION to 1.2
 * clients, LOCK_STATS to older ones) from the difference of the KM's cumulative records. */
#include "monitor.h"
#include <km.h>
#include "subscribers.h"

#define COUNT_MAX 4096
#define LOST_MAX 512
#define LOCKS_MAX 1024

static struct km_count counts[COUNT_MAX];
static struct km_lost lost[LOST_MAX];
static struct km_lock_record locks_now[LOCKS_MAX], locks_then[LOCKS_MAX];
static long n_then;

void counts_push(void)
{
	struct km_counts_head h;
	long n = km_counts(&h, counts, COUNT_MAX);
	if (n >= 0)
		monitor.counts_late += h.missed;
	if (n < 0 || !(monitor.streams & PROTO_STREAM_COUNTS))
		return;
	struct proto_builder b;
	struct proto_counts_head ph = { h.config_id, h.start, h.end };
	proto_begin_interval_counts(&b, monitor_out, sizeof monitor_out, 0, 0, &ph);
	for (long i = 0; i < n; i++) {
		struct proto_count c = { counts[i].cpu, counts[i].group, counts[i].event, counts[i].raw,
					 counts[i].enabled, counts[i].running };
		int rc = proto_add_count(&b, &c);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			uint32_t k = proto_builder_count(&b);
			subscribers_push(AUDIENCE_ALL, monitor_out, (size_t)proto_finish(&b), PROTO_INTERVAL_COUNTS, k);
			proto_begin_interval_counts(&b, monitor_out, sizeof monitor_out, 0, 0, &ph);
			proto_add_count(&b, &c);
		}
	}
	subscribers_push(AUDIENCE_ALL, monitor_out, (size_t)proto_finish(&b), PROTO_INTERVAL_COUNTS,
			 proto_builder_count(&b));
}


void lost_push(uint64_t start, uint64_t end)
{
	long n = km_lost(lost, LOST_MAX);
	if (n <= 0)
		return;
	struct proto_builder b;
	struct proto_interval h = { start, end };
	proto_begin_lost_samples(&b, monitor_out, sizeof monitor_out, 0, 0, &h);
	for (long i = 0; i < n; i++) {
		struct proto_lost l = { lost[i].cpu, lost[i].pmc, lost[i].event, lost[i].lost };
		monitor.samples_lost += lost[i].lost;
		proto_add_lost(&b, &l);
	}
	subscribers_push(AUDIENCE_ALL, monitor_out, (size_t)proto_finish(&b), PROTO_LOST_SAMPLES, 0);
}

static uint64_t capped(uint64_t max, uint64_t total)
{
	return max < total ? max : total;
}

/* The interval's figures of one lock from its cumulative record now and then (a record that
 * went backwards was made anew for a lock at a reused address: all of it is new). Maxima and
 * the minimum are since the lock was first seen, capped to agree with the interval's totals. */
static bool lock_interval(const struct km_lock_record *now, const struct km_lock_stats *was,
			  struct proto_lock *l)
{
	const struct km_lock_stats *n = &now->s;
	if (n->acquisitions == was->acquisitions && n->trylock_failures == was->trylock_failures)
		return false;
	*l = (struct proto_lock){
		.lock = n->lock, .pid = now->pid,
		.kind = n->kind == KM_LOCK_SPIN ? PROTO_LOCK_SPIN : PROTO_LOCK_SLEEP,
		.flags = (uint16_t)(n->flags & (KM_LOCK_FULL | KM_LOCK_OWNER_SET)),
		.acquisitions = n->acquisitions - was->acquisitions,
		.contentions = n->contentions - was->contentions,
		.wait_total = n->wait_total - was->wait_total,
		.holds = n->holds - was->holds,
		.hold_total = n->hold_total - was->hold_total,
		.qlen_samples = n->qlen_samples - was->qlen_samples,
		.qlen_sum = n->qlen_sum - was->qlen_sum,
		.bounces = n->bounces - was->bounces,
		.trylock_failures = n->trylock_failures - was->trylock_failures,
		.other_sites = n->other_sites - was->other_sites,
	};
	if (l->contentions > l->acquisitions)
		l->contentions = l->acquisitions;
	if (l->bounces > l->contentions)
		l->bounces = l->contentions;
	l->wait_max = capped(n->wait_max, l->wait_total);
	l->wait_min = l->contentions ? capped(n->wait_min, l->wait_max) : 0;
	l->hold_max = capped(n->hold_max, l->hold_total);
	if (!l->holds)
		l->hold_total = l->hold_max = 0;
	l->qlen_max = (uint32_t)capped(n->qlen_max, l->qlen_sum);
	if (!l->qlen_samples)
		l->qlen_sum = l->qlen_max = 0;
	uint64_t sites = l->other_sites;
	for (int i = 0; i < KM_LOCK_SITES && i < PROTO_LOCK_SITES; i++) {
		uint64_t before = 0;
		for (int j = 0; j < KM_LOCK_SITES; j++)
			if (was->site[j].pc == n->site[i].pc)
				before = was->site[j].count;
		uint64_t c = n->site[i].count >= before ? n->site[i].count - before : n->site[i].count;
		if (sites + c > l->contentions)
			c = l->contentions - sites;
		l->site[i] = (struct proto_lock_site){ c ? n->site[i].pc : 0, c };
		sites += c;
	}
	return true;
}

/* Frames of one lock message type to the clients whose minor version wants it. */
static void push_lock_frames(const struct proto_lock *l, long n, const struct proto_interval *h,
			     bool contention)
{
	bool wanted = subscribers_any(AUDIENCE_OF(2, contention));
	/* An interval without any contention still says so to 1.2 clients (an empty report). */
	if (!wanted || (!n && !contention))
		return;
	uint16_t type = contention ? PROTO_LOCK_CONTENTION : PROTO_LOCK_STATS;
	int (*begin)(struct proto_builder *, void *, size_t, uint32_t, uint16_t, const struct proto_interval *) =
		contention ? proto_begin_lock_contention : proto_begin_lock_stats;
	int (*add)(struct proto_builder *, const struct proto_lock *) =
		contention ? proto_add_lock_contention : proto_add_lock;
	struct proto_builder b;
	begin(&b, monitor_out, sizeof monitor_out, 0, 0, h);
	for (long i = 0; i < n; i++) {
		int rc = add(&b, &l[i]);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			uint32_t k = proto_builder_count(&b);
			subscribers_push(AUDIENCE_OF(2, contention), monitor_out, (size_t)proto_finish(&b), type, k);
			begin(&b, monitor_out, sizeof monitor_out, 0, 0, h);
			add(&b, &l[i]);
		}
	}
	uint32_t k = proto_builder_count(&b);
	if (k || contention)
		subscribers_push(AUDIENCE_OF(2, contention), monitor_out, (size_t)proto_finish(&b), type, k);
}

/* LOCK_CONTENTION (to 1.2 clients) and LOCK_STATS (to older ones): what each lock of the
 * kernel and of every process did in the interval. */
static struct proto_lock lock_out[LOCKS_MAX];


void locks_push(uint64_t start, uint64_t end)
{
	long n = km_locks(locks_now, LOCKS_MAX);
	if (n < 0)
		return;
	long k = 0;
	bool rescanned = false;
	for (long i = 0; i < n; i++) {
		const struct km_lock_record *r = &locks_now[i];
		struct km_lock_stats was = { 0 };
		for (long j = 0; j < n_then; j++)
			if (locks_then[j].pid == r->pid && locks_then[j].s.lock == r->s.lock) {
				if (locks_then[j].s.acquisitions <= r->s.acquisitions &&
				    locks_then[j].s.trylock_failures <= r->s.trylock_failures)
					was = locks_then[j].s;
				break;
			}
		struct proto_lock *l = &lock_out[k];
		if (!lock_interval(r, &was, l))
			continue;
		uint32_t space = r->pid;
		const struct rep_entry *e = r->s.owner ? objmap_find(space, r->s.owner) : 0;
		if (r->s.owner && !e && !rescanned && objmap_refresh(false)) {
			rescanned = true;
			e = objmap_find(space, r->s.owner);
		}
		l->coid = e ? e->coid : 0;
		l->gen = e ? e->gen : 0;
		k++;
	}
	memcpy(locks_then, locks_now, (size_t)n * sizeof *locks_now);
	n_then = n;
	struct proto_interval h = { start, end };
	push_lock_frames(lock_out, k, &h, true);
	push_lock_frames(lock_out, k, &h, false);
}

void locks_baseline(void)
{
	n_then = km_locks(locks_then, LOCKS_MAX);   /* the first interval starts now */
	if (n_then < 0)
		n_then = 0;
}

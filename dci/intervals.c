/* What goes out at the end of each report interval, to every subscriber: INTERVAL_COUNTS,
 * LOST_SAMPLES when the rings lost samples, and what each lock did (LOCK_CONTENTION to 1.2
 * clients, LOCK_STATS to older ones) from the difference of the KM's cumulative records. */
#include "monitor.h"
#include <km.h>
#include "subscribers.h"
#include "proto/lock_delta.h"

#define COUNT_MAX 4096
#define LOST_MAX 512
#define LOCKS_MAX 1024

static struct km_count counts[COUNT_MAX];
static struct km_lost lost[LOST_MAX];
static struct km_lock_record locks_now[LOCKS_MAX];
static struct km_lock_record locks_sent[LOCKS_MAX];   /* per lock, what was reported (lock_delta.h) */
static long n_sent;

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
		struct km_lock_record *r = &locks_now[i];
		struct km_lock_stats sent = { 0 };
		for (long j = 0; j < n_sent; j++)
			if (locks_sent[j].pid == r->pid && locks_sent[j].s.lock == r->s.lock) {
				sent = locks_sent[j].s;
				break;
			}
		struct proto_lock *l = &lock_out[k];
		bool any = lock_delta(r->pid, &r->s, &sent, l);
		uint64_t owner = r->s.owner;
		r->s = sent;   /* the read is done with: it becomes what was reported */
		if (!any)
			continue;
		uint32_t space = r->pid;
		const struct rep_entry *e = owner ? objmap_find(space, owner) : 0;
		if (owner && !e && !rescanned && objmap_refresh(false)) {
			rescanned = true;
			e = objmap_find(space, owner);
		}
		l->coid = e ? e->coid : 0;
		l->gen = e ? e->gen : 0;
		k++;
	}
	memcpy(locks_sent, locks_now, (size_t)n * sizeof *locks_now);
	n_sent = n;
	struct proto_interval h = { start, end };
	push_lock_frames(lock_out, k, &h, true);
	push_lock_frames(lock_out, k, &h, false);
}

void locks_baseline(void)
{
	n_sent = km_locks(locks_sent, LOCKS_MAX);   /* the first interval starts now */
	if (n_sent < 0)
		n_sent = 0;
}

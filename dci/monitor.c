/* Monitoring through the DCI: PMU_CONFIG, CONFIG_GET, START and STOP turned into the KM's
 * calls, and the data the KM produces pushed to every client: SAMPLES (with each sample's rep
 * mapped to its object's COID and generation through a scan), INTERVAL_COUNTS at the end of
 * each report interval, LOST_SAMPLES when the rings lost samples. */
#include "dcid.h"
#include <km.h>
#include "proto/inv_delta.h"
#include "chains.h"

#define SAMPLE_BATCH 2048
/* Batches drained per turn of the daemon's loop: samples arriving as fast as they are drained
 * must not keep the loop from its sockets (clients' requests, STOP among them). */
#define BATCHES_PER_TURN 4
#define COUNT_MAX 4096
#define LOST_MAX 512
#define RESCAN_NS 1000000000ull       /* unknown reps trigger a rescan at most this often */
#define RESCAN_NEW_NS 250000000ull    /* ... and reps not missed by the last rescan this often */
#define MISSED_MAX 64
#define LOCKS_MAX 1024

struct monitor_state monitor;

static struct km_sample samples[SAMPLE_BATCH];
static struct km_frame frames[SAMPLE_BATCH][KM_MAX_CHAIN];   /* samples[i]'s call chain */
static uint32_t chain_index[SAMPLE_BATCH];                   /* its entry in chains.c */
static uint8_t out_chained[PROTO_MAX_FRAME];
static struct km_count counts[COUNT_MAX];
static struct km_lost lost[LOST_MAX];
static uint8_t out[PROTO_MAX_FRAME];
static struct km_lock_record locks_now[LOCKS_MAX], locks_then[LOCKS_MAX];
static long n_then;

/* rep -> object, from the last scan: sorted by (pid, rep). Kernel reps are under pid 0. */
/* slot: the rep's CPU + 1 for a per-CPU object's rep, 0 for a single-rep object's (PROTO_REP_*). */
struct rep_entry { uint32_t pid, gen; uint64_t rep, coid; uint16_t slot; };
static struct rep_entry *reps;
static uint32_t n_reps;
static uint64_t last_scan_ns;
/* Reps that samples named and the last rescan did not find (objects destroyed since, most
 * likely): they wait for RESCAN_NS. A rep not among them, an object made since the last scan,
 * triggers a rescan after RESCAN_NEW_NS: with the one rate of a second, a recording's first
 * second named no object for samples of an object the map did not have yet (chains.sh). */
struct missed_rep { uint32_t pid; uint64_t rep; };
static struct missed_rep missed[MISSED_MAX];
static uint32_t n_missed;

static bool was_missed(uint32_t pid, uint64_t rep)
{
	for (uint32_t i = 0; i < n_missed; i++)
		if (missed[i].pid == pid && missed[i].rep == rep)
			return true;
	return false;
}

static void note_missed(uint32_t pid, uint64_t rep)
{
	if (n_missed < MISSED_MAX && !was_missed(pid, rep))
		missed[n_missed++] = (struct missed_rep){ pid, rep };
}

static int rep_cmp(const struct rep_entry *a, uint32_t pid, uint64_t rep)
{
	if (a->pid != pid)
		return a->pid < pid ? -1 : 1;
	return a->rep < rep ? -1 : a->rep > rep;
}

static void sort_reps(void)
{
	for (uint32_t i = 1; i < n_reps; i++) {   /* insertion sort: scans come mostly ordered */
		struct rep_entry e = reps[i];
		uint32_t j = i;
		while (j > 0 && rep_cmp(&reps[j - 1], e.pid, e.rep) > 0) {
			reps[j] = reps[j - 1];
			j--;
		}
		reps[j] = e;
	}
}

/* Whether pid's reps in the current map are kept through the scan s: a live process whose
 * runtime did not answer in time (its scanner thread not scheduled within the timeout on a
 * loaded CPU) and so has no records in s. Dropping them left every sample of that process
 * without its object until the next rescan a second later, or for good when every rescan
 * missed it (chains.sh failed about one run in six). */
static bool keep_reps_of(const struct snapshot *s, uint32_t pid)
{
	if (!pid || !s->totals.processes_silent || !snapshot_process(s, pid))
		return false;
	for (uint32_t i = 0; i < s->n_objs; i++)
		if ((s->objs[i].flags & SCAN_USER) && s->objs[i].pid == pid)
			return false;
	return true;
}

static void rescan(void)
{
	struct snapshot s;
	last_scan_ns = clock_ns();
	n_missed = 0;
	if (!snapshot_take(&s))
		return;
	struct rep_entry *r = 0;
	uint32_t n = 0;
	for (int pass = 0; pass < 2; pass++) {   /* count, then fill (and room for the kept) */
		if (pass == 1 && !(r = malloc(((size_t)n + n_reps) * sizeof *r + 1))) {
			printf("dcid: no memory for the object map (%u reps)\n", (unsigned)n);
			snapshot_free(&s);
			return;
		}
		n = 0;
		for (uint32_t i = 0; i < s.n_objs; i++) {
			const struct scan_record *o = &s.objs[i];
			for (int cpu = 0; cpu < SCAN_MAX_CPUS; cpu++) {
				bool dup = false;
				for (int k = 0; k < cpu && !dup; k++)
					dup = o->reps[k] == o->reps[cpu];
				uint32_t space = o->flags & SCAN_USER ? o->pid : 0;
				if (o->reps[cpu] && !dup && pass == 1)
					r[n] = (struct rep_entry){ space, o->generation, o->reps[cpu],
								   coid_of(space, o->index),
								   (uint16_t)(o->flags & SCAN_PER_CPU ? cpu + 1 : 0) };
				n += o->reps[cpu] && !dup;
			}
		}
	}
	uint32_t kept = 0;
	bool keep = false;
	for (uint32_t i = 0; i < n_reps; i++) {   /* sorted by pid: one decision per process */
		if (i == 0 || reps[i].pid != reps[i - 1].pid)
			keep = keep_reps_of(&s, reps[i].pid);
		if (keep)
			r[n + kept++] = reps[i];
	}
	if (kept)
		printf("dcid: object map: kept %u reps of silent process(es), first pid %u\n",
		       (unsigned)kept, (unsigned)s.totals.silent_pid);
	n += kept;
	if (n != n_reps)
		printf("dcid: object map: %u reps of %u objects\n", (unsigned)n, (unsigned)s.n_objs);
	free(reps);
	reps = r;
	n_reps = n;
	sort_reps();
	snapshot_free(&s);
}

static const struct rep_entry *find_rep(uint32_t pid, uint64_t rep)
{
	uint32_t lo = 0, hi = n_reps;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;
		int c = rep_cmp(&reps[mid], pid, rep);
		if (c == 0)
			return &reps[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

/* ---- pushing data to every client ---------------------------------------------------- */

static void push_all(const void *frame, size_t len, uint16_t type, uint32_t records)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (c->used && c->role != PROTO_ROLE_NONE && !c->closing)
			client_push(c, frame, len, type, records);
	}
}

/* To the clients that speak minor 2 or later (newer) or not (!newer). */
static void push_to(const void *frame, size_t len, uint16_t type, uint32_t records, bool newer)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (c->used && c->role != PROTO_ROLE_NONE && !c->closing && (c->minor >= 2) == newer)
			client_push(c, frame, len, type, records);
	}
}

static bool any_client(void)
{
	return clients_connected() > 0;
}

/* Clients of 1.4 (chained) or older ones (!chained). */
static void push_minor(const void *frame, size_t len, uint16_t type, uint32_t records,
	bool chained)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (c->used && c->role != PROTO_ROLE_NONE && !c->closing && (c->minor >= 4) == chained)
			client_push(c, frame, len, type, records);
	}
}

static bool any_chained_client(void)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		const struct client *c = &dcid.clients[i];
		if (c->used && c->role != PROTO_ROLE_NONE && !c->closing && c->minor >= 4)
			return true;
	}
	return false;
}

/* A sample's frames for the wire: objects' reps mapped to COIDs (a frame whose object is in
 * no scan is sent without one), user frames marked. 0 when it has none. A chain the wire
 * cannot carry (a kernel frame after a user one, user frames of no process) is cut before
 * that frame and the sample's *flags say TRUNCATED: interned whole, it could never be
 * defined to a client, and its samples would name an unknown chain. */
static uint32_t chain_of(const struct km_sample *s, const struct km_frame *f, uint32_t *index,
	uint16_t *flags)
{
	if (!s->depth)
		return 0;
	struct proto_chain c = { .depth = s->depth > KM_MAX_CHAIN ? KM_MAX_CHAIN : s->depth };
	for (unsigned i = 0; i < c.depth; i++) {
		bool user = f[i].pc & KM_FRAME_USER;
		if ((i && (c.frames[i - 1].flags & PROTO_FRAME_USER) && !user) || (user && !s->pid)) {
			c.depth = (uint16_t)i;
			*flags |= PROTO_SMP_TRUNCATED;
			monitor.chains_cut++;
			break;
		}
		struct proto_chain_frame *p = &c.frames[i];
		*p = (struct proto_chain_frame){ user ? PROTO_FRAME_USER : 0, f[i].pc & ~3ull, 0, 0 };
		if (user)
			c.pid = s->pid;
		const struct rep_entry *e = f[i].object ? find_rep(user ? s->pid : 0, f[i].object) : 0;
		if (e) {
			p->flags |= PROTO_FRAME_OBJECT;
			p->coid = e->coid;
			p->gen = e->gen;
		}
	}
	return c.depth ? chains_intern(&c, index) : 0;
}

/* 1.4 clients: SAMPLES_CHAINED frames, each after the CHAINS it names that the client lacks. */
static void push_chained(long n, const struct proto_sample *p, const uint32_t *ids)
{
	struct proto_builder b;
	struct proto_samples_head h = { monitor.config_id };
	long first = 0;
	proto_begin_samples_chained(&b, out_chained, sizeof out_chained, 0, 0, &h);
	for (long i = 0; i <= n; i++) {
		int rc = 0;
		if (i < n) {
			struct proto_sample q = p[i];
			q.depth = 0;
			q.chain_id = ids[i];
			rc = proto_add_sample_chained(&b, &q);
			if (rc != -PROTO_E_NOSPACE && rc != -PROTO_E_TOO_BIG)
				continue;
		}
		uint32_t k = proto_builder_count(&b);
		size_t len = (size_t)proto_finish(&b);
		for (int c = 0; k && c < DCID_SLOTS; c++) {
			struct client *cl = &dcid.clients[c];
			if (cl->used && cl->role != PROTO_ROLE_NONE && !cl->closing && cl->minor >= 4 &&
			    chains_send(cl, chain_index + first, (uint32_t)(i - first), h.config_id))
				client_push(cl, out_chained, len, PROTO_SAMPLES_CHAINED, k);
		}
		if (i == n)
			break;
		first = i;
		proto_begin_samples_chained(&b, out_chained, sizeof out_chained, 0, 0, &h);
		i--;   /* the sample that did not fit starts the next frame */
	}
}

static void push_samples(long n)
{
	/* Map first: a rep no scan has seen yet triggers one rescan (rate-limited). */
	bool unknown = false, fresh = false;
	for (long i = 0; i < n && !fresh; i++) {
		const struct km_sample *s = &samples[i];
		uint32_t space = s->flags & KM_SMP_USER ? s->pid : 0;
		if (!(s->flags & KM_SMP_NO_OBJECT) && !find_rep(space, s->object)) {
			unknown = true;
			fresh = !was_missed(space, s->object);
		}
	}
	uint64_t since = clock_ns() - last_scan_ns;
	if ((fresh && since >= RESCAN_NEW_NS) || (unknown && since >= RESCAN_NS))
		rescan();
	static struct proto_sample wire[SAMPLE_BATCH];
	static uint32_t ids[SAMPLE_BATCH];
	bool chained = any_chained_client();
	if (chained)
		chains_reserve((uint32_t)n);
	struct proto_builder b;
	struct proto_samples_head h = { monitor.config_id };
	proto_begin_samples(&b, out, sizeof out, 0, 0, &h);
	for (long i = 0; i < n; i++) {
		const struct km_sample *s = &samples[i];
		struct proto_sample p = { .timebase = s->timebase, .pc = s->pc, .pid = s->pid,
					  .tid = s->tid, .cpu = s->cpu, .event = s->event,
					  .flags = s->flags & (PROTO_SMP_KERNEL | PROTO_SMP_USER |
							       PROTO_SMP_TRUNCATED | PROTO_SMP_UNCERTAIN |
							       PROTO_SMP_NO_OBJECT),
					  .period = s->period };
		chain_index[i] = 0;
		ids[i] = chained ? chain_of(s, frames[i], &chain_index[i], &p.flags) : 0;
		if (!(p.flags & PROTO_SMP_NO_OBJECT)) {
			const struct rep_entry *e = find_rep(s->flags & KM_SMP_USER ? s->pid : 0, s->object);
			if (e) {
				p.coid = e->coid;
				p.gen = e->gen;
				p.flags |= (uint16_t)(e->slot << PROTO_REP_SHIFT);
			} else {
				/* The object is gone (or not scanned yet): say so, never guess. */
				p.flags |= PROTO_SMP_NO_OBJECT | PROTO_SMP_UNCERTAIN;
				monitor.unresolved++;
				note_missed(s->flags & KM_SMP_USER ? s->pid : 0, s->object);
			}
		}
		wire[i] = p;
		int rc = proto_add_sample(&b, &p);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			uint32_t k = proto_builder_count(&b);
			push_minor(out, (size_t)proto_finish(&b), PROTO_SAMPLES, k, false);
			proto_begin_samples(&b, out, sizeof out, 0, 0, &h);
			proto_add_sample(&b, &p);
		}
	}
	uint32_t k = proto_builder_count(&b);
	if (k)
		push_minor(out, (size_t)proto_finish(&b), PROTO_SAMPLES, k, false);
	if (chained)
		push_chained(n, wire, ids);
}

static void push_counts(void)
{
	struct km_counts_head h;
	long n = km_counts(&h, counts, COUNT_MAX);
	if (n >= 0)
		monitor.counts_late += h.missed;
	if (n < 0 || !(monitor.streams & PROTO_STREAM_COUNTS))
		return;
	struct proto_builder b;
	struct proto_counts_head ph = { h.config_id, h.start, h.end };
	proto_begin_interval_counts(&b, out, sizeof out, 0, 0, &ph);
	for (long i = 0; i < n; i++) {
		struct proto_count c = { counts[i].cpu, counts[i].group, counts[i].event, counts[i].raw,
					 counts[i].enabled, counts[i].running };
		int rc = proto_add_count(&b, &c);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			uint32_t k = proto_builder_count(&b);
			push_all(out, (size_t)proto_finish(&b), PROTO_INTERVAL_COUNTS, k);
			proto_begin_interval_counts(&b, out, sizeof out, 0, 0, &ph);
			proto_add_count(&b, &c);
		}
	}
	push_all(out, (size_t)proto_finish(&b), PROTO_INTERVAL_COUNTS, proto_builder_count(&b));
}

static void push_lost(uint64_t start, uint64_t end)
{
	long n = km_lost(lost, LOST_MAX);
	if (n <= 0)
		return;
	struct proto_builder b;
	struct proto_interval h = { start, end };
	proto_begin_lost_samples(&b, out, sizeof out, 0, 0, &h);
	for (long i = 0; i < n; i++) {
		struct proto_lost l = { lost[i].cpu, lost[i].pmc, lost[i].event, lost[i].lost };
		monitor.samples_lost += lost[i].lost;
		proto_add_lost(&b, &l);
	}
	push_all(out, (size_t)proto_finish(&b), PROTO_LOST_SAMPLES, 0);
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
	bool wanted = false;
	for (int i = 0; i < DCID_SLOTS && !wanted; i++) {
		const struct client *c = &dcid.clients[i];
		wanted = c->used && c->role != PROTO_ROLE_NONE && !c->closing && (c->minor >= 2) == contention;
	}
	/* An interval without any contention still says so to 1.2 clients (an empty report). */
	if (!wanted || (!n && !contention))
		return;
	uint16_t type = contention ? PROTO_LOCK_CONTENTION : PROTO_LOCK_STATS;
	int (*begin)(struct proto_builder *, void *, size_t, uint32_t, uint16_t, const struct proto_interval *) =
		contention ? proto_begin_lock_contention : proto_begin_lock_stats;
	int (*add)(struct proto_builder *, const struct proto_lock *) =
		contention ? proto_add_lock_contention : proto_add_lock;
	struct proto_builder b;
	begin(&b, out, sizeof out, 0, 0, h);
	for (long i = 0; i < n; i++) {
		int rc = add(&b, &l[i]);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			uint32_t k = proto_builder_count(&b);
			push_to(out, (size_t)proto_finish(&b), type, k, contention);
			begin(&b, out, sizeof out, 0, 0, h);
			add(&b, &l[i]);
		}
	}
	uint32_t k = proto_builder_count(&b);
	if (k || contention)
		push_to(out, (size_t)proto_finish(&b), type, k, contention);
}

/* LOCK_CONTENTION (to 1.2 clients) and LOCK_STATS (to older ones): what each lock of the
 * kernel and of every process did in the interval. */
static struct proto_lock lock_out[LOCKS_MAX];

static void push_locks(uint64_t start, uint64_t end)
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
		const struct rep_entry *e = r->s.owner ? find_rep(space, r->s.owner) : 0;
		if (r->s.owner && !e && !rescanned && clock_ns() - last_scan_ns >= RESCAN_NS) {
			rescan();
			rescanned = true;
			e = find_rep(space, r->s.owner);
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

/* INVOCATIONS: each counted object's calls in the interval, from a scan, as differences from
 * a baseline (proto/inv_delta.c: what happens when memory or a scan fails). */
static struct inv_baseline inv;
static bool inv_failing;          /* the last attempt failed: said once per streak */
static const struct inv_mem inv_mem = { malloc, free };

static bool process_alive(void *ctx, uint32_t pid)
{
	return snapshot_process(ctx, pid) != 0;
}

static void inv_failed(const char *why, const char *what)
{
	if (!inv_failing)
		printf("dcid: invocation counts: %s for %s; the next report spans the intervals until "
		       "one succeeds\n", why, what);
	inv_failing = true;
}

static struct inv_scan inv_view(struct snapshot *s)
{
	return (struct inv_scan){ s->objs, s->n_objs, s->totals.written < s->totals.objects,
				  process_alive, s };
}

/* The baseline at START: the counts now, so the first report holds only its interval. */
static void inv_begin(uint64_t tb)
{
	struct snapshot s;
	inv_failing = false;
	inv_reset(&inv, &inv_mem);
	if (!snapshot_take(&s)) {
		inv_failed("no scan", "the baseline at start");
		return;
	}
	struct inv_scan v = inv_view(&s);
	if (!inv_start(&inv, &v, tb, &inv_mem))
		inv_failed("no memory", "the baseline at start");
	snapshot_free(&s);
}

static struct proto_builder inv_b;
static struct proto_interval inv_h;

static void emit_invocation(void *arg, const struct inv_entry *e)
{
	(void)arg;
	struct proto_invocation r = { coid_of(e->space, e->index), e->gen, e->space, e->calls };
	int rc = proto_add_invocation(&inv_b, &r);
	if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
		uint32_t k = proto_builder_count(&inv_b);
		push_all(out, (size_t)proto_finish(&inv_b), PROTO_INVOCATIONS, k);
		proto_begin_invocations(&inv_b, out, sizeof out, 0, 0, &inv_h);
		proto_add_invocation(&inv_b, &r);
	}
}

static void push_invocations(uint64_t end)
{
	struct snapshot s;
	if (!snapshot_take(&s)) {
		inv_failed("no scan", "this interval");
		return;
	}
	struct inv_scan v = inv_view(&s);
	inv_h = (struct proto_interval){ inv.since, end };
	proto_begin_invocations(&inv_b, out, sizeof out, 0, 0, &inv_h);
	uint64_t start;
	uint64_t skipped = inv.skipped_objects;
	enum inv_outcome r = inv_report(&inv, &v, end, &start, &inv_mem, emit_invocation, 0);
	snapshot_free(&s);
	if (r == INV_NO_MEMORY) {
		inv_failed("no memory", "this interval");
		return;
	}
	inv_failing = false;
	monitor.invocation_reports_skipped = inv.skipped_reports;
	monitor.invocation_objects_skipped = inv.skipped_objects;
	if (r == INV_BASELINE_ONLY)
		printf("dcid: invocation counts: interval not reported (no baseline); the next is\n");
	if (inv.skipped_objects > skipped)
		printf("dcid: invocation counts: %llu objects counted before the baseline but missing "
		       "from it are reported from the next interval\n",
		       (unsigned long long)(inv.skipped_objects - skipped));
	uint32_t k = proto_builder_count(&inv_b);
	if (k)
		push_all(out, (size_t)proto_finish(&inv_b), PROTO_INVOCATIONS, k);
}

static void tally_periods(long n)
{
	for (long i = 0; i < n; i++) {
		const struct km_sample *s = &samples[i];
		if (s->event >= DCID_PERIOD_EVENTS)
			continue;
		struct sample_periods *p = &monitor.periods[s->event];
		if (!p->samples || s->period < p->min)
			p->min = s->period;
		if (s->period > p->max)
			p->max = s->period;
		p->samples++;
		p->events += s->period;
	}
}

/* Drains what the KM has: samples every call, counts and losses at interval ends. */
void monitor_poll(uint64_t now)
{
	if (!monitor.streams)
		return;
	long n = 0;
	monitor.backlog = false;
	for (int b = 0; b < BATCHES_PER_TURN && (n = km_samples_chains(samples, SAMPLE_BATCH, &frames[0][0])) > 0;
	     b++) {
		monitor.backlog = n == SAMPLE_BATCH && b == BATCHES_PER_TURN - 1;
		tally_periods(n);
		if ((monitor.streams & PROTO_STREAM_SAMPLES) && any_client())
			push_samples(n);
		else
			monitor.samples_discarded += (uint64_t)n;   /* drained so the rings stay free */
	}
	if (now < monitor.next_interval_ns)
		return;
	uint64_t tb = timebase_now();
	push_counts();
	if (monitor.streams & PROTO_STREAM_LOCKS)
		push_locks(monitor.interval_tb, tb);
	if (monitor.streams & PROTO_STREAM_INVOCATIONS)
		push_invocations(tb);
	push_lost(monitor.interval_tb, tb);
	monitor.interval_tb = tb;
	monitor.next_interval_ns = now + (uint64_t)monitor.interval_us * 1000;
}

int monitor_wait_ms(void)
{
	if (!monitor.streams)
		return -1;
	return monitor.backlog ? 0 : 20;   /* more samples waiting: come straight back */
}

/* ---- requests -------------------------------------------------------------------------- */

static void encode_applied(const struct km_config *k, struct proto_pmu_config *p)
{
	/* KM_CFG_FIXED_PERIOD and KM_CFG_GENERAL_PATH (set only by kmcheck) have no protocol bit:
	 * clients see the rest. */
	uint16_t flags = k->flags & (KM_CFG_KERNEL | KM_CFG_USER | KM_CFG_CALLCHAIN);
	*p = (struct proto_pmu_config){ .config_id = k->id, .unit = k->unit, .flags = flags,
					.slice = k->slice, .n_groups = (uint16_t)k->n_groups,
					.chain_depth = flags & KM_CFG_CALLCHAIN ? (uint16_t)k->chain_depth : 0 };
	for (uint32_t g = 0; g < k->n_groups; g++) {
		const struct km_group_config *kg = &k->group[g];
		struct proto_group *pg = &p->groups[g];
		pg->name = (struct proto_str){ kg->name, (uint16_t)strlen(kg->name) };
		pg->share = (uint16_t)kg->share;
		pg->n_events = (uint16_t)kg->n_events;
		for (uint32_t e = 0; e < kg->n_events; e++) {
			const char *name = kg->event[e] < target.n_events ? target.events[kg->event[e]].name : "?";
			pg->events[e] = (struct proto_group_event){ { name, (uint16_t)strlen(name) },
								    kg->threshold[e] };
		}
	}
}

static struct km_config kcfg;

void monitor_config_get(struct client *c, uint32_t req)
{
	struct proto_pmu_config p;
	if (km_config_get(&kcfg) < 0)
		memset(&kcfg, 0, sizeof kcfg);
	encode_applied(&kcfg, &p);
	int n = proto_encode_pmu_config(out, sizeof out, req, 0, &p);
	if (n > 0)
		client_queue(c, out, (size_t)n);
	else
		client_error(c, req, PROTO_CONFIG_GET, PROTO_E_INTERNAL, "cannot encode the configuration");
}

void monitor_pmu_config(struct client *c, const struct proto_frame *f)
{
	static struct proto_pmu_config p;
	proto_decode_pmu_config(f, &p);
	if (p.config_id != 0) {
		/* The server numbers configurations; a client's number would pose as one of them. */
		char why[120];
		snprintf(why, sizeof why, "config_id must be 0 from a client (got %u): the server numbers "
			 "the configurations it applies", (unsigned)p.config_id);
		client_error(c, f->req, f->type, PROTO_E_CONFIG, why);
		return;
	}
	memset(&kcfg, 0, sizeof kcfg);
	kcfg.n_groups = p.n_groups;
	kcfg.unit = p.unit;
	kcfg.flags = p.flags;
	kcfg.slice = p.slice;
	kcfg.chain_depth = p.chain_depth;
	char why[300];
	for (uint32_t g = 0; g < p.n_groups; g++) {
		const struct proto_group *pg = &p.groups[g];
		struct km_group_config *kg = &kcfg.group[g];
		if (pg->n_events > KM_MAX_GROUP_EVENTS || pg->name.len >= KM_GROUP_NAME) {
			client_error(c, f->req, f->type, PROTO_E_CONFIG, "group name or event count too large");
			return;
		}
		memcpy(kg->name, pg->name.s, pg->name.len);
		kg->share = pg->share;
		kg->n_events = pg->n_events;
		for (uint32_t e = 0; e < pg->n_events; e++) {
			const struct proto_str *name = &pg->events[e].name;
			int found = -1;
			for (uint32_t i = 0; i < target.n_events && found < 0; i++)
				if (strlen(target.events[i].name) == name->len &&
				    strncmp(target.events[i].name, name->s, name->len) == 0)
					found = (int)i;
			if (found < 0) {
				snprintf(why, sizeof why, "group %.*s: no event named %.*s in the catalogue",
					 (int)pg->name.len, pg->name.s, (int)name->len, name->s);
				client_error(c, f->req, f->type, PROTO_E_CONFIG, why);
				return;
			}
			kg->event[e] = (uint16_t)found;
			kg->threshold[e] = pg->events[e].threshold;
		}
	}
	why[0] = 0;
	long id = km_configure(&kcfg, why, sizeof why);
	if (id < 0) {
		client_error(c, f->req, f->type, PROTO_E_CONFIG, why[0] ? why : "the KM refused it");
		return;
	}
	monitor.config_id = (uint32_t)id;
	if (!p.n_groups)
		monitor.streams = 0;   /* cleared: nothing runs */
	km_config_get(&kcfg);
	struct proto_pmu_config applied;
	encode_applied(&kcfg, &applied);
	int n = proto_encode_pmu_config(out, sizeof out, f->req, 0, &applied);
	if (n <= 0) {
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "cannot encode the configuration");
		return;
	}
	client_queue(c, out, (size_t)n);
	proto_frame_set_flags(out, 0);
	out[8] = out[9] = out[10] = out[11] = 0;   /* request id 0: pushed to the others */
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *o = &dcid.clients[i];
		if (o->used && o != c && o->role != PROTO_ROLE_NONE && !o->closing)
			client_queue(o, out, (size_t)n);
	}
	printf("dcid: configuration %ld applied (%u groups) by client %u\n", id,
	       (unsigned)p.n_groups, c->id);
	clients_push_status();
}

#define SUPPORTED_STREAMS PROTO_STREAM_ALL

void monitor_start(struct client *c, const struct proto_frame *f)
{
	struct proto_start s;
	proto_decode_start(f, &s);
	/* Lock statistics alone need no PMU configuration. */
	bool pmu = s.streams & (PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS);
	if (pmu && km_control(KM_CTL_START) < 0) {
		client_error(c, f->req, f->type, PROTO_E_CONFIG, "no configuration: send PMU_CONFIG first");
		return;
	}
	monitor.streams = s.streams & SUPPORTED_STREAMS;
	monitor.interval_us = s.interval_us ? s.interval_us : 100000;
	monitor.interval_tb = timebase_now();
	n_then = km_locks(locks_then, LOCKS_MAX);   /* the first interval starts now */
	if (n_then < 0)
		n_then = 0;
	if (monitor.streams & PROTO_STREAM_INVOCATIONS)
		inv_begin(monitor.interval_tb);
	monitor.next_interval_ns = clock_ns() + (uint64_t)monitor.interval_us * 1000;
	int n = proto_encode_empty(out, sizeof out, PROTO_OK, f->req, 0);
	client_queue(c, out, (size_t)n);
	printf("dcid: monitoring started (streams 0x%x, interval %u us) by client %u\n",
	       (unsigned)monitor.streams, (unsigned)monitor.interval_us, c->id);
	clients_push_status();
}

void monitor_stop(struct client *c, const struct proto_frame *f)
{
	if (monitor.streams) {
		km_control(KM_CTL_STOP);
		monitor.next_interval_ns = 0;
		monitor_poll(clock_ns());   /* what the last interval counted */
		monitor.streams = 0;
		printf("dcid: monitoring stopped by client %u\n", c->id);
	}
	int n = proto_encode_empty(out, sizeof out, PROTO_OK, f->req, 0);
	client_queue(c, out, (size_t)n);
	clients_push_status();
}

void monitor_instrument(struct client *c, const struct proto_frame *f)
{
	struct proto_instrument m;
	proto_decode_instrument(f, &m);
	uint64_t base = coid_of(m.pid, 0);
	if (m.coid && (m.coid < base + 16 || (m.coid - base) % 16 || (m.coid - base) / 16 > 0xFFFFFFFEull)) {
		client_error(c, f->req, f->type, PROTO_E_NOT_FOUND, "no such object in that process's space");
		return;
	}
	uint32_t index = m.coid ? (uint32_t)((m.coid - base) / 16) : 0xFFFFFFFFu;
	long rc = km_instrument(m.pid, index, m.on, m.what);
	if (rc < 0) {
		char why[160];
		snprintf(why, sizeof why, "%s", rc == -KOV_ESRCH ? "no such process" :
			 rc == -KOV_ENOENT ? "no such live object" :
			 rc == -KOV_ENODEV ? "that process has no clustered-object runtime" :
			 rc == -KOV_ETIMEDOUT ? "that process's runtime did not answer in time" :
			 rc == -KOV_ENOSYS ? "the kernel has no monitored mutexes: use full lock counting (what 3)" :
			 "the KM refused it");
		client_error(c, f->req, f->type,
			     rc == -KOV_ESRCH || rc == -KOV_ENOENT ? PROTO_E_NOT_FOUND : PROTO_E_UNAVAILABLE, why);
		return;
	}
	if (m.what == PROTO_INSTR_INVOCATIONS && !m.on)
		inv_forget(&inv, m.pid, index);
	if (m.what == PROTO_INSTR_INVOCATIONS && m.on)
		inv_counting_on(&inv, m.pid, index);
	printf("dcid: %s %s for pid %u %s by client %u\n",
	       m.what == PROTO_INSTR_SLEEPLOCKS ? "sleep-lock figures" :
	       m.what == PROTO_INSTR_LOCKS_FULL ? "full lock counting" : "invocation counting",
	       m.on ? "on" : "off", (unsigned)m.pid, m.coid ? "(one object)" : "(all objects)", c->id);
	int n = proto_encode_empty(out, sizeof out, PROTO_OK, f->req, 0);
	client_queue(c, out, (size_t)n);
}

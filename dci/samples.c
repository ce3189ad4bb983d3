/* SAMPLES to clients before 1.4, SAMPLES_CHAINED to 1.4 to 1.7 ones and SAMPLES_PACKED to
 * later ones (both after the CHAINS they name):
 * each sample's rep mapped to its object's COID and generation through the object map, its
 * call chain interned (chains.h). Drained from the KM every turn of the daemon's loop. */
#include "monitor.h"
#include <km.h>
#include "chains.h"
#include "subscribers.h"

#define SAMPLE_BATCH 2048
/* Batches drained per turn of the daemon's loop, and the time they may take: samples arriving
 * as fast as they are drained must not keep the loop from its sockets (clients' requests, STOP
 * among them). What is left waits in the rings for the next turn, or is lost there, counted. */
#define BATCHES_PER_TURN 16
#define DRAIN_BUDGET_US 2000
/* Where the CPUs take turns, a batch is sized to take about this long at the rate the last
 * ones were handled, since the budget is looked at only between batches: a request that comes
 * meanwhile (a ping, a STOP) waits for the batch, and with the daemon's CPU running a quarter
 * of the time 2,048 samples took tens of milliseconds of the machine's clock. On the parallel
 * machine batches stay whole: sized so, they cost a third of the loss-free rate (26,730
 * samples/s against 38,264), each KM call's fixed cost spread over fewer samples. */
#define BATCH_TARGET_US 500
#define BATCH_MIN 64

static struct km_sample samples[SAMPLE_BATCH];
static struct km_frame frames[SAMPLE_BATCH][KM_MAX_CHAIN];   /* samples[i]'s call chain */
static uint32_t chain_index[SAMPLE_BATCH];                   /* its entry in chains.c */
static uint8_t out_chained[PROTO_MAX_FRAME];

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
		const struct rep_entry *e = f[i].object ? objmap_find(user ? s->pid : 0, f[i].object) : 0;
		if (e) {
			p->flags |= PROTO_FRAME_OBJECT;
			p->coid = e->coid;
			p->gen = e->gen;
		}
	}
	return c.depth ? chains_intern(&c, index) : 0;
}

/* The CHAINS a frame of samples names: sent before it to each client that lacks some. */
struct chains_wanted { const uint32_t *index; uint32_t n, config_id; };

static bool send_chains(struct client *cl, void *ctx)
{
	const struct chains_wanted *w = ctx;
	return chains_send(cl, w->index, w->n, w->config_id);
}

/* A sample encoding that names chains, and the clients that take it. */
struct chained_encoding {
	uint16_t type;
	struct audience who;
	int (*begin)(struct proto_builder *b, void *buf, size_t cap, uint32_t req, uint16_t flags,
		     const struct proto_samples_head *h);
	int (*add)(struct proto_builder *b, const struct proto_sample *r);
};

static const struct chained_encoding packed = {
	PROTO_SAMPLES_PACKED, AUDIENCE_FROM(8), proto_begin_samples_packed, proto_add_sample_packed,
};
static const struct chained_encoding chained_1_4 = {
	PROTO_SAMPLES_CHAINED, AUDIENCE_RANGE(4, 8), proto_begin_samples_chained,
	proto_add_sample_chained,
};

/* Frames of encoding e to its clients, each after the CHAINS it names that the client lacks. */
static void push_chained(const struct chained_encoding *e, long n, const struct proto_sample *p)
{
	struct proto_builder b;
	struct proto_samples_head h = { monitor.config_id };
	long first = 0;
	e->begin(&b, out_chained, sizeof out_chained, 0, 0, &h);
	for (long i = 0; i <= n; i++) {
		int rc = 0;
		if (i < n) {
			rc = e->add(&b, &p[i]);
			if (rc != -PROTO_E_NOSPACE && rc != -PROTO_E_TOO_BIG)
				continue;
		}
		uint32_t k = proto_builder_count(&b);
		size_t len = (size_t)proto_finish(&b);
		struct chains_wanted w = { chain_index + first, (uint32_t)(i - first), h.config_id };
		if (k)
			subscribers_push_each(e->who, out_chained, len, e->type, k, send_chains, &w);
		if (i == n)
			break;
		first = i;
		e->begin(&b, out_chained, sizeof out_chained, 0, 0, &h);
		i--;   /* the sample that did not fit starts the next frame */
	}
}

static void push_samples(long n)
{
	/* Map first: a rep no scan has seen yet triggers one rescan (rate-limited). What was found
	 * is kept for the encoding below, unless the rescan replaced the map. */
	static const struct rep_entry *found[SAMPLE_BATCH];
	bool unknown = false, fresh = false;
	long mapped = 0;
	for (; mapped < n && !fresh; mapped++) {
		const struct km_sample *s = &samples[mapped];
		uint32_t space = s->flags & KM_SMP_USER ? s->pid : 0;
		found[mapped] = s->flags & KM_SMP_NO_OBJECT ? 0 : objmap_find(space, s->object);
		if (!(s->flags & KM_SMP_NO_OBJECT) && !found[mapped]) {
			unknown = true;
			fresh = !objmap_missed(space, s->object);
		}
	}
	if (unknown && objmap_refresh(fresh))
		mapped = 0;
	static struct proto_sample wire[SAMPLE_BATCH];
	bool chained = subscribers_any(AUDIENCE_FROM(4));
	bool plain = subscribers_any(AUDIENCE_BELOW(4));   /* encoded only for a client that takes it */
	if (chained)
		chains_reserve((uint32_t)n);
	struct proto_builder b;
	struct proto_samples_head h = { monitor.config_id };
	proto_begin_samples(&b, monitor_out, sizeof monitor_out, 0, 0, &h);
	for (long i = 0; i < n; i++) {
		const struct km_sample *s = &samples[i];
		/* Field by field: the record's 128-byte inline chain is never sent from here
		 * (depth 0), so it is neither cleared nor copied. */
		struct proto_sample *p = &wire[i];
		p->timebase = s->timebase;
		p->pc = s->pc;
		p->coid = 0;
		p->gen = 0;
		p->pid = s->pid;
		p->tid = s->tid;
		p->cpu = s->cpu;
		p->event = s->event;
		p->flags = s->flags & (PROTO_SMP_KERNEL | PROTO_SMP_USER | PROTO_SMP_TRUNCATED |
				       PROTO_SMP_UNCERTAIN | PROTO_SMP_NO_OBJECT);
		p->depth = 0;
		p->period = s->period;
		chain_index[i] = 0;
		p->chain_id = chained ? chain_of(s, frames[i], &chain_index[i], &p->flags) : 0;
		if (!(p->flags & PROTO_SMP_NO_OBJECT)) {
			const struct rep_entry *e = i < mapped ? found[i] :
				objmap_find(s->flags & KM_SMP_USER ? s->pid : 0, s->object);
			if (e) {
				p->coid = e->coid;
				p->gen = e->gen;
				p->flags |= (uint16_t)(e->slot << PROTO_REP_SHIFT);
			} else {
				/* The object is gone (or not scanned yet): say so, never guess. */
				p->flags |= PROTO_SMP_NO_OBJECT | PROTO_SMP_UNCERTAIN;
				monitor.unresolved++;
				objmap_note_missed(s->flags & KM_SMP_USER ? s->pid : 0, s->object);
			}
		}
		if (!plain)
			continue;
		int rc = proto_add_sample(&b, p);
		if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
			uint32_t k = proto_builder_count(&b);
			subscribers_push(AUDIENCE_BELOW(4), monitor_out, (size_t)proto_finish(&b), PROTO_SAMPLES, k);
			proto_begin_samples(&b, monitor_out, sizeof monitor_out, 0, 0, &h);
			proto_add_sample(&b, p);
		}
	}
	uint32_t k = proto_builder_count(&b);
	if (k)
		subscribers_push(AUDIENCE_BELOW(4), monitor_out, (size_t)proto_finish(&b), PROTO_SAMPLES, k);
	if (subscribers_any(packed.who))
		push_chained(&packed, n, wire);
	if (subscribers_any(chained_1_4.who))
		push_chained(&chained_1_4, n, wire);
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

/* The next batch's size from how long the last full one took (ticks per sample, smoothed). */
static uint32_t next_batch(uint64_t ticks, long n)
{
	if (target_cpus_run() != PROTO_CPUS_TAKE_TURNS)
		return SAMPLE_BATCH;
	static uint64_t per_sample_x16;
	uint64_t now = ticks * 16 / (uint64_t)n;
	per_sample_x16 = per_sample_x16 ? (per_sample_x16 * 3 + now) / 4 : now;
	uint64_t target_ticks = target.info.timebase_hz / 1000000 * BATCH_TARGET_US;
	uint64_t b = per_sample_x16 ? target_ticks * 16 / per_sample_x16 : SAMPLE_BATCH;
	return b < BATCH_MIN ? BATCH_MIN : b > SAMPLE_BATCH ? SAMPLE_BATCH : (uint32_t)b;
}

void samples_drain(void)
{
	static uint32_t batch = SAMPLE_BATCH;
	long n = 0;
	monitor.backlog = false;
	uint64_t start = timebase_now(), until = start + target.info.timebase_hz / 1000000 * DRAIN_BUDGET_US;
	for (int b = 0; b < BATCHES_PER_TURN && (n = km_samples_chains(samples, batch, &frames[0][0])) > 0;
	     b++) {
		bool full = (uint32_t)n == batch;
		tally_periods(n);
		if ((monitor.streams & PROTO_STREAM_SAMPLES) && subscribers_connected())
			push_samples(n);
		else
			monitor.samples_discarded += (uint64_t)n;   /* drained so the rings stay free */
		uint64_t now = timebase_now();
		if (full)   /* a part batch says how much there was, not how fast it goes */
			batch = next_batch(now - start, n);
		start = now;
		monitor.backlog = full;
		if (!full || now >= until)   /* the rings were empty, or the turn's time is up */
			break;
	}
}

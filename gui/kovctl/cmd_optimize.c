/* kovctl optimize: a run-time optimizer. Every interval it measures each object's spin-lock
 * wait as a share of the CPUs' time (the lock stream, summed per object as top --metric
 * spinlock does) and, where the object's calls are counted, its calls per second (the
 * invocation stream); the policy (client/optimizer.h) decides, and this command hot-swaps
 * (SWAP) and prints each decision with the figures behind it and how the swap went. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/optimizer.h"

#define CALLS_MAX KOV_OPT_OBJECTS_MAX

/* An object's calls in the interval. The daemon reports only objects that made calls, so an
 * object absent from a report made none if it was counted before: seen tells which. */
struct calls { uint32_t pid; uint64_t coid; uint64_t count; bool seen; };

struct run {
	struct kov_lock_table locks;
	struct kovctl_lock_rank lr;
	struct calls calls[CALLS_MAX];
	size_t n_calls;
	bool inv_frames;             /* an INVOCATIONS frame came in this interval, none dropped */
	bool lossy_locks;            /* lock reports of this interval were dropped */
	struct kov_optimizer opt;
	struct kov_opt_figures fig[KOV_OPT_OBJECTS_MAX];
	unsigned intervals, lock_intervals, lossy_intervals, decisions, swapped, not_swapped;
	struct kovctl_period whole;
	struct kov_losses losses;    /* over the whole run */
};

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static struct calls *calls_of(struct run *r, uint32_t pid, uint64_t coid, bool add)
{
	for (size_t i = 0; i < r->n_calls; i++)
		if (r->calls[i].pid == pid && r->calls[i].coid == coid)
			return &r->calls[i];
	if (!add || r->n_calls == CALLS_MAX)
		return NULL;
	r->calls[r->n_calls] = (struct calls){ pid, coid, 0, false };
	return &r->calls[r->n_calls++];
}

static void on_frame(void *arg, const struct proto_frame *f)
{
	struct run *r = arg;
	if (kov_lock_table_add(&r->locks, f) || f->type != PROTO_INVOCATIONS)
		return;
	struct proto_interval h;
	struct proto_iter it;
	struct proto_invocation v;
	if (proto_decode_invocations(f, &h, &it) < 0)
		return;
	r->inv_frames = true;
	while (proto_next_invocation(&it, &v)) {
		struct calls *c = calls_of(r, v.pid, v.coid, true);
		if (c) {
			c->count += v.count;
			c->seen = true;
		}
	}
}

static void interval_begin(struct run *r)
{
	memset(&r->locks, 0, sizeof r->locks);
	for (size_t i = 0; i < r->n_calls; i++)
		r->calls[i].count = 0;
	r->inv_frames = false;
}

static double object_wait(const struct run *r, const struct kov_scan_object *o)
{
	/* No report at all, or some dropped: no value, not "no contention" (a low wait could
	 * make a swap back). */
	if (!r->locks.frames || r->lossy_locks)
		return -1;
	uint32_t space = kov_object_space(o->pid, o->coid);
	for (size_t i = 0; i < r->lr.n; i++) {
		const struct kovctl_lock_row *w = &r->lr.rows[i];
		if (w->pid == space && w->coid == o->coid && w->gen == o->gen)
			return kovctl_lock_cpu_share(&r->lr, w->wait);
	}
	return 0;
}

/* The figures of every object of a class in a pair, a kernel object (the page manager) under
 * pid 0, where its counts and swaps name it. */
static size_t figures(struct run *r, const struct kov_scan *s, double seconds)
{
	size_t n = 0;
	for (size_t i = 0; i < s->n_objects && n < KOV_OPT_OBJECTS_MAX; i++) {
		const struct kov_scan_object *o = &s->objects[i];
		bool fine;
		if (!kov_opt_peer(&r->opt.p, o->class_name, &fine))
			continue;
		uint32_t pid = kov_object_space(o->pid, o->coid);
		struct calls *c = calls_of(r, pid, o->coid, false);
		double rate = r->inv_frames && c && c->seen ? (double)c->count / seconds : -1;
		r->fig[n++] = (struct kov_opt_figures){ pid, o->coid, o->class_name, object_wait(r, o),
							rate };
	}
	return n;
}

static void print_decision(struct kovctl *k, const struct kov_opt_decision *d, const struct run *r)
{
	char coid[32];
	kov_coid_str(d->coid, coid);
	const char *verb = d->action == KOV_OPT_SWAP ? "swap" : "swap back";
	if (k->o->json) {
		json_kv_str(&k->j, "event", "decision");
		json_kv_u64(&k->j, "interval", r->intervals);
		json_kv_str(&k->j, "action", d->action == KOV_OPT_SWAP ? "swap" : "swap_back");
		json_kv_u64(&k->j, "pid", d->pid);
		json_kv_coid(&k->j, "coid", d->coid);
		json_kv_str(&k->j, "class", d->from);
		json_kv_str(&k->j, "to", d->to);
		json_kv_u64(&k->j, "intervals", d->intervals);
		json_kv_double(&k->j, "wait_pct", d->wait);
		json_kv_double(&k->j, "limit_pct", d->limit);
		json_key(&k->j, "calls_per_s");
		d->rate >= 0 ? json_double(&k->j, d->rate) : json_null(&k->j);
		if (d->action == KOV_OPT_SWAP_BACK) {
			json_kv_double(&k->j, "swap_wait_pct", d->base_wait);
			json_kv_double(&k->j, "swap_calls_per_s", d->base_rate);
			json_kv_double(&k->j, "predicted_wait_pct", d->predicted);
		}
		json_kv_bool(&k->j, "dry_run", k->o->dry_run);
		return;
	}
	char rate[48] = "";
	if (d->rate >= 0)
		snprintf(rate, sizeof rate, ", %.0f calls/s", d->rate);
	if (d->action == KOV_OPT_SWAP)
		printf("pid %u %s %s: wait %.1f%% of CPU time for %u intervals (threshold %g%%)%s", d->pid,
		       d->from, coid, d->wait, d->intervals, d->limit, rate);
	else
		printf("pid %u %s %s: wait %.2f%% of CPU time for %u intervals (below %g%%)%s against "
		       "%.0f at the swap, when it waited %.1f%%: as a %s it would wait about %.2f%%",
		       d->pid, d->from, coid, d->wait, d->intervals, d->limit, rate, d->base_rate,
		       d->base_wait, d->to, d->predicted);
	printf(" -> %s%s to %s%s\n", k->o->dry_run ? "would " : "", verb, d->to,
	       k->o->dry_run ? " (dry run)" : "");
}

/* Carries out (or, dry, only reports) one decision: EXIT_OK, or the client's error. */
static int act(struct kovctl *k, struct run *r, const struct kov_opt_decision *d)
{
	if (k->o->json)
		json_begin_object(&k->j);
	print_decision(k, d, r);
	r->decisions++;
	struct kov_swapped s;
	bool ok = false;
	if (!k->o->dry_run) {
		if (kov_client_swap(k->c, d->pid, d->coid, d->to, &s))
			return kovctl_client_error(k);
		ok = s.m.result == PROTO_SWAP_OK;
		*(ok ? &r->swapped : &r->not_swapped) += 1;
		if (k->o->json) {
			json_key(&k->j, "swap");
			json_begin_object(&k->j);
		}
		kovctl_swapped_report(k, &s);
		if (k->o->json)
			json_end_object(&k->j);
	}
	if (k->o->json) {
		json_end_object(&k->j);
		json_end(&k->j);
	} else if (ok && d->action == KOV_OPT_SWAP && d->rate < 0) {
		printf("  its calls are not counted, so it will not be swapped back (kovctl instrument "
		       "--pid %u --coid 0x%llx on, before optimize)\n", d->pid, (unsigned long long)d->coid);
	}
	kov_opt_done(&r->opt, d, ok);
	return EXIT_OK;
}

/* One interval: measure, name, decide, act. */
static int interval(struct kovctl *k, struct run *r, double seconds)
{
	interval_begin(r);
	struct kovctl_period period;
	struct kov_losses lost;
	kovctl_period_begin(k, &period);
	int rc = kovctl_collect(k, seconds);
	if (!rc)
		rc = kovctl_period_end(k, &period, &lost);
	if (rc)
		return rc;
	/* What the daemon dropped would read as waits or calls that did not happen. */
	r->lossy_locks = lost.dropped[KOV_DROP_LOCKS] != 0;
	r->inv_frames &= !lost.dropped[KOV_DROP_INVOCATIONS];
	r->lossy_intervals += r->lossy_locks || lost.dropped[KOV_DROP_INVOCATIONS];
	r->intervals++;
	r->lock_intervals += r->locks.frames != 0;
	kovctl_rank_locks(k, &r->locks, PROTO_LOCK_SPIN, seconds, &r->lr);
	static struct kov_scan scan;
	if (kov_scan_collect(k->c, PROTO_PID_ALL, &scan) < 0)
		return kovctl_client_error(k);
	static struct kov_opt_decision d[KOV_OPT_OBJECTS_MAX];
	size_t n = kov_opt_step(&r->opt, r->fig, figures(r, &scan, seconds), d, KOV_OPT_OBJECTS_MAX);
	for (size_t i = 0; i < n && !rc; i++)
		rc = act(k, r, &d[i]);
	kov_scan_free(&scan);
	return rc;
}

static void print_head(struct kovctl *k, const struct kov_opt_params *p, double seconds)
{
	if (k->o->json)
		return;
	printf("optimize: every %.1f s, swap after %u intervals above %g%% of %u CPUs' time in spin-lock "
	       "wait, back after %u below %g%% with the coarse class predicted below it too; %u "
	       "intervals' cool-down; pairs", seconds, p->k, p->threshold,
	       kov_client_target(k->c)->cpus, p->k, p->threshold * p->back_pct / 100, p->cooldown);
	for (size_t i = 0; i < p->n_pairs; i++)
		printf("%s %s=%s", i ? "," : "", p->pairs[i].coarse, p->pairs[i].fine);
	printf("%s\n", k->o->dry_run ? "; dry run: nothing is swapped" : "");
	kovctl_machine_report(k);
	fflush(stdout);
}

static void print_end(struct kovctl *k, const struct run *r)
{
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "event", "end");
		json_kv_u64(&k->j, "intervals", r->intervals);
		json_kv_u64(&k->j, "intervals_with_lock_reports", r->lock_intervals);
		json_kv_u64(&k->j, "intervals_with_drops", r->lossy_intervals);
		json_kv_u64(&k->j, "decisions", r->decisions);
		json_kv_u64(&k->j, "swapped", r->swapped);
		json_kv_u64(&k->j, "not_swapped", r->not_swapped);
		json_kv_u64(&k->j, "objects_not_tracked", r->opt.not_tracked);
		json_kv_bool(&k->j, "dry_run", k->o->dry_run);
		kovctl_losses_report(k, &r->losses, false);
		json_end_object(&k->j);
		json_end(&k->j);
		return;
	}
	printf("optimize: %u intervals (%u with lock reports), %u decision%s, %u swapped, %u not swapped%s\n",
	       r->intervals, r->lock_intervals, r->decisions, r->decisions == 1 ? "" : "s", r->swapped,
	       r->not_swapped, k->o->dry_run ? " (dry run)" : "");
	if (r->lossy_intervals)
		printf("%u intervals had lock reports or call counts dropped: judged as having no figures\n",
		       r->lossy_intervals);
	kovctl_losses_report(k, &r->losses, false);
}

static int params(const struct kovctl_opts *o, struct kov_opt_params *p)
{
	char err[200];
	kov_opt_defaults(p);
	p->threshold = o->threshold;
	p->k = o->opt_k;
	p->cooldown = o->cooldown;
	p->back_pct = o->back_pct;
	if (o->pairs && kov_opt_parse_pairs(o->pairs, p, err, sizeof err) < 0) {
		fprintf(stderr, "kovctl: %s\n", err);   /* checked when parsed: not reached */
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_optimize(struct kovctl *k)
{
	static struct run r;
	memset(&r, 0, sizeof r);
	struct kov_opt_params p;
	int rc = params(k->o, &p);
	if (!rc && !k->o->dry_run)
		rc = kovctl_need_controller(k);
	struct proto_status st;
	bool stop_after = false;
	if (!rc)
		rc = kovctl_running(k, &st);
	/* Call counts come with the lock stream where this starts it: they are what can tell
	 * that a swapped object's demand has gone (swap back), and cost nothing for objects
	 * whose calls are not counted. */
	if (!rc)
		rc = kovctl_need_stream(k, &st, PROTO_STREAM_LOCKS, PROTO_STREAM_INVOCATIONS,
					"lock statistics", &stop_after);
	if (rc)
		return rc;
	kov_opt_init(&r.opt, &p);
	json_init(&k->j, stdout, false);   /* one decision per line */
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;   /* no SA_RESTART: the wait returns, and we finish cleanly */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	kov_client_on_push(k->c, on_frame, &r);
	double seconds = k->o->opt_interval;
	print_head(k, &p, seconds);
	kovctl_period_begin(k, &r.whole);
	uint64_t end = k->o->seconds > 0 ? kov_now_ns() + (uint64_t)(k->o->seconds * 1e9) : 0;
	while (!rc && !stop && (!end || kov_now_ns() < end))
		rc = interval(k, &r, seconds);
	kov_client_on_push(k->c, NULL, NULL);
	if (stop_after)
		kovctl_stop(k);
	if (!rc)
		rc = kovctl_period_end(k, &r.whole, &r.losses);
	if (rc)
		return rc;
	print_end(k, &r);
	if (!r.lock_intervals) {
		fprintf(stderr, "kovctl: no lock statistics arrived in %u intervals\n", r.intervals);
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

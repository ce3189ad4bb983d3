/* kovctl top: objects ranked by a metric, from the samples the target pushes. When nothing is
 * configured (and kovctl holds the controller token) it configures the events the metric
 * needs, runs for --seconds and stops again. Where this target's PMU cannot count what a
 * metric needs it says so and how the figure is derived instead, or refuses. Figures are
 * sample counts and shares, never samples x threshold: the KM randomizes each sample's period
 * around the threshold (docs/architecture.md) and the wire does not carry it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/objname.h"
#include "client/scan.h"
#include "client/symcache.h"
#include "client/lockstat.h"
#include "client/metrics.h"
#include "client/ranking.h"

#define MAX_OBJECTS 4096
#define MAX_PCS 65536
#define RENAME_NS 250000000ull  /* newly sampled objects are named by a scan this often at most */

struct obj_row {
	uint32_t pid, gen;
	uint64_t coid;
	int rep;                /* --by rep: the CPU whose rep ran (-1: the single rep, or all) */
	uint64_t samples;       /* of the metric's events */
	uint64_t hits;          /* of them, what the metric counts (spin-lock PCs) */
	uint64_t unclassified;  /* of them, samples whose PC could not be classified */
	uint64_t num, den;      /* a ratio: the events its numerator's and denominator's samples
	                           stood for (their periods) */
	struct kov_objname name; /* as the last scan that listed it said */
};

struct sampled_pc { uint32_t row; uint32_t space; uint64_t pc; };

struct top {
	struct kov_rank_plan plan;  /* what the metric samples */
	bool by_pc;             /* metric counts samples in spin-lock acquisition code */
	bool by_calls;          /* metric is the INVOCATIONS counts, not samples */
	bool by_ratio;          /* metric is a formula per object (ipc) */
	bool by_rep;            /* a row per rep (samples say which rep of a per-CPU object ran) */
	struct obj_row rows[MAX_OBJECTS];
	size_t n_rows;
	uint64_t total, no_object, other_config;
	uint64_t not_ranked;    /* samples (or calls) of objects beyond the MAX_OBJECTS rows */
	uint64_t pcs_not_kept;  /* samples beyond the MAX_PCS kept for classification */
	uint64_t lookup_failed; /* samples whose PC's symbol lookup failed */
	uint64_t no_period;     /* ratio samples that did not say their period (before 1.4) */
	struct kov_losses losses;   /* what the target lost, dropped or discarded meanwhile */
	uint32_t config_id;
	struct kovctl_modes modes;  /* the configuration's privilege filter, where samples come from */
	/* samples kept for the PC classification: (row, pid or kernel, pc) */
	struct sampled_pc pcs[MAX_PCS];
	size_t n_pcs;
	size_t named_rows;      /* rows that a scan has looked for */
	uint64_t named_ns;      /* when */
};

static struct obj_row *row_of(struct top *t, uint32_t pid, uint64_t coid, uint32_t gen, int rep,
			      size_t *idx)
{
	for (size_t i = 0; i < t->n_rows; i++)
		if (t->rows[i].pid == pid && t->rows[i].coid == coid && t->rows[i].gen == gen &&
		    t->rows[i].rep == rep) {
			*idx = i;
			return &t->rows[i];
		}
	if (t->n_rows == MAX_OBJECTS)
		return NULL;
	*idx = t->n_rows;
	t->rows[t->n_rows] = (struct obj_row){ pid, gen, coid, rep, 0, 0, 0, 0, 0,
					       { "", "", 0, false, false } };
	return &t->rows[t->n_rows++];
}

static void on_invocations(struct top *t, const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_invocation v;
	if (proto_decode_invocations(f, &h, &it) < 0)
		return;
	while (proto_next_invocation(&it, &v)) {
		size_t idx;
		struct obj_row *r = row_of(t, v.pid, v.coid, v.gen, -1, &idx);
		t->total += v.count;
		if (r)
			r->samples += v.count;
		else
			t->not_ranked += v.count;
	}
}

/* A ratio's sample counts the events it stood for on its side; one that does not say how
 * many (a target before protocol 1.4) is not weighed, and said. */
static void weigh(struct top *t, struct obj_row *r, int side, uint32_t period)
{
	if (!period) {
		t->no_period++;
		r->unclassified++;
		return;
	}
	*(side ? &r->den : &r->num) += period;
}

static void on_samples(void *arg, const struct proto_frame *f)
{
	struct top *t = arg;
	if (t->by_calls && f->type == PROTO_INVOCATIONS)
		on_invocations(t, f);
	if (!proto_is_samples(f->type) || t->by_calls)
		return;
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample s;
	if (proto_decode_any_samples(f, &h, &it) < 0)
		return;
	while (proto_next_any_sample(&it, &s)) {
		if (h.config_id != t->config_id) {
			t->other_config++;
			continue;
		}
		int side = kov_rank_side(&t->plan, s.event);
		if (side < 0)
			continue;
		t->total++;
		if (s.flags & PROTO_SMP_NO_OBJECT) {
			t->no_object++;
			continue;
		}
		/* Kernel objects belong to the kernel whatever thread ran them. */
		uint32_t pid = s.flags & PROTO_SMP_KERNEL ? 0 : s.pid;
		size_t idx;
		struct obj_row *r = row_of(t, pid, s.coid, s.gen, t->by_rep ? PROTO_REP_OF(s.flags) : -1, &idx);
		if (!r) {
			t->not_ranked++;
			continue;
		}
		r->samples++;
		if (t->by_ratio)
			weigh(t, r, side, s.period);
		else if (t->by_pc && t->n_pcs < MAX_PCS) {
			t->pcs[t->n_pcs++] = (struct sampled_pc){ (uint32_t)idx,
				s.flags & PROTO_SMP_KERNEL ? PROTO_PID_KERNEL : s.pid, s.pc };
		} else if (t->by_pc) {
			/* Not kept, so not classified: never counted as "not spin". */
			t->pcs_not_kept++;
			r->unclassified++;
		}
	}
}

static void classify_pcs(struct kovctl *k, struct top *t)
{
	struct kov_symcache *sc = kov_symcache_new();
	static uint64_t addrs[MAX_PCS];
	static struct kov_symbol syms[MAX_PCS];
	static bool done[MAX_PCS];
	memset(done, 0, sizeof done);
	for (size_t i = 0; i < t->n_pcs; i++) {
		if (done[i])
			continue;
		uint32_t space = t->pcs[i].space;
		size_t n = 0, idx[512];
		for (size_t j = i; j < t->n_pcs && n < 512; j++)
			if (!done[j] && t->pcs[j].space == space) {
				idx[n] = j;
				addrs[n++] = t->pcs[j].pc;
				done[j] = true;
			}
		if (kov_symcache_lookup(k->c, sc, space, addrs, n, syms) < 0) {
			/* Unknown, not "not spin": said in the report. */
			t->lookup_failed += n;
			for (size_t j = 0; j < n; j++)
				t->rows[t->pcs[idx[j]].row].unclassified++;
			continue;
		}
		for (size_t j = 0; j < n; j++)
			if (kov_is_spin_wait(syms[j].name, strlen(syms[j].name)))
				t->rows[t->pcs[idx[j]].row].hits++;
	}
	kov_symcache_free(sc);
}

/* Names every row from a fresh scan; rows gone since keep their last names. False when the
 * scan failed (the connection's error then shows at the next pump). */
static bool name_rows(struct kovctl *k, struct top *t)
{
	static struct kov_scan scan;
	if (kov_scan_collect(k->c, PROTO_PID_ALL, &scan))
		return false;
	/* Samples pushed while the scan was answered added rows: the scan covers them too. */
	for (size_t i = 0; i < t->n_rows; i++)
		kov_objname_update(&t->rows[i].name, &scan, t->rows[i].pid, t->rows[i].coid,
				   t->rows[i].gen);
	t->named_rows = t->n_rows;
	t->named_ns = kov_now_ns();
	kov_scan_free(&scan);
	return true;
}

/* Pumps for `seconds` like kovctl_collect, and scans when new objects were sampled (at most
 * every RENAME_NS), so objects that live for less than the run still get their class and
 * process: one scan at the end would miss every object gone by then. */
static int collect_named(struct kovctl *k, struct top *t, double seconds)
{
	uint64_t end = kov_now_ns() + (uint64_t)(seconds * 1e9);
	for (uint64_t now; (now = kov_now_ns()) < end;) {
		int ms = (int)((end - now) / 1000000) + 1;
		if (kov_client_pump(k->c, ms > 200 ? 200 : ms) < 0)
			return kovctl_client_error(k);
		if (t->n_rows > t->named_rows && kov_now_ns() - t->named_ns >= RENAME_NS)
			name_rows(k, t);
	}
	return EXIT_OK;
}

/* ---- the report ------------------------------------------------------------------------- */

/* What every row adds up to. */
struct top_sums { uint64_t hits, num, den, unclassified; bool incomplete; };

static void head_json(struct kovctl *k, struct top *t, const struct top_sums *s)
{
	json_begin_object(&k->j);
	json_kv_str(&k->j, "metric", t->plan.key);
	json_kv_str(&k->j, "method", t->plan.method);
	json_kv_u64(&k->j, "samples", t->total);
	json_kv_u64(&k->j, "no_object", t->no_object);
	json_kv_u64(&k->j, "metric_samples", s->hits);
	if (t->by_ratio) {
		double v;
		json_kv_u64(&k->j, "numerator_events", s->num);
		json_kv_u64(&k->j, "denominator_events", s->den);
		json_key(&k->j, t->plan.key);   /* null: no denominator counted */
		kov_rank_ratio(&t->plan, s->num, s->den, &v) ? json_double(&k->j, v) : json_null(&k->j);
		json_kv_u64(&k->j, "unclassified_no_period", t->no_period);
	}
	kovctl_losses_report(k, &t->losses, false);
	json_kv_u64(&k->j, "unclassified", s->unclassified);
	json_kv_u64(&k->j, "unclassified_not_kept", t->pcs_not_kept);
	json_kv_u64(&k->j, "unclassified_lookup_failed", t->lookup_failed);
	json_kv_u64(&k->j, "not_ranked", t->not_ranked);
	json_kv_bool(&k->j, "complete", !s->incomplete);
	if (!t->by_calls)
		kovctl_modes_report(k, &t->modes);
	json_key(&k->j, "objects");
	json_begin_array(&k->j);
}

/* The lines that say what the figures rest on and what they miss. */
static void head_text_counts(struct top *t, const struct top_sums *s)
{
	if (t->by_calls)
		printf("%llu calls counted\n", (unsigned long long)t->total);
	else
		printf("%llu samples, %llu without an object, %llu counted by the metric\n",
		       (unsigned long long)t->total, (unsigned long long)t->no_object,
		       (unsigned long long)s->hits);
	double v;
	if (t->by_ratio && kov_rank_ratio(&t->plan, s->num, s->den, &v))
		printf("all objects: %s %.3f (%llu %s / %llu %s)\n", t->plan.key, v,
		       (unsigned long long)s->num, t->plan.events[0], (unsigned long long)s->den,
		       t->plan.events[t->plan.n_num]);
	if (t->no_period)
		printf("%llu samples did not say their period (a target before protocol 1.4): not "
		       "weighed\n", (unsigned long long)t->no_period);
	if (t->pcs_not_kept + t->lookup_failed)
		printf("%llu samples could not be classified (%llu beyond the %d PCs kept, %llu whose "
		       "symbol lookup failed): counted neither in nor out of the wait loop\n",
		       (unsigned long long)(t->pcs_not_kept + t->lookup_failed),
		       (unsigned long long)t->pcs_not_kept, MAX_PCS, (unsigned long long)t->lookup_failed);
	if (t->not_ranked)
		printf("%llu %s of objects beyond the first %d are not ranked\n",
		       (unsigned long long)t->not_ranked, t->by_calls ? "calls" : "samples", MAX_OBJECTS);
}

static void head_text(struct kovctl *k, struct top *t, const struct top_sums *s)
{
	printf("metric %s: %s\n", t->plan.key, t->plan.method);
	head_text_counts(t, s);
	kovctl_losses_report(k, &t->losses, false);
	if (!t->by_calls)
		kovctl_modes_report(k, &t->modes);
	if (s->incomplete)
		printf("this ranking is built from an incomplete period: it misses what the lines "
		       "above count\n");
	const char *rep = t->by_rep ? "REP    " : "";
	if (t->by_ratio)
		printf("%-4s %8s %14s %14s %-20s %-18s %s%6s %s\n", "RANK", "VALUE", t->plan.events[0],
		       t->plan.events[t->plan.n_num], "CLASS", "OBJECT", rep, "PID", "PROCESS");
	else
		printf("%-4s %7s %8s %8s %6s %-20s %-18s %s%6s %s\n", "RANK", "SHARE", "METRIC",
		       t->by_pc ? "CLASSIF" : "SAMPLES", "OWN", "CLASS", "OBJECT", rep, "PID", "PROCESS");
}

/* A row's class, process and object as the last scan that listed it said. */
static void row_names_json(struct kovctl *k, const struct top *t, const struct obj_row *r,
			   const struct kov_top_row *row, const char *label)
{
	const struct kov_objname *nm = &r->name;
	json_key(&k->j, "class");          /* null: no scan listed it */
	nm->cls[0] ? json_str(&k->j, nm->cls) : json_null(&k->j);
	json_kv_str(&k->j, "label", label);
	json_kv_bool(&k->j, "gone", nm->gone || !nm->cls[0]);
	json_kv_u64(&k->j, "objects", row->objects);
	json_kv_coid(&k->j, "coid", r->coid);
	json_kv_u64(&k->j, "generation", r->gen);
	if (t->by_rep) {
		json_key(&k->j, "rep_cpu");   /* null: the object's single rep */
		r->rep >= 0 ? json_u64(&k->j, (uint64_t)r->rep) : json_null(&k->j);
	}
	json_kv_u64(&k->j, "pid", r->pid);
	json_key(&k->j, "process");
	nm->cls[0] ? json_str(&k->j, nm->proc) : json_null(&k->j);
	json_kv_u64(&k->j, "process_pid", nm->proc_pid);
	json_kv_bool(&k->j, "process_exited", nm->proc_gone);
}

/* The figures of a row: its share of what the metric counted and of its own samples (for
 * spinlock-samples: spent in a spin lock's wait loop), or a ratio's value and its events. */
static void row_figures(struct kovctl *k, const struct top *t, const struct kov_top_row *row,
			const struct top_sums *s, char *text, size_t n)
{
	if (t->by_ratio) {
		double v = 0;
		kov_rank_ratio(&t->plan, row->v[0], row->v[1], &v);
		if (k->o->json) {
			json_kv_double(&k->j, t->plan.key, v);
			json_kv_u64(&k->j, "numerator_events", row->v[0]);
			json_kv_u64(&k->j, "denominator_events", row->v[1]);
		}
		snprintf(text, n, "%8.3f %14llu %14llu", v, (unsigned long long)row->v[0],
			 (unsigned long long)row->v[1]);
		return;
	}
	double share = kov_share(row->v[0], s->hits), own = kov_share(row->v[0], row->v[1]);
	if (k->o->json) {
		json_kv_double(&k->j, "share", share);
		json_kv_u64(&k->j, "metric_samples", row->v[0]);
		json_kv_u64(&k->j, "samples", row->v[1]);
		json_kv_double(&k->j, "own_share", own);
	}
	snprintf(text, n, "%6.1f%% %8llu %8llu %5.1f%%", share, (unsigned long long)row->v[0],
		 (unsigned long long)row->v[1], own);
}

static void print_row(struct kovctl *k, const struct top *t, const struct kov_top_item *items,
		      const struct kov_top_row *row, size_t i, const struct top_sums *s)
{
	const struct obj_row *r = &t->rows[row->item];
	char cls[160], proc[160], object[24] = "-", pid[12] = "-", figures[64];
	kov_top_names(items, row, false, cls, sizeof cls, proc, sizeof proc);
	if (row->objects == 1)
		kov_coid_str(r->coid, object);
	if (row->objects == 1 && r->name.cls[0])
		snprintf(pid, sizeof pid, "%u", (unsigned)r->name.proc_pid);
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "rank", i + 1);
		row_figures(k, t, row, s, figures, sizeof figures);
		row_names_json(k, t, r, row, cls);
		json_end_object(&k->j);
		return;
	}
	row_figures(k, t, row, s, figures, sizeof figures);
	char rep[16] = "";
	if (t->by_rep)
		snprintf(rep, sizeof rep, r->rep >= 0 ? "cpu%-4d " : "single  ", r->rep);
	printf("%-4zu %s %-20s %-18s %s%6s %s\n", i + 1, figures, cls, object, rep, pid, proc);
}

/* Ranks the rows (gone objects of exited processes folded per class and program) and prints
 * them with their class and process as the last scan that listed each said. */
static int report(struct kovctl *k, struct top *t)
{
	static struct kov_top_item items[MAX_OBJECTS];
	static struct kov_top_row rows[MAX_OBJECTS];
	name_rows(k, t);
	struct top_sums s = { 0, 0, 0, t->pcs_not_kept + t->lookup_failed + t->no_period, false };
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct obj_row *r = &t->rows[i];
		s.hits += r->hits;
		s.num += r->num;
		s.den += r->den;
		/* OWN is over the samples the metric could judge: unclassified ones are neither. */
		items[i] = (struct kov_top_item){ &r->name, r->pid, { r->hits, r->samples - r->unclassified } };
		if (t->by_ratio)
			items[i] = (struct kov_top_item){ &r->name, r->pid, { r->num, r->den } };
	}
	/* Incomplete for what it ranks: samples the target produced that did not arrive (or
	 * calls whose reports were dropped), or that the ranking could not place. */
	s.incomplete = (t->by_calls ? t->losses.dropped[KOV_DROP_INVOCATIONS] != 0 :
			kov_losses_missing_samples(&t->losses) != 0) || s.unclassified || t->not_ranked;
	size_t n_rows = kov_top_fold(items, t->n_rows, rows);
	kov_rank_sort(&t->plan, rows, n_rows);
	unsigned limit = k->o->top_n ? k->o->top_n : 10;
	k->o->json ? head_json(k, t, &s) : head_text(k, t, &s);
	/* Rows that counted nothing (a ratio: without a denominator) are not ranked. */
	for (size_t i = 0; i < n_rows && i < limit && rows[i].v[t->by_ratio ? 1 : 0]; i++)
		print_row(k, t, items, &rows[i], i, &s);
	kovctl_json_end(k, true);
	if (!t->total) {
		fprintf(stderr, "kovctl: no %s arrived in %.1f s\n", t->by_calls ?
			"invocation counts (is counting on? kovctl instrument)" : "samples",
			k->o->seconds > 0 ? k->o->seconds : 5);
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

/* ---- the command ------------------------------------------------------------------------ */

/* Plans the metric on this target: EXIT_USAGE for one that is neither a key nor an event of
 * its catalogue, EXIT_TARGET where what it needs cannot sample here. */
static int plan(struct kovctl *k, struct top *t)
{
	size_t n;
	const struct kov_event *cat = kov_client_catalogue(k->c, &n);
	char why[512];
	enum kov_rank_status st = kov_rank_plan(k->o->metric, cat, n, &t->plan, why, sizeof why);
	if (st == KOV_RANK_UNKNOWN) {
		fprintf(stderr, "kovctl: unknown metric '%s': ", k->o->metric);
		for (size_t i = 0; kov_rank_at(i); i++)
			fprintf(stderr, "%s, ", kov_rank_at(i)->key);
		fprintf(stderr, "or an event name (kovctl events)\n");
		return EXIT_USAGE;
	}
	if (st == KOV_RANK_CANNOT) {
		fprintf(stderr, "kovctl: %s\n", why);
		return EXIT_TARGET;
	}
	const struct kov_rank_metric *m = t->plan.m;
	t->by_pc = m && m->kind == KOV_RANK_SPIN_SAMPLES;
	t->by_calls = m && m->kind == KOV_RANK_CALLS;
	t->by_ratio = m && m->kind == KOV_RANK_RATIO;
	return EXIT_OK;
}

/* Nothing configured: sets up the metric's events. A configuration someone set, running or
 * not, is theirs: used when it samples what the metric needs (a ratio: all of it), never
 * replaced. */
static int sampling_config(struct kovctl *k, const struct top *t, struct proto_status *st)
{
	const struct kov_rank_plan *p = &t->plan;
	int rc;
	if (!st->config_id) {
		if (kov_client_target(k->c)->role != PROTO_ROLE_CONTROLLER) {
			fprintf(stderr, "kovctl: nothing is configured on the target, and configuring "
				"needs the controller token (--token)\n");
			return EXIT_NOT_CONTROLLER;
		}
		struct proto_pmu_config cfg = { .unit = PROTO_UNIT_MICROSECONDS, .slice = 10000,
						.flags = PROTO_CFG_KERNEL | PROTO_CFG_USER, .n_groups = 1 };
		cfg.groups[0].name = proto_cstr("top");
		cfg.groups[0].share = 100;
		cfg.groups[0].n_events = (uint16_t)p->n;
		for (int i = 0; i < p->n; i++)
			cfg.groups[0].events[i] = (struct proto_group_event){ proto_cstr(p->events[i]),
									       p->threshold[i] };
		if ((rc = kovctl_configure(k, &cfg, true)))
			return rc;
		return kovctl_running(k, st);
	}
	uint32_t id;
	int sampled;
	if ((rc = kovctl_config_samples(k, p->events, p->n, &id, &sampled)))
		return rc;
	if (t->by_ratio ? sampled < p->n : !sampled) {
		fprintf(stderr, "kovctl: configuration %u (%s) samples %s%s%s%s: top uses the "
			"configuration in effect, it does not replace it; configure one that samples "
			"it (kovctl configure FILE)\n", (unsigned)id,
			st->streams ? "running" : "set, not started", t->by_ratio ? "not both " : "no ",
			p->events[0], p->n > 1 ? (t->by_ratio ? " and " : " nor ") : "",
			p->n > 1 ? p->events[1] : "");
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

/* Pumps for --seconds (the stream started, stopped after when stop_after) and reports. */
static int run(struct kovctl *k, struct top *t, bool stop_after)
{
	kov_client_on_push(k->c, on_samples, t);
	struct kovctl_period period;
	kovctl_period_begin(k, &period);
	int rc = collect_named(k, t, k->o->seconds > 0 ? k->o->seconds : 5);
	if (stop_after)
		kovctl_stop(k);
	if (!rc)
		rc = kovctl_period_end(k, &period, &t->losses);
	if (rc)
		return rc;
	if (t->by_pc)
		classify_pcs(k, t);
	else
		for (size_t i = 0; i < t->n_rows; i++)
			t->rows[i].hits = t->rows[i].samples;
	return report(k, t);
}

int cmd_top(struct kovctl *k)
{
	static struct top t;
	memset(&t, 0, sizeof t);
	int rc = plan(k, &t);
	if (rc)
		return rc;
	struct proto_status st;
	if ((rc = kovctl_running(k, &st)))
		return rc;
	const struct kov_rank_metric *m = t.plan.m;
	bool locks = m && m->kind == KOV_RANK_LOCK_WAIT;
	t.by_rep = k->o->by_rep;
	if (t.by_rep && (locks || t.by_calls)) {
		fprintf(stderr, "kovctl: --by rep ranks samples (lock waits and invocation counts are "
			"per object: kovctl lockstat shows each lock's rep)\n");
		return EXIT_USAGE;
	}
	if (locks)
		return kovctl_top_locks(k, m->lock_kind, t.plan.method);
	bool stop_after;
	if (t.by_calls) {
		if ((rc = kovctl_need_stream(k, &st, PROTO_STREAM_INVOCATIONS, 0, "invocation counts",
					     &stop_after)))
			return rc;
		return run(k, &t, stop_after);
	}
	if ((rc = sampling_config(k, &t, &st)))
		return rc;
	if ((rc = kovctl_need_stream(k, &st, PROTO_STREAM_SAMPLES, PROTO_STREAM_COUNTS, "samples",
				     &stop_after)))
		return rc;
	t.config_id = st.config_id;
	if ((rc = kovctl_modes_check(k, &t.modes)))
		return rc;
	return run(k, &t, stop_after);
}

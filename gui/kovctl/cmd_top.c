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
	struct kov_objname name; /* as the last scan that listed it said */
};

struct sampled_pc { uint32_t row; uint32_t space; uint64_t pc; };

struct top {
	int events[3];          /* catalogue indices whose samples count, -1 unused */
	bool by_pc;             /* metric counts samples in spin-lock acquisition code */
	bool by_calls;          /* metric is the INVOCATIONS counts, not samples */
	bool by_rep;            /* a row per rep (samples say which rep of a per-CPU object ran) */
	uint16_t lock_kind;     /* metric is measured lock wait of this PROTO_LOCK_* kind */
	struct obj_row rows[MAX_OBJECTS];
	size_t n_rows;
	uint64_t total, no_object, other_config;
	uint64_t not_ranked;    /* samples (or calls) of objects beyond the MAX_OBJECTS rows */
	uint64_t pcs_not_kept;  /* samples beyond the MAX_PCS kept for classification */
	uint64_t lookup_failed; /* samples whose PC's symbol lookup failed */
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
	t->rows[t->n_rows] = (struct obj_row){ pid, gen, coid, rep, 0, 0, 0, { "", "", 0, false, false } };
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
		if (s.event != t->events[0] && s.event != t->events[1] && s.event != t->events[2])
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
		if (t->by_pc && t->n_pcs < MAX_PCS) {
			t->pcs[t->n_pcs++] = (struct sampled_pc){ (uint32_t)idx,
				s.flags & PROTO_SMP_KERNEL ? PROTO_PID_KERNEL : s.pid, s.pc };
		} else if (t->by_pc) {
			/* Not kept, so not classified: never counted as "not spin". */
			t->pcs_not_kept++;
			r->unclassified++;
		}
	}
}

static int find_event(struct kovctl *k, const char *name)
{
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n);
	return kov_find_event(ev, n, name);
}

static bool samples_here(struct kovctl *k, int i)
{
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n);
	return i >= 0 && (size_t)i < n && (ev[i].flags & PROTO_EV_SAMPLES_HERE);
}

static const char *why_not(struct kovctl *k, int i)
{
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n);
	return i >= 0 && (size_t)i < n && ev[i].why_not[0] ? ev[i].why_not : "not in the catalogue";
}

/* The events (and their thresholds) the metric samples, and how its figure is derived. */
static int plan_metric(struct kovctl *k, struct top *t, const char *m, const char **ev_names,
		       uint64_t *thr, int *n, const char **method)
{
	*n = 0;
	t->events[0] = t->events[1] = t->events[2] = -1;
	if (!strcmp(m, "spinlock") || !strcmp(m, "lockwait")) {
		t->lock_kind = !strcmp(m, "spinlock") ? PROTO_LOCK_SPIN : PROTO_LOCK_SLEEP;
		*method = t->lock_kind == PROTO_LOCK_SPIN ?
			"measured spin-lock wait: timebase from the failed first try to the acquisition, "
			"on every contended acquisition of every spin lock (lock statistics)" :
			"measured sleep-lock wait: timebase from the failed first try to the acquisition, "
			"on every contended acquisition of every sleep lock (lock statistics)";
		return EXIT_OK;
	} else if (!strcmp(m, "spinlock-samples")) {
		ev_names[(*n)++] = "PM_INST_CMPL";
		thr[0] = 100003;
		t->by_pc = true;
		*method = "second opinion: instruction-overflow samples whose PC is in a spin lock's wait "
			  "loop (spin_lock_contended); acquisitions themselves never count. Under QEMU a "
			  "waiting CPU yields at its 'or 1,1,1', so this undercounts waiting";
	} else if (!strcmp(m, "tlbmiss")) {
		if (samples_here(k, find_event(k, "PM_DTLB_MISS"))) {
			ev_names[(*n)++] = "PM_DTLB_MISS";
			thr[0] = 100000;
			*method = "data TLB miss samples";
		} else {
			ev_names[(*n)++] = "SW_HPT_MISS";
			ev_names[(*n)++] = "SW_SLB_MISS";
			thr[0] = thr[1] = 1;
			*method = "software-handled MMU misses (SW_HPT_MISS, SW_SLB_MISS): the hardware "
				  "TLB miss event does not count here";
		}
	} else if (!strcmp(m, "branchmiss") || !strcmp(m, "lockacq") || !strcmp(m, "ipc")) {
		const char *need = !strcmp(m, "branchmiss") ? "PM_BR_MPRED_CR" :
				   !strcmp(m, "lockacq") ? "PM_STCX_PASS" : "PM_CYC";
		int i = find_event(k, need);
		if (!samples_here(k, i)) {
			fprintf(stderr, "kovctl: per-object %s needs samples of %s, and here %s: %s%s\n",
				m, need, need, why_not(k, i),
				!strcmp(m, "ipc") ? " (kovctl counts shows the system's IPC)" : "");
			return EXIT_TARGET;
		}
		ev_names[(*n)++] = need;
		thr[0] = 100000;
		*method = !strcmp(m, "ipc") ? "cycle samples" :
			  !strcmp(m, "lockacq") ? "samples of PM_STCX_PASS: every successful stwcx./stdcx. "
			  "counts, lock acquisitions and every other atomic update (counters, epochs) "
			  "alike, so this ranks atomic updates, not only lock acquisitions" :
			  "samples of PM_BR_MPRED_CR (branch direction mispredictions)";
	} else if (!strcmp(m, "invocations")) {
		t->by_calls = true;
		*method = "method calls counted by the DREF hook (objects with invocation counting on: "
			  "kovctl instrument)";
		return EXIT_OK;
	} else {
		int i = find_event(k, m);
		if (i < 0) {
			fprintf(stderr, "kovctl: unknown metric '%s': spinlock, lockacq, branchmiss, tlbmiss, "
				"ipc, invocations or an event name (kovctl events)\n", m);
			return EXIT_USAGE;
		}
		size_t nev;
		const struct kov_event *ev = kov_client_catalogue(k->c, &nev);
		ev_names[(*n)++] = ev[i].name;
		thr[0] = ev[i].source == PROTO_SRC_SW ? 10 : 100003;
		*method = "samples of the event";
	}
	for (int j = 0; j < *n; j++)
		t->events[j] = find_event(k, ev_names[j]);
	return EXIT_OK;
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

static int report(struct kovctl *k, struct top *t, const char *method);
static int top_locks(struct kovctl *k, struct top *t, const char *method);

int cmd_top(struct kovctl *k)
{
	static struct top t;
	memset(&t, 0, sizeof t);
	const char *ev_names[3];
	uint64_t thr[3] = { 0, 0, 0 };
	int n_ev;
	const char *method;
	int rc = plan_metric(k, &t, k->o->metric, ev_names, thr, &n_ev, &method);
	if (rc)
		return rc;
	struct proto_status st;
	if ((rc = kovctl_running(k, &st)))
		return rc;
	bool controller = kov_client_target(k->c)->role == PROTO_ROLE_CONTROLLER;
	t.by_rep = k->o->by_rep;
	if (t.by_rep && (t.lock_kind || t.by_calls)) {
		fprintf(stderr, "kovctl: --by rep ranks samples (lock waits and invocation counts are "
			"per object: kovctl lockstat shows each lock's rep)\n");
		return EXIT_USAGE;
	}
	if (t.lock_kind)
		return top_locks(k, &t, method);
	bool stop_after;
	if (t.by_calls) {
		if ((rc = kovctl_need_stream(k, &st, PROTO_STREAM_INVOCATIONS, 0, "invocation counts",
					     &stop_after)))
			return rc;
		kov_client_on_push(k->c, on_samples, &t);
		struct kovctl_period period;
		kovctl_period_begin(k, &period);
		rc = collect_named(k, &t, k->o->seconds > 0 ? k->o->seconds : 5);
		if (stop_after)
			kovctl_stop(k);
		if (!rc)
			rc = kovctl_period_end(k, &period, &t.losses);
		if (rc)
			return rc;
		for (size_t i = 0; i < t.n_rows; i++)
			t.rows[i].hits = t.rows[i].samples;
		return report(k, &t, method);
	}
	/* Nothing configured: set up the metric's. A configuration someone set, running or
	 * not, is theirs: used when it samples what the metric needs, never replaced. */
	if (!st.config_id) {
		if (!controller) {
			fprintf(stderr, "kovctl: nothing is configured on the target, and configuring "
				"needs the controller token (--token)\n");
			return EXIT_NOT_CONTROLLER;
		}
		struct proto_pmu_config cfg = { .unit = PROTO_UNIT_MICROSECONDS, .slice = 10000,
						.flags = PROTO_CFG_KERNEL | PROTO_CFG_USER, .n_groups = 1 };
		cfg.groups[0].name = proto_cstr("top");
		cfg.groups[0].share = 100;
		cfg.groups[0].n_events = (uint16_t)n_ev;
		for (int i = 0; i < n_ev; i++)
			cfg.groups[0].events[i] = (struct proto_group_event){ proto_cstr(ev_names[i]), thr[i] };
		if ((rc = kovctl_configure(k, &cfg, true)))
			return rc;
		if ((rc = kovctl_running(k, &st)))
			return rc;
	} else {
		uint32_t id;
		int sampled;
		if ((rc = kovctl_config_samples(k, ev_names, n_ev, &id, &sampled)))
			return rc;
		if (!sampled) {
			fprintf(stderr, "kovctl: configuration %u (%s) samples no %s%s%s: top uses the "
				"configuration in effect, it does not replace it; configure one that samples "
				"it (kovctl configure FILE)\n", (unsigned)id,
				st.streams ? "running" : "set, not started", ev_names[0],
				n_ev > 1 ? " nor " : "", n_ev > 1 ? ev_names[1] : "");
			return EXIT_TARGET;
		}
	}
	if ((rc = kovctl_need_stream(k, &st, PROTO_STREAM_SAMPLES, PROTO_STREAM_COUNTS, "samples",
				     &stop_after)))
		return rc;
	t.config_id = st.config_id;
	if ((rc = kovctl_modes_check(k, &t.modes)))
		return rc;
	kov_client_on_push(k->c, on_samples, &t);
	struct kovctl_period period;
	kovctl_period_begin(k, &period);
	rc = collect_named(k, &t, k->o->seconds > 0 ? k->o->seconds : 5);
	if (stop_after)
		kovctl_stop(k);
	if (!rc)
		rc = kovctl_period_end(k, &period, &t.losses);
	if (rc)
		return rc;
	if (t.by_pc)
		classify_pcs(k, &t);
	else
		for (size_t i = 0; i < t.n_rows; i++)
			t.rows[i].hits = t.rows[i].samples;
	return report(k, &t, method);
}

/* Ranks the rows (gone objects of exited processes folded per class and program) and prints
 * them with their class and process as the last scan that listed each said. */
static int report(struct kovctl *k, struct top *t, const char *method)
{
	static struct kov_top_item items[MAX_OBJECTS];
	static struct kov_top_row rows[MAX_OBJECTS];
	name_rows(k, t);
	uint64_t hits_total = 0;
	for (size_t i = 0; i < t->n_rows; i++) {
		const struct obj_row *r = &t->rows[i];
		hits_total += r->hits;
		/* OWN is over the samples the metric could judge: unclassified ones are neither. */
		items[i] = (struct kov_top_item){ &r->name, r->pid, { r->hits, r->samples - r->unclassified } };
	}
	uint64_t unclassified = t->pcs_not_kept + t->lookup_failed;
	/* Incomplete for what it ranks: samples the target produced that did not arrive (or
	 * calls whose reports were dropped), or that the ranking could not place. */
	bool incomplete = (t->by_calls ? t->losses.dropped[KOV_DROP_INVOCATIONS] != 0 :
			   kov_losses_missing_samples(&t->losses) != 0) || unclassified || t->not_ranked;
	size_t n_rows = kov_top_fold(items, t->n_rows, rows);
	kov_top_sort(rows, n_rows);
	unsigned limit = k->o->top_n ? k->o->top_n : 10;
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "metric", k->o->metric);
		json_kv_str(&k->j, "method", method);
		json_kv_u64(&k->j, "samples", t->total);
		json_kv_u64(&k->j, "no_object", t->no_object);
		json_kv_u64(&k->j, "metric_samples", hits_total);
		kovctl_losses_report(k, &t->losses, false);
		json_kv_u64(&k->j, "unclassified", unclassified);
		json_kv_u64(&k->j, "unclassified_not_kept", t->pcs_not_kept);
		json_kv_u64(&k->j, "unclassified_lookup_failed", t->lookup_failed);
		json_kv_u64(&k->j, "not_ranked", t->not_ranked);
		json_kv_bool(&k->j, "complete", !incomplete);
		if (!t->by_calls)
			kovctl_modes_report(k, &t->modes);
		json_key(&k->j, "objects");
		json_begin_array(&k->j);
	} else {
		printf("metric %s: %s\n", k->o->metric, method);
		if (t->by_calls)
			printf("%llu calls counted\n", (unsigned long long)t->total);
		else
			printf("%llu samples, %llu without an object, %llu counted by the metric\n",
			       (unsigned long long)t->total, (unsigned long long)t->no_object,
			       (unsigned long long)hits_total);
		if (unclassified)
			printf("%llu samples could not be classified (%llu beyond the %d PCs kept, %llu whose "
			       "symbol lookup failed): counted neither in nor out of the wait loop\n",
			       (unsigned long long)unclassified, (unsigned long long)t->pcs_not_kept, MAX_PCS,
			       (unsigned long long)t->lookup_failed);
		if (t->not_ranked)
			printf("%llu %s of objects beyond the first %d are not ranked\n",
			       (unsigned long long)t->not_ranked, t->by_calls ? "calls" : "samples", MAX_OBJECTS);
		kovctl_losses_report(k, &t->losses, false);
		if (!t->by_calls)
			kovctl_modes_report(k, &t->modes);
		if (incomplete)
			printf("this ranking is built from an incomplete period: it misses what the lines "
			       "above count\n");
		printf("%-4s %7s %8s %8s %6s %-20s %-18s %s%6s %s\n", "RANK", "SHARE", "METRIC",
		       t->by_pc ? "CLASSIF" : "SAMPLES", "OWN", "CLASS", "OBJECT",
		       t->by_rep ? "REP    " : "", "PID", "PROCESS");
	}
	for (size_t i = 0; i < n_rows && i < limit; i++) {
		const struct kov_top_row *row = &rows[i];
		const struct obj_row *r = &t->rows[row->item];
		const struct kov_objname *nm = &r->name;
		if (!row->v[0])
			break;
		char cls[160], proc[160], object[24] = "-", pid[12] = "-";
		kov_top_names(items, row, false, cls, sizeof cls, proc, sizeof proc);
		if (row->objects == 1)
			kov_coid_str(r->coid, object);
		if (row->objects == 1 && nm->cls[0])
			snprintf(pid, sizeof pid, "%u", (unsigned)nm->proc_pid);
		double share = kov_share(row->v[0], hits_total);
		/* The share of the object's own samples the metric counts (for spinlock-samples:
		 * spent in a spin lock's wait loop). */
		double own = kov_share(row->v[0], row->v[1]);
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_u64(&k->j, "rank", i + 1);
			json_kv_double(&k->j, "share", share);
			json_kv_u64(&k->j, "metric_samples", row->v[0]);
			json_kv_u64(&k->j, "samples", row->v[1]);
			json_kv_double(&k->j, "own_share", own);
			json_key(&k->j, "class");          /* null: no scan listed it */
			nm->cls[0] ? json_str(&k->j, nm->cls) : json_null(&k->j);
			json_kv_str(&k->j, "label", cls);
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
			json_end_object(&k->j);
		} else {
			char rep[16] = "";
			if (t->by_rep)
				snprintf(rep, sizeof rep, r->rep >= 0 ? "cpu%-4d " : "single  ", r->rep);
			printf("%-4zu %6.1f%% %8llu %8llu %5.1f%% %-20s %-18s %s%6s %s\n", i + 1, share,
			       (unsigned long long)row->v[0], (unsigned long long)row->v[1], own, cls,
			       object, rep, pid, proc);
		}
	}
	kovctl_json_end(k, true);
	if (!t->total) {
		fprintf(stderr, "kovctl: no %s arrived in %.1f s\n", t->by_calls ?
			"invocation counts (is counting on? kovctl instrument)" : "samples",
			k->o->seconds > 0 ? k->o->seconds : 5);
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

/* ---- measured lock wait (spinlock, lockwait) -------------------------------------------- */

struct lock_row {
	uint32_t pid, gen;
	uint64_t coid;
	uint64_t lock;           /* the lock, for a lock that belongs to no object */
	uint64_t wait, contentions, acquisitions, locks;
	bool full;               /* every acquisition of every lock counted */
};

static int by_wait(const void *a, const void *b)
{
	const struct lock_row *x = a, *y = b;
	return x->wait != y->wait ? (x->wait < y->wait ? 1 : -1) :
	       x->contentions != y->contentions ? (x->contentions < y->contentions ? 1 : -1) : 0;
}

/* Objects ranked by the wait measured on their locks' contended acquisitions (locks that
 * belong to no object stand alone), with the figures behind each rank. */
static int top_locks(struct kovctl *k, struct top *t, const char *method)
{
	static struct kov_lock_table locks;
	static struct kovctl_names names;
	double seconds = k->o->seconds > 0 ? k->o->seconds : 5;
	kovctl_names_begin(k, &names);
	int rc = kovctl_collect_locks(k, &locks, seconds, &t->losses);
	if (rc)
		return rc;
	static struct lock_row rows[KOV_LOCKS_MAX];
	size_t n = 0;
	uint64_t total = 0, contentions = 0;
	for (size_t i = 0; i < locks.n; i++) {
		const struct proto_lock *l = &locks.locks[i];
		if (l->kind != t->lock_kind || !l->contentions)
			continue;
		size_t r = 0;
		while (r < n && !(rows[r].pid == l->pid && rows[r].coid == l->coid && rows[r].gen == l->gen &&
				  (l->coid || rows[r].lock == l->lock)))
			r++;
		if (r == n)
			rows[n++] = (struct lock_row){ l->pid, l->gen, l->coid, l->coid ? 0 : l->lock,
						       0, 0, 0, 0, true };
		rows[r].wait += l->wait_total;
		rows[r].contentions += l->contentions;
		rows[r].acquisitions += l->acquisitions;
		rows[r].locks++;
		rows[r].full &= (l->flags & PROTO_LOCK_FULL) != 0;
		total += l->wait_total;
		contentions += l->contentions;
	}
	qsort(rows, n, sizeof rows[0], by_wait);
	uint64_t hz = kov_client_target(k->c)->timebase_hz;
	unsigned cpus = kov_client_target(k->c)->cpus ? kov_client_target(k->c)->cpus : 1;
	/* The timebase span the reports cover (the run's length when they say nothing). */
	uint64_t ticks = locks.last > locks.first ? locks.last - locks.first : (uint64_t)(seconds * (double)hz);
	double span = hz ? (double)ticks / (double)hz : seconds;
	kovctl_names_get(k, &names);
	unsigned limit = k->o->top_n ? k->o->top_n : 10;
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "metric", k->o->metric);
		json_kv_str(&k->j, "method", method);
		json_kv_double(&k->j, "seconds", span);
		json_kv_u64(&k->j, "reports", locks.frames);
		json_kv_u64(&k->j, "wait_ticks", total);
		json_kv_u64(&k->j, "contentions", contentions);
		json_kv_u64(&k->j, "locks_not_kept", locks.not_kept);
		kovctl_machine_report(k);
		kovctl_losses_report(k, &t->losses, true);
		json_kv_bool(&k->j, "complete", !t->losses.dropped[KOV_DROP_LOCKS] && !locks.not_kept);
		json_key(&k->j, "objects");
		json_begin_array(&k->j);
	} else {
		printf("metric %s: %s\n", k->o->metric, method);
		printf("%.1f s, %llu contentions, %.1f us waited in all (%.2f%% of %u CPUs' time)%s\n", span,
		       (unsigned long long)contentions, hz ? (double)total * 1e6 / (double)hz : 0,
		       kov_cpu_share(total, ticks, cpus), cpus,
		       contentions == 0 ? ": no contention" : "");
		kovctl_machine_report(k);
		kovctl_losses_report(k, &t->losses, false);
		if (t->losses.dropped[KOV_DROP_LOCKS] || locks.not_kept)
			printf("this ranking is built from an incomplete period: %llu lock reports dropped, "
			       "%llu of locks beyond the %d kept\n",
			       (unsigned long long)t->losses.dropped[KOV_DROP_LOCKS],
			       (unsigned long long)locks.not_kept, KOV_LOCKS_MAX);
		printf("%-4s %7s %11s %9s %7s %-20s %-18s %6s %s\n", "RANK", "SHARE", "WAIT_US", "CONTENDED",
		       "CPU%", "CLASS", "OBJECT", "PID", "PROCESS");
	}
	for (size_t i = 0; i < n && i < limit; i++) {
		const struct lock_row *r = &rows[i];
		const char *cls, *proc;
		kovctl_owner(&names, r->pid, r->coid, r->gen, "(no object)", &cls, &proc);
		double share = kov_share(r->wait, total);
		double wait_us = hz ? (double)r->wait * 1e6 / (double)hz : 0;
		double cpu = kov_cpu_share(r->wait, ticks, cpus);
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_u64(&k->j, "rank", i + 1);
			json_kv_double(&k->j, "share", share);
			json_kv_u64(&k->j, "wait_ticks", r->wait);
			json_kv_double(&k->j, "wait_us", wait_us);
			json_kv_double(&k->j, "cpu_share", cpu);
			json_kv_u64(&k->j, "contentions", r->contentions);
			json_kv_u64(&k->j, "locks", r->locks);
			json_kv_str(&k->j, "class", cls);
			json_kv_coid(&k->j, "coid", r->coid);
			json_kv_u64(&k->j, "generation", r->gen);
			if (!r->coid)
				json_kv_hex(&k->j, "lock", r->lock);
			json_kv_u64(&k->j, "pid", r->pid);
			json_kv_str(&k->j, "process", proc);
			json_kv_str(&k->j, "confidence", r->contentions < 100 ? "low (fewer than 100 contentions)" : "ok");
			json_end_object(&k->j);
		} else {
			char obj[32];
			if (r->coid)
				kov_coid_str(r->coid, obj);
			else
				snprintf(obj, sizeof obj, "lock 0x%llx", (unsigned long long)r->lock);
			printf("%-4zu %6.1f%% %11.1f %9llu %6.2f%% %-20s %-18s %6u %s%s\n", i + 1, share, wait_us,
			       (unsigned long long)r->contentions, cpu, cls, obj, (unsigned)r->pid, proc,
			       r->contentions < 100 ? "  (few contentions: rough)" : "");
		}
	}
	kovctl_json_end(k, true);
	kovctl_names_free(&names);
	if (!locks.frames) {
		fprintf(stderr, "kovctl: no lock statistics arrived in %.1f s\n", seconds);
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

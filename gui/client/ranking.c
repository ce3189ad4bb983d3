/* The metrics objects are ranked by (gui/client/ranking.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/ranking.h"

static const struct kov_rank_metric table[] = {
	{ .key = "spinlock", .kind = KOV_RANK_LOCK_WAIT, .formula = -1, .lock_kind = PROTO_LOCK_SPIN,
	  .method = "measured spin-lock wait: timebase from the failed first try to the acquisition, "
		    "on every contended acquisition of every spin lock (lock statistics)" },
	{ .key = "lockwait", .kind = KOV_RANK_LOCK_WAIT, .formula = -1, .lock_kind = PROTO_LOCK_SLEEP,
	  .method = "measured sleep-lock wait: timebase from the failed first try to the acquisition, "
		    "on every contended acquisition of every sleep lock (lock statistics)" },
	{ .key = "spinlock-samples", .kind = KOV_RANK_SPIN_SAMPLES, .formula = -1,
	  .events = { "PM_INST_CMPL" }, .threshold = 100003,
	  .method = "second opinion: instruction-overflow samples whose PC is in a spin lock's wait "
		    "loop (spin_lock_contended); acquisitions themselves never count. Under QEMU a "
		    "waiting CPU yields at its 'or 1,1,1', so this undercounts waiting" },
	{ .key = "stcx", .alias = "lockacq", .kind = KOV_RANK_SAMPLES, .formula = KOV_METRIC_STCX,
	  .events = { "PM_STCX_PASS" }, .threshold = 100000, .required = true,
	  .method = "samples of PM_STCX_PASS: every successful stwcx./stdcx. counts, lock "
		    "acquisitions and every other atomic update (counters, epochs) alike, so this "
		    "ranks atomic updates, not only lock acquisitions" },
	{ .key = "branchmiss", .kind = KOV_RANK_SAMPLES, .formula = KOV_METRIC_BRANCH,
	  .events = { "PM_BR_MPRED_CR" }, .threshold = 100000, .required = true,
	  .method = "samples of PM_BR_MPRED_CR (branch direction mispredictions)" },
	{ .key = "mmu", .alias = "tlbmiss", .kind = KOV_RANK_SAMPLES, .formula = KOV_METRIC_MMU,
	  .events = { "SW_HPT_MISS", "SW_SLB_MISS" }, .threshold = 1,
	  .method = "software-handled MMU misses (SW_HPT_MISS, SW_SLB_MISS): the hardware TLB miss "
		    "event does not count here",
	  .prefer = "PM_DTLB_MISS", .prefer_threshold = 100000,
	  .prefer_method = "data TLB miss samples" },
	{ .key = "ipc", .kind = KOV_RANK_RATIO, .formula = KOV_METRIC_IPC, .threshold = 100000,
	  .required = true,
	  .method = "instructions per cycle of each object: the periods of its PM_INST_CMPL samples "
		    "over those of its PM_CYC samples (the events they stood for), highest first",
	  .refusal_note = " (kovctl counts shows the system's IPC)" },
	{ .key = "invocations", .kind = KOV_RANK_CALLS, .formula = -1,
	  .method = "method calls counted by the DREF hook (objects with invocation counting on: "
		    "kovctl instrument)" },
};
#define N_RANKS (sizeof table / sizeof table[0])

const struct kov_rank_metric *kov_rank_find(const char *key)
{
	for (size_t i = 0; i < N_RANKS; i++)
		if (!strcmp(key, table[i].key) || (table[i].alias && !strcmp(key, table[i].alias)))
			return &table[i];
	return NULL;
}

const struct kov_rank_metric *kov_rank_at(size_t i)
{
	return i < N_RANKS ? &table[i] : NULL;
}

static bool samples_here(const struct kov_event *cat, size_t n, int i)
{
	return i >= 0 && (size_t)i < n && (cat[i].flags & PROTO_EV_SAMPLES_HERE);
}

static void add_event(struct kov_rank_plan *p, const struct kov_event *cat, size_t n,
		      const char *name, uint64_t threshold)
{
	p->events[p->n] = name;
	p->threshold[p->n] = threshold;
	p->index[p->n++] = kov_find_event(cat, n, name);
}

/* A ratio samples its formula's events: the numerator's, then the denominator's. */
static void add_formula(struct kov_rank_plan *p, const struct kov_event *cat, size_t n)
{
	const struct kov_metric_def *d = kov_metric_def((enum kov_metric)p->m->formula);
	for (int k = 0; k < KOV_METRIC_EVENTS && d->num[k]; k++)
		add_event(p, cat, n, d->num[k], p->m->threshold);
	p->n_num = p->n;
	for (int k = 0; k < KOV_METRIC_EVENTS && d->den[k] && p->n < KOV_RANK_EVENTS; k++)
		add_event(p, cat, n, d->den[k], p->m->threshold);
}

static void plan_events(struct kov_rank_plan *p, const struct kov_event *cat, size_t n)
{
	const struct kov_rank_metric *m = p->m;
	p->method = m->method;
	if (m->kind == KOV_RANK_RATIO) {
		add_formula(p, cat, n);
	} else if (m->prefer && samples_here(cat, n, kov_find_event(cat, n, m->prefer))) {
		add_event(p, cat, n, m->prefer, m->prefer_threshold);
		p->method = m->prefer_method;
	} else {
		for (int k = 0; k < KOV_RANK_EVENTS && m->events[k]; k++)
			add_event(p, cat, n, m->events[k], m->threshold);
	}
	p->n_num = m->kind == KOV_RANK_RATIO ? p->n_num : p->n;
}

enum kov_rank_status kov_rank_plan(const char *key, const struct kov_event *cat, size_t n,
				   struct kov_rank_plan *p, char *why, size_t wn)
{
	memset(p, 0, sizeof *p);
	for (int k = 0; k < KOV_RANK_EVENTS; k++)
		p->index[k] = -1;
	if (wn)
		why[0] = 0;
	p->m = kov_rank_find(key);
	if (!p->m) {
		int i = kov_find_event(cat, n, key);
		if (i < 0)
			return KOV_RANK_UNKNOWN;
		p->key = key;
		add_event(p, cat, n, cat[i].name, cat[i].source == PROTO_SRC_SW ? 10 : 100003);
		p->n_num = 1;
		p->method = "samples of the event";
		return KOV_RANK_OK;
	}
	p->key = p->m->key;
	plan_events(p, cat, n);
	for (int k = 0; p->m->required && k < p->n; k++)
		if (!samples_here(cat, n, p->index[k])) {
			int i = p->index[k];
			snprintf(why, wn, "per-object %s needs samples of %s, and here %s: %s%s", p->key,
				 p->events[k], p->events[k], i >= 0 && (size_t)i < n && cat[i].why_not[0] ?
				 cat[i].why_not : "not in the catalogue",
				 p->m->refusal_note ? p->m->refusal_note : "");
			return KOV_RANK_CANNOT;
		}
	return KOV_RANK_OK;
}

int kov_rank_side(const struct kov_rank_plan *p, int ev)
{
	for (int k = 0; ev >= 0 && k < p->n; k++)
		if (p->index[k] == ev)
			return k < p->n_num ? 0 : 1;
	return -1;
}

bool kov_rank_ratio(const struct kov_rank_plan *p, uint64_t num, uint64_t den, double *v)
{
	if (!den || !p->m || p->m->formula < 0)
		return false;
	*v = kov_metric_def((enum kov_metric)p->m->formula)->factor * (double)num / (double)den;
	return true;
}

/* By v[0] / v[1] descending (compared as products: no division), rows without a
 * denominator last; then by the denominator, more first; then in the items' order. */
static int by_ratio(const void *a, const void *b)
{
	const struct kov_top_row *x = a, *y = b;
	if (!x->v[1] != !y->v[1])
		return x->v[1] ? -1 : 1;
	long double l = (long double)x->v[0] * y->v[1], r = (long double)y->v[0] * x->v[1];
	if (l != r)
		return l < r ? 1 : -1;
	if (x->v[1] != y->v[1])
		return x->v[1] < y->v[1] ? 1 : -1;
	return (x->item > y->item) - (x->item < y->item);
}

void kov_rank_sort(const struct kov_rank_plan *p, struct kov_top_row *rows, size_t n)
{
	if (p->m && p->m->kind == KOV_RANK_RATIO)
		qsort(rows, n, sizeof *rows, by_ratio);
	else
		kov_top_sort(rows, n);
}

/* The metrics objects are ranked by (kovctl top --metric KEY): one table of keys, each saying
 * what it samples or measures, at which threshold, and how an object's figure is derived.
 * Where a ranking rests on a formula of metrics.h its key is the formula's ("ipc", "mmu",
 * "branchmiss", "stcx") and its events are the formula's. docs/metrics.md describes them. */
#ifndef KOV_CLIENT_RANKING_H
#define KOV_CLIENT_RANKING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "client/metrics.h"
#include "client/objname.h"

enum kov_rank_kind {
	KOV_RANK_LOCK_WAIT,         /* measured wait on one kind of lock (lock statistics) */
	KOV_RANK_SPIN_SAMPLES,      /* samples whose PC is in a spin lock's wait loop */
	KOV_RANK_SAMPLES,           /* samples of the events */
	KOV_RANK_RATIO,             /* the formula per object: the events its numerator's samples
	                               stand for over those of its denominator's */
	KOV_RANK_CALLS,             /* method calls counted by the DREF hook */
};

#define KOV_RANK_EVENTS 3       /* events a ranking samples, at most */

struct kov_rank_metric {
	const char *key;
	const char *alias;          /* an older spelling still accepted (never printed), or NULL */
	enum kov_rank_kind kind;
	int formula;                /* the enum kov_metric it rests on, -1 none */
	uint16_t lock_kind;         /* LOCK_WAIT: PROTO_LOCK_SPIN or PROTO_LOCK_SLEEP */
	const char *events[KOV_RANK_EVENTS];   /* sampled (RATIO: the formula's, filled in) */
	uint64_t threshold;
	bool required;              /* refused where one of the events cannot sample here */
	const char *method;         /* how the figure is derived, for the report */
	const char *prefer;         /* sampled instead where it samples here (NULL: none), */
	uint64_t prefer_threshold;  /* at this threshold, */
	const char *prefer_method;  /* and so derived */
	const char *refusal_note;   /* added where it is refused */
};

/* The ranking called key (or its alias), or NULL. */
const struct kov_rank_metric *kov_rank_find(const char *key);
/* The i-th ranking of the table, NULL past its end (for listing every key). */
const struct kov_rank_metric *kov_rank_at(size_t i);

/* What a ranking samples on one target. */
struct kov_rank_plan {
	const struct kov_rank_metric *m;    /* NULL: the samples of one catalogue event */
	const char *key;                    /* as printed: m's key, or the event name asked for */
	const char *events[KOV_RANK_EVENTS];
	uint64_t threshold[KOV_RANK_EVENTS];
	int index[KOV_RANK_EVENTS];         /* catalogue indices, -1 unused */
	int n;
	int n_num;                          /* RATIO: events[0..n_num) are the numerator's */
	const char *method;
};
enum kov_rank_status { KOV_RANK_OK, KOV_RANK_UNKNOWN, KOV_RANK_CANNOT };
/* Plans ranking by key (a key, an alias, or an event of catalogue cat): UNKNOWN when it is
 * none of them; CANNOT when a required event cannot sample here (why: the event and the
 * catalogue's reason). */
enum kov_rank_status kov_rank_plan(const char *key, const struct kov_event *cat, size_t n,
				   struct kov_rank_plan *p, char *why, size_t wn);
/* Which of the plan's sides a sample of catalogue event ev counts on: 0 (the events ranked;
 * a ratio's numerator), 1 (a ratio's denominator), or -1 when the plan does not sample ev. */
int kov_rank_side(const struct kov_rank_plan *p, int ev);
/* A ratio's figure from the events its samples stood for: the formula's factor x num / den;
 * false when den is 0 (no value). */
bool kov_rank_ratio(const struct kov_rank_plan *p, uint64_t num, uint64_t den, double *v);
/* Ranks folded rows: a ratio by its figure from v[0] / v[1], highest first, rows without a
 * value last; any other kind by v[0], then v[1] (kov_top_sort). */
void kov_rank_sort(const struct kov_rank_plan *p, struct kov_top_row *rows, size_t n);

#endif

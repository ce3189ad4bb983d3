/* The run-time optimizer's policy (kovctl optimize): from each object's figures over one
 * interval (spin-lock wait as a share of the CPUs' time, calls per second) it decides which
 * objects to hot-swap to their distributed peer class, and which to swap back. Pure: no I/O,
 * no clock; the caller measures, swaps and tells the policy what happened (kov_opt_done).
 * docs/architecture.md ("Hot swapping", "The optimizer") gives the rules and their reasons. */
#ifndef KOV_CLIENT_OPTIMIZER_H
#define KOV_CLIENT_OPTIMIZER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KOV_OPT_CLASS_MAX 31        /* a class name's bytes (PROTO_CLASS_MAX) */
#define KOV_OPT_PAIRS_MAX 16
#define KOV_OPT_OBJECTS_MAX 1024

/* A coarse class and its distributed peer (same interface, same state format). */
struct kov_opt_pair { char coarse[KOV_OPT_CLASS_MAX + 1], fine[KOV_OPT_CLASS_MAX + 1]; };

struct kov_opt_params {
	double threshold;            /* swap above this wait, % of the CPUs' time */
	unsigned k;                  /* ... for this many consecutive intervals */
	unsigned cooldown;           /* intervals an object is left alone after a decision */
	double back_pct;             /* swap back below threshold x back_pct / 100 */
	struct kov_opt_pair pairs[KOV_OPT_PAIRS_MAX];
	size_t n_pairs;
};
#define KOV_OPT_THRESHOLD 5.0
#define KOV_OPT_K 3
#define KOV_OPT_COOLDOWN 5
#define KOV_OPT_BACK_PCT 25.0
/* The defaults above and the built-in pairs: Counter=DCounter, Warehouse=WarehouseFine,
 * PageViews=PageViewsPerCPU and the kernel's PM=PMPerCPU. */
void kov_opt_defaults(struct kov_opt_params *p);
/* Replaces p's pairs by "A=B,C=D" (A coarse, B distributed): 0, or -1 with why in err. */
int kov_opt_parse_pairs(const char *s, struct kov_opt_params *p, char *err, size_t n);
/* The peer of class cls: its distributed form (*to_fine true) or its coarse one; NULL when
 * cls is in no pair. */
const char *kov_opt_peer(const struct kov_opt_params *p, const char *cls, bool *to_fine);

/* One object over one interval. */
struct kov_opt_figures {
	uint32_t pid;
	uint64_t coid;
	const char *cls;             /* its class now */
	double wait;                 /* spin-lock wait, % of the CPUs' time; < 0: no value */
	double rate;                 /* calls per second; < 0: its calls are not counted */
};

/* What the policy remembers of one object. */
struct kov_opt_object {
	uint32_t pid;
	uint64_t coid;
	char cls[KOV_OPT_CLASS_MAX + 1];
	unsigned run;                /* consecutive intervals meeting the condition of its class */
	double run_wait, run_rate;   /* their sums */
	unsigned run_rates;          /* of them, intervals with a rate */
	unsigned cool;               /* intervals still to leave it alone */
	bool ours;                   /* swapped to its distributed class by this optimizer */
	double base_wait, base_rate; /* ours: the figures that made the swap (rate < 0: none) */
};

struct kov_optimizer {
	struct kov_opt_params p;
	struct kov_opt_object obj[KOV_OPT_OBJECTS_MAX];
	size_t n;
	uint64_t not_tracked;        /* figures of objects beyond KOV_OPT_OBJECTS_MAX */
};

enum kov_opt_action { KOV_OPT_SWAP, KOV_OPT_SWAP_BACK };
struct kov_opt_decision {
	enum kov_opt_action action;
	uint32_t pid;
	uint64_t coid;
	char from[KOV_OPT_CLASS_MAX + 1], to[KOV_OPT_CLASS_MAX + 1];
	unsigned intervals;          /* the run behind it (k) */
	double wait;                 /* mean wait over the run, % of the CPUs' time */
	double rate;                 /* mean calls per second over the run; < 0: not counted */
	double limit;                /* swap: the threshold; back: threshold x back_pct / 100 */
	double base_wait, base_rate; /* back: the figures that made the swap */
	double predicted;            /* back: the coarse class's wait predicted at `rate` */
};

void kov_opt_init(struct kov_optimizer *o, const struct kov_opt_params *p);
/* One interval's figures (one per object of a class in a pair; an object absent from them
 * is not judged in this interval): the decisions it leads to, at most max, in out. */
size_t kov_opt_step(struct kov_optimizer *o, const struct kov_opt_figures *f, size_t n,
		    struct kov_opt_decision *out, size_t max);
/* What became of decision d: swapped (the object is now of class d->to) or not (refused,
 * failed, or a dry run). Either way the cool-down starts. */
void kov_opt_done(struct kov_optimizer *o, const struct kov_opt_decision *d, bool swapped);

#endif

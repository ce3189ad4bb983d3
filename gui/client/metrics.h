/* Derived metrics, each computed in this one place for kovctl and the viewer: ratios of
 * interval counts (IPC, MMU misses per 1000 instructions, branch mispredictions, store-
 * conditional success), figures of the lock statistics per report interval (measured spin
 * wait, first-try acquisitions), shares, the classification of spin-lock code and the
 * catalogue look-up. docs/metrics.md says what each figure means and where it comes from.
 *
 * Ratios of counts follow one rule. Multiplexed events are counted only while their group is
 * on the PMU, so a numerator and a denominator mean something together only over the same
 * time: the counts of groups that hold every event of the metric are paired (raw with raw);
 * where no group holds them all, each event is scaled to the whole interval (its raw counts
 * over all its groups x enabled / its running time over them) and the scaled counts are
 * divided. A metric with an event that was not counted at all has no value. */
#ifndef KOV_CLIENT_METRICS_H
#define KOV_CLIENT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "client/client.h"

/* The catalogue index of the event called name (case does not matter), or -1. */
int kov_find_event(const struct kov_event *cat, size_t n, const char *name);

/* ---- interval counts --------------------------------------------------------------------- */

/* Counts per (group, event), summed over CPUs and over every interval added. */
#define KOV_COUNT_CELLS 1024
struct kov_count_cell { uint16_t group, event; uint64_t raw, enabled, running; };
struct kov_counts {
	struct kov_count_cell cell[KOV_COUNT_CELLS];
	size_t n;
	uint64_t not_kept;          /* records of (group, event) pairs beyond the cells */
};
void kov_counts_clear(struct kov_counts *c);
void kov_counts_add(struct kov_counts *c, const struct proto_count *r);
/* Adds every record of an INTERVAL_COUNTS frame; false for another type or a bad frame. */
bool kov_counts_add_frame(struct kov_counts *c, const struct proto_frame *f,
			  struct proto_counts_head *h);

enum kov_metric {
	KOV_METRIC_IPC,             /* PM_INST_CMPL / PM_CYC */
	KOV_METRIC_MMU,             /* (SW_HPT_MISS + SW_SLB_MISS) x 1000 / PM_INST_CMPL */
	KOV_METRIC_BRANCH,          /* (PM_BR_MPRED_CR + PM_BR_MPRED_TA) x 100 / PM_BR_ISSUED */
	KOV_METRIC_STCX,            /* PM_STCX_PASS x 100 / (PM_STCX_PASS + PM_STCX_FAIL) */
	KOV_METRICS
};
#define KOV_METRIC_EVENTS 2     /* events summed into a numerator or a denominator, at most */
struct kov_metric_def {
	const char *key;            /* "ipc", "mmu", "branchmiss", "stcx" */
	const char *title, *unit;
	double factor;
	const char *num[KOV_METRIC_EVENTS], *den[KOV_METRIC_EVENTS];   /* NULL: unused */
	const char *method;         /* how it is derived, for labels */
};
const struct kov_metric_def *kov_metric_def(enum kov_metric m);

/* The catalogue indices of every metric's events (-1 where the catalogue lacks one). */
struct kov_metric_set { int num[KOV_METRICS][KOV_METRIC_EVENTS], den[KOV_METRICS][KOV_METRIC_EVENTS]; };
void kov_metric_set_init(struct kov_metric_set *s, const struct kov_event *cat, size_t n);
/* Whether this target counts every event of m; otherwise why not ("PM_BR_MPRED_CR: ..."). */
bool kov_metric_countable(const struct kov_metric_set *s, enum kov_metric m,
			  const struct kov_event *cat, size_t n, char *why, size_t wn);

enum kov_pairing { KOV_NOT_COUNTED, KOV_SAME_GROUP, KOV_SCALED };
struct kov_ratio {
	enum kov_pairing how;
	double value;               /* factor x numerator / denominator; 0 when not counted */
	double num, den;            /* the counts divided */
};
struct kov_ratio kov_metric_compute(const struct kov_metric_set *s, enum kov_metric m,
				    const struct kov_counts *c);
const char *kov_pairing_name(enum kov_pairing how);   /* "same group", "scaled", "not counted" */

/* Whether this target's cycles are emulated (QEMU: virtual time at 1 GHz, so IPC is
 * instructions per virtual nanosecond): the PMU backend is QEMU's ISA 2.07 one, the model
 * says QEMU, or the cycle event's catalogue entry says emulated or virtual. */
bool kov_cycles_emulated(const struct kov_target *d, const struct kov_event *cat, size_t n);
/* A metric's title; IPC's says when its cycles are emulated. */
const char *kov_metric_title(enum kov_metric m, bool emulated);
/* The IPC label to show: "instructions per cycle" or, emulated, "instructions per emulated
 * cycle (QEMU: virtual ns at 1 GHz)". */
const char *kov_ipc_label(bool emulated);

/* ---- lock statistics per report interval ------------------------------------------------ */

/* What every lock record of one report interval adds up to (a report may span frames). */
struct kov_lock_interval {
	uint64_t start, end;        /* timebase */
	uint64_t wait[3], contentions[3];   /* by PROTO_LOCK_SPIN / _SLEEP */
	uint64_t full_acquisitions, full_contentions;   /* of records with PROTO_LOCK_FULL */
	uint64_t records;
};
struct kov_lock_meter {
	struct kov_lock_interval cur;
	bool open;                  /* cur holds frames of an interval not yet handed out */
};
/* Adds a LOCK_CONTENTION or LOCK_STATS frame. A frame of a later interval completes the one
 * before: it is copied to *done and true returned. Frames of other types are ignored. */
bool kov_lock_meter_add(struct kov_lock_meter *m, const struct proto_frame *f,
			struct kov_lock_interval *done);
/* Hands out the interval being summed (at the end of a run): false when there is none. */
bool kov_lock_meter_flush(struct kov_lock_meter *m, struct kov_lock_interval *done);

/* Measured wait of one kind as a percentage of the CPUs' time over the interval
 * (kov_wait_share of its wait ticks): -1 for an empty interval. */
double kov_lock_wait_share(const struct kov_lock_interval *iv, uint16_t kind, unsigned cpus);
/* The same as milliseconds waited per second (summed over CPUs); -1 for an empty interval. */
double kov_lock_wait_ms_per_s(const struct kov_lock_interval *iv, uint16_t kind);
/* First-try acquisitions / all acquisitions of the fully counted locks, in percent: false
 * when no fully counted lock was acquired (only contended acquisitions are counted then). */
bool kov_lock_first_try(const struct kov_lock_interval *iv, double *pct);

/* ---- shares, time and code -------------------------------------------------------------- */

/* 100 x part / whole; 0 when whole is 0. */
double kov_share(uint64_t part, uint64_t whole);
/* The one spin-wait (and sleep-wait) share: ticks waited as a percentage of cpus CPUs' time
 * over span ticks, 100 x ticks / (span x cpus). -1, no value, when span or cpus is 0: an
 * empty interval is a gap, never a 0 (an interval without contention is a 0). */
double kov_wait_share(uint64_t ticks, uint64_t span, unsigned cpus);
/* Timebase ticks as seconds at timebase_hz (the target's description); 0 when it is 0. */
double kov_ticks_to_s(uint64_t ticks, uint64_t timebase_hz);
/* Whether a symbol (len bytes, not terminated) is a spin lock's wait loop
 * (spin_lock_contended, kernel and libc-instr): samples there are waiting; the acquisition
 * code (spin_lock, spin_trylock) runs on every uncontended acquisition too and is not. */
bool kov_is_spin_wait(const char *name, size_t len);

#endif

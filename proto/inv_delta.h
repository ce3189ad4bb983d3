/* Invocation counts per report interval for the DCI daemon's INVOCATIONS (portable: the target
 * and the host unit tests). The KM's counts are cumulative since counting was turned on for an
 * object, so the daemon reports each counted object's calls since a baseline: the counts at
 * START, then those of the last report.
 *
 * A report must never turn into totals since counting began, whatever failed:
 *  - no memory for a baseline (at START or later): the old baseline stays, and the next report
 *    spans both intervals (its start says so); with no baseline at all the next scan only
 *    sets one (nothing is reported for that interval, counted in skipped_reports);
 *  - an object that has no baseline although it was counted when the baseline was taken (its
 *    process's runtime did not answer that scan, or the scan was truncated): reported from the
 *    next interval on, not with everything it counted before (counted in skipped_objects);
 *  - a process silent in a later scan keeps its objects' baselines until it answers again.
 * An object without a baseline in a space the baseline covered, or whose counting was turned
 * on since (inv_counting_on), began counting in the interval: all its calls are reported. */
#ifndef KOV_INV_DELTA_H
#define KOV_INV_DELTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "kernel/abi/scan.h"

struct inv_entry { uint32_t space, index, gen; uint64_t calls; };

#define INV_FRESH_MAX 64
struct inv_baseline {
	struct inv_entry *e;             /* counted objects' calls when it was taken */
	uint32_t n;
	uint32_t *spaces;                /* user spaces whose runtime answered that scan */
	uint32_t n_spaces;
	bool kernel;                     /* every kernel object was in it (scan not truncated) */
	bool based;                      /* false: no baseline, the next scan sets one */
	uint64_t since;                  /* its timebase: the start of the next report */
	struct { uint32_t space, index; } fresh[INV_FRESH_MAX];  /* counting turned on since */
	uint32_t n_fresh;
	bool fresh_all;                  /* more than INV_FRESH_MAX: every object counts as fresh */
	uint64_t skipped_reports, skipped_objects;
};

/* A scan as the daemon took it. */
struct inv_scan {
	const struct scan_record *objs;
	uint32_t n;
	bool truncated;                  /* the KM found more objects than it wrote */
	bool (*alive)(void *ctx, uint32_t pid);   /* the process exists now */
	void *ctx;
};

/* The allocator (malloc and free in dcid; tests make it fail). */
struct inv_mem {
	void *(*alloc)(size_t bytes);
	void (*free)(void *p);
};

/* Drops the baseline (START, or the end of monitoring). */
void inv_reset(struct inv_baseline *b, const struct inv_mem *m);
/* The baseline at START from scan s taken at timebase tb; false when out of memory (then
 * there is none, and the next inv_report only sets it). */
bool inv_start(struct inv_baseline *b, const struct inv_scan *s, uint64_t tb, const struct inv_mem *m);
/* Counting turned on for index in space (0xFFFFFFFF: every object of it): such objects start
 * from 0, so without a baseline their calls are all new. */
void inv_counting_on(struct inv_baseline *b, uint32_t space, uint32_t index);
/* Counting turned off: their counts start again at 0 when it comes back on, so the old
 * baseline must not be subtracted from them. */
void inv_forget(struct inv_baseline *b, uint32_t space, uint32_t index);

enum inv_outcome {
	INV_REPORTED,        /* emit was called for every object with calls; baseline moved on */
	INV_BASELINE_ONLY,   /* there was no baseline: this scan set it, nothing reported */
	INV_NO_MEMORY,       /* nothing reported; the baseline is kept, the next report spans both */
};
/* The interval ending at `end` from scan s: emit(arg, space, entry with calls = the calls in
 * the interval) for each counted object that made calls, the interval's start in *start. */
enum inv_outcome inv_report(struct inv_baseline *b, const struct inv_scan *s, uint64_t end,
			    uint64_t *start, const struct inv_mem *m,
			    void (*emit)(void *arg, const struct inv_entry *calls), void *arg);

#endif

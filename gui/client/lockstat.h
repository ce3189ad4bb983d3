/* Lock statistics on the host: reading LOCK_CONTENTION (or a 1.1 target's LOCK_STATS) frames,
 * summing one lock's reports over time, and a table of every lock seen (kovctl lockstat and
 * top, the viewer's lock view). */
#ifndef KOV_CLIENT_LOCKSTAT_H
#define KOV_CLIENT_LOCKSTAT_H

#include <stdbool.h>
#include "proto/proto.h"

/* Decodes either lock frame type; < 0 for any other type or a bad frame. */
int kov_lock_decode(const struct proto_frame *f, struct proto_interval *h, struct proto_iter *it);
/* The next record of a frame kov_lock_decode accepted. */
bool kov_lock_next(const struct proto_frame *f, struct proto_iter *it, struct proto_lock *l);

/* A sum that starts empty for the lock a report names (its identity and kind kept). */
void kov_lock_start(struct proto_lock *sum, const struct proto_lock *first);
/* Adds one interval's report: totals add up, maxima are the largest seen, the minimum the
 * smallest, call sites merge (those beyond the slots go to other_sites), the object is the
 * latest named. */
void kov_lock_add(struct proto_lock *sum, const struct proto_lock *l);

#define KOV_LOCKS_MAX 2048
struct kov_lock_table {
	struct proto_lock locks[KOV_LOCKS_MAX];
	size_t n;
	uint64_t frames, reports;   /* lock frames read, lock records in them */
	uint64_t not_kept;          /* records of locks beyond KOV_LOCKS_MAX (not summed) */
	bool full_figures;          /* LOCK_CONTENTION seen (a 1.1 target sends less) */
	uint64_t first, last;       /* timebase span the reports cover */
};
/* Adds a pushed frame if it is a lock frame; true if it was. */
bool kov_lock_table_add(struct kov_lock_table *t, const struct proto_frame *f);

#endif

/* Summing LOCK_STATS reports of one lock over time (kovctl lockstat, the viewer's lock view). */
#ifndef KOV_CLIENT_LOCKSTAT_H
#define KOV_CLIENT_LOCKSTAT_H

#include "dci/proto.h"

/* A sum that starts empty for the lock a report names (its identity and kind kept). */
void kov_lock_start(struct proto_lock *sum, const struct proto_lock *first);
/* Adds one interval's report: totals add up, maxima are the largest seen, the object is the
 * latest named. */
void kov_lock_add(struct proto_lock *sum, const struct proto_lock *l);

#endif

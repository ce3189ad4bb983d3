/* Lock figures per report interval for the DCI daemon's LOCK_CONTENTION and LOCK_STATS
 * (portable: the target and the host unit tests). The KM's lock records are cumulative and
 * written, without a lock, by the lock's holder while the daemon copies them
 * (common/lib/lockstat.h), so a copy can be torn between two stores of one event: a contention
 * counted before its acquisition (contentions are stored after acquisitions, and copied after
 * them), a hold's time before its count, a call site's count before its pc. A report must be
 * consistent (proto_data.c checks contentions <= acquisitions, no hold time without holds, ...),
 * and an event must neither be lost nor counted twice.
 *
 * Reporting "the record now less the last copy" loses whatever a report had to cut to stay
 * consistent, and everything that changed in an interval without a new acquisition or trylock
 * failure (a wait added after its contention's acquisition was copied): both once moved
 * contentions and wait out of the figures for good. So the daemon keeps, per lock, what it has
 * REPORTED so far (`sent`); each report is the record less that, cut to be consistent, and what
 * is cut goes out with a later report. Summed over the reports, every figure is the record's
 * change since the baseline, exactly. */
#ifndef KOV_LOCK_DELTA_H
#define KOV_LOCK_DELTA_H

#include <stdbool.h>
#include "kernel/abi/km_abi.h"
#include "proto/proto.h"

/* The figures of `now` not yet reported (all of them if the record went backwards: made anew
 * for a lock at a reused address); `sent` becomes what has been reported once `l` is. Maxima
 * and the minimum are since the lock was first seen, capped to agree with the report's totals.
 * A record not attributed yet (KM_LOCK_ATTRIBUTED: its object is being looked up) reports
 * nothing: its figures wait for the owner rather than go out as no object's. False when there
 * is nothing to report; lock, pid, kind and flags are filled in, coid and gen left 0. */
bool lock_delta(uint32_t pid, const struct km_lock_stats *now, struct km_lock_stats *sent,
		struct proto_lock *l);

#endif

/* What the target said was lost, as a client counts it: samples its rings lost (LOST_SAMPLES),
 * data frames its output queue dropped for this connection (DROPPED), and samples it drained
 * while no client took the samples stream (STATUS_EX's samples_discarded, protocol 1.3). The
 * client keeps running totals for its connection (kov_client_losses); a report over a period
 * takes the difference between two of them, so a ranking or a sum built from an incomplete
 * period can say so (kovctl top, counts, lockstat, record and replay, the viewer). */
#ifndef KOV_CLIENT_LOSSES_H
#define KOV_CLIENT_LOSSES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"

/* The data streams a DROPPED record can name. */
enum kov_stream { KOV_DROP_SAMPLES, KOV_DROP_COUNTS, KOV_DROP_LOCKS, KOV_DROP_INVOCATIONS,
		  KOV_DROP_STREAMS };

struct kov_losses {
	uint64_t samples;            /* SAMPLES records received */
	uint64_t lost;               /* samples the target's rings lost (LOST_SAMPLES) */
	uint64_t dropped_frames;     /* data frames the daemon's queue dropped for this client */
	uint64_t dropped_records;    /* the records in them */
	uint64_t dropped[KOV_DROP_STREAMS];   /* records per stream (samples, counts, ...) */
	uint64_t discarded;          /* samples drained while no client took them, since the
	                                first STATUS_EX seen (the daemon counts them for all) */
	bool discarded_known;        /* a STATUS_EX arrived; older targets do not say */
	uint64_t discarded_first, discarded_last;   /* the daemon's totals then and latest */
};

/* Counts one frame from the target (pushed or answered); other types change nothing. */
void kov_losses_note(struct kov_losses *l, const struct proto_frame *f);
/* A 1.3 target's status (STATUS_EX, decoded: e.g. kov_client_status's answer): its discards. */
void kov_losses_status(struct kov_losses *l, const struct proto_status *st);
/* now - then: what happened between two totals of one connection. Discards are known when
 * now knew them (counted from then's total, or from the first STATUS_EX after it). */
struct kov_losses kov_losses_since(const struct kov_losses *now, const struct kov_losses *then);
/* Samples the target produced that a report over the period does not have: lost, dropped
 * and discarded ones. */
uint64_t kov_losses_missing_samples(const struct kov_losses *l);
/* Anything lost, dropped or discarded. */
bool kov_losses_any(const struct kov_losses *l);
/* One line: "12 samples lost by the target's rings; 3 frames dropped by the daemon's queue
 * (1480 samples, 2 interval counts); 40 samples discarded with no client" or "nothing lost"
 * (and "discards not reported by this target" when unknown). snprintf's return. */
int kov_losses_text(const struct kov_losses *l, char *buf, size_t n);

#endif

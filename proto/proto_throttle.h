/* The monitor's bound on its own cost over the DCI (since 1.7; common/monitor/throttle.h):
 * THROTTLE_GET asks for its state, THROTTLE_SET (controller) sets the limit, and THROTTLE
 * answers both and is pushed to every 1.7 subscriber at each change of the periods' factor, as
 * an event of the stream (never dropped). */
#ifndef KOV_PROTO_THROTTLE_H
#define KOV_PROTO_THROTTLE_H

#include "proto_msg.h"

#define PROTO_THROTTLE_MAX_LIMIT_BP 10000u   /* 100% of the CPUs' time */

struct proto_throttle_set {          /* THROTTLE_SET (1.7), controller only */
	uint32_t limit_bp;           /* basis points of the CPUs' time; 0 turns throttling off */
};

struct proto_throttle {              /* THROTTLE (1.7) */
	uint64_t seq;                /* the change it reports (1, 2, ...); 0: no change yet */
	uint64_t timebase;           /* when the window that decided it ended; 0 with seq 0 */
	uint32_t factor;             /* every sampling period is multiplied by this (1: as asked) */
	uint32_t cost_bp;            /* that window's cost (an answer: the last window's) */
	uint32_t limit_bp;           /* the limit (0: off) */
	uint64_t windows;            /* windows measured since the target booted */
};

int proto_encode_throttle_set(void *buf, size_t cap, uint32_t req, uint16_t flags,
			      const struct proto_throttle_set *m);
int proto_decode_throttle_set(const struct proto_frame *f, struct proto_throttle_set *m);
int proto_encode_throttle(void *buf, size_t cap, uint32_t req, uint16_t flags,
			  const struct proto_throttle *m);
int proto_decode_throttle(const struct proto_frame *f, struct proto_throttle *m);

#endif

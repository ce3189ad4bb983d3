/* Call chains of samples: one ring per CPU of fixed-width slots, written by that CPU's sampler
 * (the single producer, interrupts off) and read by the KM's drain on any CPU. A sample keeps
 * its chain's sequence number. The producer never waits: it overwrites the oldest slot, and
 * a reader that finds its chain overwritten (the drain came too late) says so, so a chain is
 * either read whole or known lost, never mixed. Portable: the host unit tests use it. */
#ifndef KOV_CHAIN_RING_H
#define KOV_CHAIN_RING_H

#include <stdbool.h>
#include <stdint.h>
#include "attrib.h"

struct chain_ring {
	struct attrib_frame *slots;  /* capacity * width frames; NULL: no chains kept */
	uint32_t capacity;           /* slots, a power of two */
	uint32_t width;              /* frames per slot */
	volatile uint32_t claimed;   /* slots the producer has begun to write (wraps) */
};

/* storage holds capacity * width frames; capacity a power of two. Returns 0 or -1. */
int chain_ring_init(struct chain_ring *r, struct attrib_frame *storage, uint32_t capacity,
	uint32_t width);

/* Producer: the slot of the next chain (width frames), its sequence number in *seq. The
 * claim is visible before anything is written to the slot. Inline: the sampler's leaf path
 * makes no call. */
static inline struct attrib_frame *chain_ring_claim(struct chain_ring *r, uint32_t *seq)
{
	uint32_t s = r->claimed;
	__atomic_store_n(&r->claimed, s + 1, __ATOMIC_RELAXED);
	/* The claim before the writes: a reader that sees any of them sees the claim too. */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	*seq = s;
	return r->slots + (uint64_t)(s & (r->capacity - 1)) * r->width;
}

/* Reader: copies n (<= width) frames of chain seq into out; false when the chain was (or was
 * being) overwritten meanwhile, and then out is not to be used. */
bool chain_ring_read(const struct chain_ring *r, uint32_t seq, uint32_t n,
	struct attrib_frame *out);

#endif

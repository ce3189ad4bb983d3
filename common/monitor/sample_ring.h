/* Sample rings: one per CPU and counter, filled by the overflow interrupt (the single
 * producer) and emptied in bulk by the KM's drain (the single consumer). Lock-free: the
 * producer owns `head`, the consumer owns `tail`, each publishes its index with a release
 * store and reads the other's with an acquire load, so a slot's contents are complete before
 * the index that hands it over is seen. The caller provides the storage; nothing here
 * allocates. A push into a full ring drops the sample and counts it: nothing is lost
 * silently. A ring that lost samples, or came close, can be moved to bigger storage. */
#ifndef KOV_SAMPLE_RING_H
#define KOV_SAMPLE_RING_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/abi/km_abi.h"

/* The records are the ABI's (struct km_sample, kernel/abi/km_abi.h): the drain copies them out
 * to the daemon as they are. */
struct sample_ring {
	struct km_sample *slots;
	uint32_t capacity;      /* a power of two */
	uint32_t head;          /* producer: samples ever pushed (wraps) */
	uint32_t tail;          /* consumer: samples ever drained (wraps) */
	uint64_t lost;          /* producer: pushes refused because the ring was full */
	uint64_t lost_seen;     /* consumer: `lost` at the last drain */
};

/* capacity must be a power of two, 1 to 2^31. Returns 0 or -1. */
int sample_ring_init(struct sample_ring *r, struct km_sample *storage, uint32_t capacity);

/* Producer side. Returns false (and counts the sample lost) when the ring is full. */
bool sample_ring_push(struct sample_ring *r, const struct km_sample *s);

/* Producer side, in steps, for a sampler that fills the record in place instead of copying
 * it: sample_ring_room() says whether a slot is free (false: the sample is counted lost),
 * sample_ring_next() is that slot, and sample_ring_commit() hands it over once every field is
 * written. sample_ring_slot() is the first two at once: the free slot, or NULL. */
static inline bool sample_ring_room(struct sample_ring *r)
{
	uint32_t tail = __atomic_load_n(&r->tail, __ATOMIC_RELAXED);
	/* Acquire: the consumer's copies out of the slots it released are done before we
	 * overwrite them. A fence (lwsync) costs less than a load-acquire's compare and isync. */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	if (r->head - tail < r->capacity)   /* head: only this side writes it */
		return true;
	__atomic_store_n(&r->lost, r->lost + 1, __ATOMIC_RELAXED);
	return false;
}

static inline struct km_sample *sample_ring_next(struct sample_ring *r)
{
	return &r->slots[r->head & (r->capacity - 1)];
}

static inline struct km_sample *sample_ring_slot(struct sample_ring *r)
{
	return sample_ring_room(r) ? sample_ring_next(r) : 0;
}

static inline void sample_ring_commit(struct sample_ring *r)
{
	/* Release: the record is complete before the consumer can see the new head. */
	__atomic_store_n(&r->head, r->head + 1, __ATOMIC_RELEASE);
}

/* Consumer side: copies up to `max` samples, oldest first, into out and returns how many;
 * *lost (if not NULL) receives the samples lost since the previous drain. */
uint32_t sample_ring_drain(struct sample_ring *r, struct km_sample *out, uint32_t max,
	uint64_t *lost);
/* The same without the copy: up to `max` of the oldest samples, in place, as two runs of the
 * storage (run[0] first; len[1] may be 0); returns how many. They stay the consumer's, to read
 * or change, until sample_ring_release(r, n, lost) gives back the first n and reports the
 * losses as a drain does. */
uint32_t sample_ring_peek(struct sample_ring *r, uint32_t max, struct km_sample *run[2],
			  uint32_t len[2]);
void sample_ring_release(struct sample_ring *r, uint32_t n, uint64_t *lost);

uint32_t sample_ring_count(const struct sample_ring *r);   /* either side; a snapshot */
uint64_t sample_ring_lost(const struct sample_ring *r);    /* total since init */

/* Growth policy, at a drain that found `held` samples in the ring and `lost` lost since the
 * last one: a ring that lost samples grows to the smallest power of two that would have held
 * what it held plus what it lost, doubling at least once; one that was more than a quarter
 * full doubles before it loses any, so that a ring keeps room for four drains' worth of
 * samples at the rate seen (a drain that comes three intervals late, on a busy host, loses
 * nothing). Never beyond `cap` (rounded down to a power of two), never shrinking. */
uint32_t sample_ring_next_capacity(uint32_t current, uint32_t held, uint64_t lost, uint32_t cap);

/* Moves the ring to new storage, keeping the samples it holds, oldest first, and its lost
 * counts. Neither side may run meanwhile: the producer's CPU is the caller, with its PMU
 * interrupt masked, and the consumer is not between a peek and its release. Returns -1,
 * changing nothing, if the capacity is not valid or too small for what the ring holds. */
int sample_ring_move(struct sample_ring *r, struct km_sample *storage, uint32_t capacity);

#endif

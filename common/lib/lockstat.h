/* Lock statistics tables (struct km_lock_area, kernel/abi/km_abi.h): finding a lock's record and
 * updating it from a lock's contended path. Portable: the kernel's spin and sleep locks, the
 * user C library's, and the host unit tests share it.
 *
 * Concurrency: a record is made with one compare-and-swap on its `lock` field; after that it
 * is written only by the thread that holds the lock (the new holder after a contended wait,
 * the holder at release), except `waiters`, which waiters change atomically. Readers (the
 * monitor) read the figures without a lock and accept a moment's inconsistency. */
#ifndef KOV_LOCKSTAT_H
#define KOV_LOCKSTAT_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/abi/km_abi.h"
#include "kernel/abi/kov_instr.h"

/* The timebase read where a contended lock call's wait begins, `read` being the caller's clock
 * (mftb(), the C library's timebase()): not made at all when lock statistics are compiled out
 * (kernel/abi/kov_instr.h), as are the records below (lockstat.c is then empty). */
#define LOCKSTAT_NOW(read) (KOV_LOCK_INSTR ? (read) : 0)

/* Sets up an area of `bytes` bytes (zeroed by the caller) for as many records as fit, rounded
 * down to a power of two; false if not even one fits. */
bool lockstat_area_init(struct km_lock_area *a, uint64_t bytes);

/* The record of `lock`, made if it has none (kind set, `*made` true); 0 when the table is
 * full (counted in `dropped`). Lock-free. */
struct km_lock_stats *lockstat_get(struct km_lock_area *a, uint64_t lock, uint16_t kind, bool *made);

/* The record of `lock`, or 0 if it has none (none is made). Lock-free. */
struct km_lock_stats *lockstat_find(struct km_lock_area *a, uint64_t lock);

/* The object whose rep is `owner` is being destroyed: its locks go with it, so their records
 * lose owner and full counting and are attributed again when next met (the address may then
 * hold another lock). O(capacity). */
void lockstat_owner_gone(struct km_lock_area *a, uint64_t owner);

/* True when the record needs its owner found (just made, or its owner gone); the kind is
 * set anew (the address may now hold a lock of another kind). */
bool lockstat_needs_owner(struct km_lock_stats *s, bool made, uint16_t kind);

/* The owner looked for after lockstat_needs_owner (0: none found), unless the program
 * registered one meanwhile: the record is attributed (KM_LOCK_ATTRIBUTED). */
void lockstat_attributed(struct km_lock_stats *s, uint64_t owner);

/* A thread starts waiting (waiters + 1) and stops (- 1): the number it saw is returned. */
uint32_t lockstat_wait_begin(struct km_lock_stats *s);
void lockstat_wait_end(struct km_lock_stats *s);

/* The new holder after a wait, in two steps. A contention's wait is defined as the time from
 * the timebase read right after the failed first try to the one read last in the lock call,
 * after this bookkeeping: the caller loses the bookkeeping to the contention as much as the
 * spinning, and a program timing its own lock call (lockbench, jbb) measures it too. Reading
 * the end before it (as first done) left the bookkeeping, a system call among it in user
 * space, outside KOV's wait but inside the caller's: KOV 2-10% low on the parallel machine.
 *
 * First everything but the wait: a contention from call site `site` on CPU `cpu`, the
 * previous holder on `prev_cpu` (or ~0u when unknown: then the last contended acquirer's CPU
 * is used), `seen` the most waiters it saw (itself included). */
void lockstat_contended(struct km_lock_stats *s, uint64_t site, uint32_t cpu, uint32_t prev_cpu,
	uint32_t seen);

/* Then, with `now` read after lockstat_contended, the wait from `from`; opens a hold
 * measurement. Inline: the fewer instructions after the last timebase read, the less of the
 * caller's time lies outside the wait. */
static inline void lockstat_waited(struct km_lock_stats *s, uint64_t from, uint64_t now)
{
	uint64_t w = now - from;
	s->wait_total += w;
	if (w > s->wait_max)
		s->wait_max = w;
	if (s->contentions == 1 || w < s->wait_min)
		s->wait_min = w;
	s->acquired_at = now ? now : 1;
}

/* An uncontended acquisition of a fully counted lock (KM_LOCK_FULL): counted, hold opened. */
void lockstat_acquired(struct km_lock_stats *s, uint64_t now);

/* Release by the holder: closes the open hold measurement, if any. */
void lockstat_released(struct km_lock_stats *s, uint64_t now);

#endif

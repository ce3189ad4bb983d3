/* Blocking on an address and waking, K42's blocked-thread queues: what every sleeping wait is
 * built from (sleep locks, joins, futexes, the network's semaphores). Declared here, below the
 * scheduler, so that the sleep locks need no more of it; the scheduler implements them
 * (kernel/proc/thread.c). */
#ifndef KOV_WAIT_H
#define KOV_WAIT_H

#include <stdbool.h>
#include <stdint.h>

/* Blocks the current thread on `key` unless `still_blocked(key)` is false when checked under
 * the queue's lock (so a wake-up between the caller's test and the sleep is never lost). */
void thread_block_on(const void *key, bool (*still_blocked)(const void *key));
/* The same with a deadline (clock_ns; checked at every tick of the thread's CPU). Returns
 * false if the deadline passed before a wake-up. */
bool thread_block_until(const void *key, bool (*still_blocked)(const void *key),
			uint64_t deadline_ns);
/* Wakes the first / every thread blocked on `key`; returns how many. */
int thread_wake_one(const void *key);
int thread_wake_all(const void *key);

#endif

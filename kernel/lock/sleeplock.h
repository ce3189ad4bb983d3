/* Sleep locks: a waiter that cannot have the lock blocks on the lock's address in the
 * blocked-thread queues instead of spinning. Kernel threads only (never in interrupts). */
#ifndef KOV_SLEEPLOCK_H
#define KOV_SLEEPLOCK_H

#include <stdint.h>

struct sleeplock {
	volatile uint32_t locked;
	volatile uint32_t waiters;   /* threads blocked or about to block on it */
	uint32_t owner_tid;
	uint64_t acquisitions, contentions;
};

void sleep_lock(struct sleeplock *l);
void sleep_unlock(struct sleeplock *l);

#endif

#include "sleeplock.h"
#include "spinlock.h"
#include "thread.h"
#include "cpu.h"
#include "../kov/km.h"

static bool still_locked(const void *key)
{
	return ((const struct sleeplock *)key)->locked != 0;
}

void sleep_lock(struct sleeplock *l)
{
	uint32_t me = current_thread()->tid + 1;
	bool contended = false;
	/* lwarx/stwcx. acquisition, as for spin locks; on failure sleep until an unlock. */
	while (!spin_trylock_as((struct spinlock *)&l->locked, me)) {
		contended = true;
		km_sw(SW_SLEEPLOCK_BLOCK, 0);
		__atomic_fetch_add(&l->waiters, 1, __ATOMIC_SEQ_CST);
		thread_block_on(l, still_locked);
		__atomic_fetch_sub(&l->waiters, 1, __ATOMIC_SEQ_CST);
	}
	l->owner_tid = me - 1;
	l->acquisitions++;
	if (contended)
		l->contentions++;
}

void sleep_unlock(struct sleeplock *l)
{
	l->owner_tid = 0;
	__atomic_store_n(&l->locked, 0, __ATOMIC_SEQ_CST);
	/* The full barrier above pairs with the waiter's increment: either it sees the lock free
	 * (and does not sleep) or we see it waiting (and wake it). */
	if (__atomic_load_n(&l->waiters, __ATOMIC_SEQ_CST))
		thread_wake_one(l);
}

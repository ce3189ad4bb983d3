#include "sleeplock.h"
#include "common/lib/spinlock.h"
#include "wait.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/percpu.h"
#include "common/lib/lockstat.h"
#include "kernel/include/kov_hooks.h"

static bool still_locked(const void *key)
{
	return (((const struct sleeplock *)key)->locked & SPIN_HOLDER) != 0;
}

/* The first try failed (entered by a tail call, so the return address is the lock call's
 * site). A fully counted lock (SPIN_FULL, common/lib/spinlock.h) that is free is taken and
 * counted; otherwise sleep until an unlock, then record the contention as the new holder
 * (the word carries SPIN_CONTENDED so that the release measures the hold). */
static __attribute__((noinline)) void sleep_lock_contended(struct sleeplock *l, uint32_t me)
{
	uint64_t from = LOCKSTAT_NOW(mftb()), site = (uint64_t)__builtin_return_address(0);
	struct spinlock *word = (struct spinlock *)&l->locked;
	struct km_lock_stats *s;
	uint32_t w;
	if ((spin_stat_bits(&l->locked) & SPIN_FULL) && spin_take_flagged(word, me | SPIN_CONTENDED, &w)) {
		l->owner_tid = me - 1;
		l->acquisitions++;
		if ((s = km_lock_record(l, KM_LOCK_SLEEP)))
			lockstat_acquired(s, mftb());
		return;
	}
	s = km_lock_record(l, KM_LOCK_SLEEP);
	uint32_t seen = s ? lockstat_wait_begin(s) : 0;
	uint32_t tag = !s ? me : me | SPIN_CONTENDED | (s->flags & KM_LOCK_FULL ? SPIN_FULL : 0);
	do {
		km_sw(SW_SLEEPLOCK_BLOCK, 0);
		__atomic_fetch_add(&l->waiters, 1, __ATOMIC_SEQ_CST);
		thread_block_on(l, still_locked);
		__atomic_fetch_sub(&l->waiters, 1, __ATOMIC_SEQ_CST);
	} while (!spin_take_flagged(word, tag, &w));
	l->owner_tid = me - 1;
	l->acquisitions++;
	l->contentions++;
	if (!s)
		return;
	lockstat_wait_end(s);
	lockstat_contended(s, site, this_cpu()->index, ~0u, seen);
	lockstat_waited(s, from, mftb());   /* the wait ends after the bookkeeping (lockstat.h) */
}

void sleep_lock(struct sleeplock *l)
{
	uint32_t me = running_tid() + 1;
	if (__builtin_expect(spin_trylock_as((struct spinlock *)&l->locked, me), 1)) {
		l->owner_tid = me - 1;
		l->acquisitions++;
		return;
	}
	sleep_lock_contended(l, me);
}

void sleep_unlock(struct sleeplock *l)
{
	l->owner_tid = 0;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect(!spin_release_plain(&l->locked), 0)) {
		struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SLEEP);
		if (s)
			lockstat_released(s, mftb());
		spin_release_flagged(&l->locked, s ? &s->flags : 0, KM_LOCK_FULL);
	}
	/* The full barrier above pairs with the waiter's increment: either it sees the lock free
	 * (and does not sleep) or we see it waiting (and wake it). */
	if (__atomic_load_n(&l->waiters, __ATOMIC_SEQ_CST))
		thread_wake_one(l);
}

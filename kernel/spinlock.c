/* Kernel spin locks; their statistics go to the KM's kernel lock table (kov/km.h). */
#include "spinlock.h"
#include "percpu.h"
#include "cpu.h"
#include "lib/lockstat.h"
#include "../kov/km.h"

bool spin_trylock(struct spinlock *l)
{
	struct percpu *c = this_cpu();
	c->preempt_count++;
	if (spin_trylock_as(l, c->index + 1))
		return true;
	c->preempt_count--;
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	if (s)
		__atomic_fetch_add(&s->trylock_failures, 1, __ATOMIC_RELAXED);
	return false;
}

/* The first try failed (entered by a tail call, so the return address is the lock call's
 * site): wait with plain loads (the reservation traffic stays off the lock
 * line), then record the contention as the new holder. */
static __attribute__((noinline)) void spin_lock_contended(struct spinlock *l, uint32_t me)
{
	uint64_t from = mftb(), site = (uint64_t)__builtin_return_address(0);
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	uint32_t seen = s ? lockstat_wait_begin(s) : 0, holder = 0, w;
	do {
		while ((w = l->word) != 0) {
			holder = w;
			cpu_relax();
		}
	} while (!spin_trylock_as(l, s ? me | SPIN_CONTENDED : me));
	if (!s)
		return;
	lockstat_wait_end(s);
	uint32_t prev = holder ? (holder & ~SPIN_CONTENDED) - 1 : ~0u;
	lockstat_contended(s, from, mftb(), site, me - 1, prev, seen);
}

void spin_lock(struct spinlock *l)
{
	struct percpu *c = this_cpu();
	c->preempt_count++;
	uint32_t me = c->index + 1;
	if (__builtin_expect(spin_trylock_as(l, me), 1))
		return;
	spin_lock_contended(l, me);
}

/* A contended acquisition's hold ends here. */
static __attribute__((noinline)) void spin_unlock_measured(struct spinlock *l)
{
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	if (s)
		lockstat_released(s, mftb());
	__atomic_store_n(&l->word, 0, __ATOMIC_RELEASE);
}

void spin_unlock(struct spinlock *l)
{
	__asm__ volatile("lwsync" : : : "memory");
	if (__builtin_expect(l->word & SPIN_CONTENDED, 0))
		spin_unlock_measured(l);
	else
		l->word = 0;
	this_cpu()->preempt_count--;
}

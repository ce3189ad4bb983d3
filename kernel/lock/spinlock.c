/* Kernel spin locks; their statistics go to the KM's kernel lock table (kernel/include/kov_hooks.h). */
#include "common/lib/spinlock.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/cpu.h"
#include "common/lib/lockstat.h"
#include "kernel/include/kov_hooks.h"
#include <stddef.h>

/* The preemption count is changed through r13 itself, never through a copy of it: a thread
 * preempted between the load and the store may resume on another CPU, and its store must land
 * in that CPU's count. A thread is only switched out while the count is 0 (apart from the run
 * queue's lock, which the incoming thread releases), so the value it loaded is right there too. */
#define PREEMPT_COUNT_ADD(d) do {                                                          \
	uint32_t v_;                                                                        \
	__asm__ volatile("lwz %0, %1(13)\n\taddi %0, %0, %2\n\tstw %0, %1(13)"                \
			 : "=&b"(v_) : "i"(offsetof(struct percpu, preempt_count)), "i"(d)         \
			 : "memory");                                                       \
} while (0)

void preempt_disable(void)
{
	PREEMPT_COUNT_ADD(1);
}

void preempt_enable(void)
{
	PREEMPT_COUNT_ADD(-1);
}

/* The one-try acquisition failed on a lock that may be free but fully counted: take it if
 * so, counting the acquisition (its hold is measured at release). */
static bool take_counted(struct spinlock *l, uint32_t me)
{
	uint32_t w;
	if (!(spin_stat_bits(&l->word) & SPIN_FULL) || !spin_take_flagged(l, me | SPIN_CONTENDED, &w))
		return false;
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	if (s)
		lockstat_acquired(s, mftb());
	return true;
}

bool spin_trylock(struct spinlock *l)
{
	PREEMPT_COUNT_ADD(1);
	struct percpu *c = this_cpu();   /* no preemption from here: it stays this CPU's */
	if (spin_trylock_as(l, c->index + 1) || take_counted(l, c->index + 1))
		return true;
	PREEMPT_COUNT_ADD(-1);
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	if (s)
		__atomic_fetch_add(&s->trylock_failures, 1, __ATOMIC_RELAXED);
	return false;
}

/* The first try failed (entered by a tail call, so the return address is the lock call's
 * site; `from` is the timebase read right after that try, where the wait starts, lockstat.h):
 * a fully counted lock that is free is taken and counted; otherwise wait with plain
 * loads (the reservation traffic stays off the lock line), then record the contention as the
 * new holder. A waiter on a fully counted record puts SPIN_FULL back should the word have
 * lost it (a release racing with the monitor's switch). */
static __attribute__((noinline)) void spin_lock_contended(struct spinlock *l, uint32_t me,
							     uint64_t from)
{
	uint64_t site = (uint64_t)__builtin_return_address(0);
	if (take_counted(l, me))
		return;
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	uint32_t seen = s ? lockstat_wait_begin(s) : 0, holder = 0, w;
	uint32_t tag = !s ? me : me | SPIN_CONTENDED | (s->flags & KM_LOCK_FULL ? SPIN_FULL : 0);
	while (!spin_take_flagged(l, tag, &w)) {
		if (w & SPIN_HOLDER)
			holder = w;
		cpu_relax();
	}
	if (!s)
		return;
	lockstat_wait_end(s);
	uint32_t prev = holder ? (holder & SPIN_HOLDER) - 1 : ~0u;
	lockstat_contended(s, site, me - 1, prev, seen);
	lockstat_waited(s, from, mftb());   /* the wait ends after the bookkeeping (lockstat.h) */
}

void spin_lock(struct spinlock *l)
{
	PREEMPT_COUNT_ADD(1);
	uint32_t me = this_cpu()->index + 1;
	if (__builtin_expect(spin_trylock_as(l, me), 1))
		return;
	spin_lock_contended(l, me, LOCKSTAT_NOW(mftb()));
}

/* A measured hold (contended or fully counted) ends here. */
static __attribute__((noinline)) void spin_unlock_measured(struct spinlock *l)
{
	struct km_lock_stats *s = km_lock_record(l, KM_LOCK_SPIN);
	if (s)
		lockstat_released(s, mftb());
	spin_release_flagged(&l->word, s ? &s->flags : 0, KM_LOCK_FULL);
}

void spin_unlock(struct spinlock *l)
{
	__asm__ volatile("lwsync" : : : "memory");
	if (__builtin_expect(!spin_release_plain(&l->word), 0))
		spin_unlock_measured(l);
	PREEMPT_COUNT_ADD(-1);
}

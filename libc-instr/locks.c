/* Spin locks, mutexes and condition variables, with lock statistics (common/lib/lockstat.h)
 * kept on the contended paths in a table this process registers with the monitor at start.
 * A lock is attributed to the object whose method first waited for it (the kernel walks the
 * stack once, SYS_KM_LOCK_OWNER), or to the object a program names (spin_lock_owner,
 * mutex_monitor). The uncontended acquisition does not look at the table. */
#include "kov.h"
#include "uthread.h"
#include "locks.h"
#include "../kernel/abi/syscall_nr.h"
#include "common/lib/lockstat.h"

#define LOCK_TABLE_RECORDS 256

static inline uint64_t timebase(void)
{
	uint64_t tb;
	__asm__ volatile("mftb %0" : "=r"(tb));
	return tb;
}

/* From __libc_start: sbrk'd memory is demand-zero, so only the pages records land in are
 * ever touched. Without lock statistics (kernel/abi/kov_instr.h) there is no table: no lock
 * has a record, and the statistics paths below fold away. */
void __lockstat_init(void);
#if KOV_LOCK_INSTR
static struct km_lock_area *table;   /* 0 when it could not be set up */

void __lockstat_init(void)
{
	uint64_t bytes = sizeof *table + LOCK_TABLE_RECORDS * sizeof table->locks[0];
	struct km_lock_area *a = sbrk((long)bytes);
	if ((long)a <= 0 || !lockstat_area_init(a, bytes))
		return;
	if (__syscall(SYS_KM_LOCK_AREA, (long)a, 0, 0, 0, 0) == 0)
		table = a;
}
#else
static struct km_lock_area *const table = 0;

void __lockstat_init(void)
{
}
#endif

/* The record of a mutex the program monitors (mutex_monitor), or 0; not even looked at
 * without lock statistics. */
static inline struct km_lock_stats *monitored(const struct mutex *m)
{
	return KOV_LOCK_INSTR ? m->stats : 0;
}

/* The lock's record, made (and attributed to the calling method's object) if it has none. */
static struct km_lock_stats *record_of(const void *lock, uint16_t kind)
{
	if (!table)
		return 0;
	bool made;
	struct km_lock_stats *s = lockstat_get(table, (uint64_t)lock, kind, &made);
	if (s && lockstat_needs_owner(s, made, kind)) {
		long owner = __syscall(SYS_KM_LOCK_OWNER, (long)lock, 0, 0, 0, 0);
		lockstat_attributed(s, owner > 0 ? (uint64_t)owner : 0);
	}
	return s;
}

static void set_owner(struct km_lock_stats *s, const void *owner)
{
	s->owner = (uint64_t)owner;
	__atomic_or_fetch(&s->flags, KM_LOCK_OWNER_SET | KM_LOCK_ATTRIBUTED, __ATOMIC_RELEASE);
}

void __lock_owner_gone(const void *rep)
{
	if (table)
		lockstat_owner_gone(table, (uint64_t)rep);
}

int spin_lock_owner(struct spinlock *l, const void *owner)
{
	if (!KOV_LOCK_INSTR)
		return 0;   /* nothing to attribute (kov.h) */
	struct km_lock_stats *s = record_of(l, KM_LOCK_SPIN);
	if (!s)
		return -1;
	set_owner(s, owner);
	return 0;
}

int spin_lock_monitor(struct spinlock *l, const void *owner)
{
	if (!KOV_LOCK_INSTR)
		return 0;
	if (spin_lock_owner(l, owner) != 0)
		return -1;
	struct km_lock_stats *s = lockstat_find(table, (uint64_t)l);
	__atomic_or_fetch(&s->flags, KM_LOCK_FULL, __ATOMIC_RELEASE);
	spin_mark_full(&l->word, true);
	return 0;
}

const struct km_lock_stats *spin_lock_stats(const struct spinlock *l)
{
	return table ? lockstat_find(table, (uint64_t)l) : 0;
}

/* ---- spin locks ------------------------------------------------------------------------ */

/* The one-try acquisition failed on a lock that may be free but fully counted (SPIN_FULL):
 * take it if so, counting the acquisition (its hold is measured at release). */
static bool take_counted(struct spinlock *l)
{
	uint32_t w;
	if (!(spin_stat_bits(&l->word) & SPIN_FULL) || !spin_take_flagged(l, 1 | SPIN_CONTENDED, &w))
		return false;
	struct km_lock_stats *s = record_of(l, KM_LOCK_SPIN);
	if (s)
		lockstat_acquired(s, timebase());
	return true;
}

bool spin_trylock(struct spinlock *l)
{
	if (spin_trylock_as(l, 1) || take_counted(l))
		return true;
	struct km_lock_stats *s = record_of(l, KM_LOCK_SPIN);
	if (s)
		__atomic_fetch_add(&s->trylock_failures, 1, __ATOMIC_RELAXED);
	return false;
}

/* The wait ends after the bookkeeping (lockstat.h), as late in the lock call as it can: this
 * is entered by a tail call, after spin_lock_contended's epilogue, and returns to the caller. */
static __attribute__((noinline)) void spin_lock_waited(struct km_lock_stats *s, uint64_t from)
{
	lockstat_waited(s, from, timebase());
}

/* Entered by a tail call from spin_lock: the return address is the lock call's site; `from`
 * is the timebase spin_lock read right after its failed try (before this function's prologue:
 * the wait starts there, lockstat.h). A waiter on a fully counted record puts SPIN_FULL back
 * should the word have lost it.
 *
 * The CPU is asked for (a system call) before the wait, not by the new holder: there it ran
 * with the lock held, lengthening the hold the other waiters wait out, and a system call is a
 * preemption point. It is the CPU the wait began on (a thread rarely moves while it spins). */
static __attribute__((noinline)) void spin_lock_contended(struct spinlock *l, uint64_t from)
{
	uint64_t site = (uint64_t)__builtin_return_address(0);
	if (take_counted(l))
		return;
	struct km_lock_stats *s = record_of(l, KM_LOCK_SPIN);
	uint32_t seen = s ? lockstat_wait_begin(s) : 0, cpu = s ? (uint32_t)uthread_cpu() : 0, w;
	uint32_t tag = !s ? 1 : 1 | SPIN_CONTENDED | (s->flags & KM_LOCK_FULL ? SPIN_FULL : 0);
	while (!spin_take_flagged(l, tag, &w))
		__asm__ volatile("or 1,1,1; or 2,2,2" : : : "memory");
	if (!s)
		return;
	lockstat_wait_end(s);
	lockstat_contended(s, site, cpu, ~0u, seen);
	spin_lock_waited(s, from);
}

void spin_lock(struct spinlock *l)
{
	if (__builtin_expect(spin_trylock_as(l, 1), 1))
		return;
	spin_lock_contended(l, LOCKSTAT_NOW(timebase()));
}

static __attribute__((noinline)) void spin_unlock_measured(struct spinlock *l)
{
	struct km_lock_stats *s = record_of(l, KM_LOCK_SPIN);
	if (s)
		lockstat_released(s, timebase());
	spin_release_flagged(&l->word, s ? &s->flags : 0, KM_LOCK_FULL);
}

void spin_unlock(struct spinlock *l)
{
	__asm__ volatile("lwsync" : : : "memory");
	if (__builtin_expect(!spin_release_plain(&l->word), 0))
		spin_unlock_measured(l);
}

/* Only locks of live objects are touched: a record outlives its lock, and the word of a freed
 * lock must not be written. A mutex the program monitors itself (mutex_monitor) stays
 * monitored. */
void __lock_full_counting(const void *owner, bool (*live)(uint64_t rep), bool on)
{
	for (uint32_t i = 0; table && i < table->capacity; i++) {
		struct km_lock_stats *s = &table->locks[i];
		if (!s->lock || !s->owner || (owner ? s->owner != (uint64_t)owner : !live(s->owner)))
			continue;
		bool program_monitored = s->kind == KM_LOCK_SLEEP && (s->flags & KM_LOCK_OWNER_SET) &&
			((struct mutex *)s->lock)->stats == s && !on;
		if (program_monitored)
			continue;
		if (on)
			__atomic_or_fetch(&s->flags, KM_LOCK_FULL, __ATOMIC_RELEASE);
		else
			__atomic_and_fetch(&s->flags, (uint16_t)~KM_LOCK_FULL, __ATOMIC_RELEASE);
		if (s->kind == KM_LOCK_SPIN)
			spin_mark_full(&((struct spinlock *)s->lock)->word, on);
		else
			__atomic_store_n(&((struct mutex *)s->lock)->stats, on ? s : 0, __ATOMIC_RELEASE);
	}
}

/* ---- the sleep-lock event log ---------------------------------------------------------- */

static struct lock_log *volatile lock_log;

void lock_log_install(struct lock_log *log)
{
	__atomic_store_n(&lock_log, log, __ATOMIC_RELEASE);
}

static void log_lock_event(struct mutex *m, uint32_t kind)
{
	struct lock_log *log = KOV_LOCK_INSTR ? __atomic_load_n(&lock_log, __ATOMIC_ACQUIRE) : 0;
	if (!log || !m->logged)
		return;
	uint32_t i = __atomic_fetch_add(&log->next, 1, __ATOMIC_RELAXED);
	if (i < log->capacity)
		log->events[i] = (struct lock_event){ clock_ns(), (uint64_t)m, (uint32_t)thread_self_id(), kind };
}

/* ---- mutexes --------------------------------------------------------------------------- */

int mutex_monitor(struct mutex *m, const void *owner)
{
	if (!KOV_LOCK_INSTR)
		return 0;
	struct km_lock_stats *s = m->stats ? m->stats : record_of(m, KM_LOCK_SLEEP);
	if (!s)
		return -1;
	set_owner(s, owner);
	__atomic_or_fetch(&s->flags, KM_LOCK_FULL, __ATOMIC_RELEASE);
	__atomic_store_n(&m->stats, s, __ATOMIC_RELEASE);
	return 0;
}

void mutex_monitor_pause(const void *owner, int paused)
{
	for (uint32_t i = 0; table && i < table->capacity; i++) {
		struct km_lock_stats *s = &table->locks[i];
		if ((s->flags & KM_LOCK_FULL) && (!owner || s->owner == (uint64_t)owner))
			__atomic_store_n(&s->paused, (uint32_t)!!paused, __ATOMIC_RELEASE);
	}
}

/* The figures a paused monitored mutex keeps: none. */
static struct km_lock_stats *kept(struct km_lock_stats *s)
{
	return s && !__atomic_load_n(&s->paused, __ATOMIC_ACQUIRE) ? s : 0;
}

/* Entered by a tail call from mutex_lock: the return address is the lock call's site. */
static __attribute__((noinline)) void mutex_lock_contended(struct mutex *m)
{
	uint64_t site = (uint64_t)__builtin_return_address(0);
	log_lock_event(m, LOCK_EVENT_ENQUEUE);
	uint64_t from = LOCKSTAT_NOW(timebase());
	struct km_lock_stats *s = kept(monitored(m) ? monitored(m) : record_of(m, KM_LOCK_SLEEP));
	/* The CPU before the wait, as spin_lock_contended asks it. */
	uint32_t seen = s ? lockstat_wait_begin(s) : 0, cpu = s ? (uint32_t)uthread_cpu() : 0;
	do {
		__atomic_add_fetch(&m->waiters, 1, __ATOMIC_SEQ_CST);
		uint32_t v = m->locked;
		if (v)
			futex_wait(&m->locked, v);
		__atomic_fetch_sub(&m->waiters, 1, __ATOMIC_SEQ_CST);
	} while (!spin_trylock_as((struct spinlock *)&m->locked, 1 | SPIN_CONTENDED));
	if (s) {
		lockstat_wait_end(s);
		/* Paused while this thread waited: this acquisition is not kept either. */
		if (kept(s)) {
			lockstat_contended(s, site, cpu, ~0u, seen);
			lockstat_waited(s, from, timebase());
		}
	}
	log_lock_event(m, LOCK_EVENT_DEQUEUE);
}

void mutex_lock(struct mutex *m)
{
	struct km_lock_stats *st = monitored(m) && !monitored(m)->paused ? monitored(m) : 0;
	if (spin_trylock_as((struct spinlock *)&m->locked, 1)) {
		if (st)
			lockstat_acquired(st, timebase());
		return;
	}
	mutex_lock_contended(m);
}

void mutex_unlock(struct mutex *m)
{
	struct km_lock_stats *s = monitored(m);
	if (!s && (spin_stat_bits(&m->locked) & SPIN_CONTENDED))
		s = record_of(m, KM_LOCK_SLEEP);
	if (s) {
		if (s->paused)
			s->acquired_at = 0;   /* a hold measured once, and never from a paused acquisition */
		else
			lockstat_released(s, timebase());
	}
	__atomic_store_n(&m->locked, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&m->waiters, __ATOMIC_SEQ_CST))
		futex_wake(&m->locked, 1);
}

/* ---- condition variables --------------------------------------------------------------- */

void cond_wait(struct cond *c, struct mutex *m)
{
	/* A signal between the unlock and the sleep changes seq, so the sleep does not start. */
	uint32_t seq = __atomic_load_n(&c->seq, __ATOMIC_SEQ_CST);
	mutex_unlock(m);
	futex_wait(&c->seq, seq);
	mutex_lock(m);
}

void cond_signal(struct cond *c)
{
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
	futex_wake(&c->seq, 1);
}

void cond_broadcast(struct cond *c)
{
	__atomic_fetch_add(&c->seq, 1, __ATOMIC_SEQ_CST);
	futex_wake(&c->seq, 1L << 30);
}

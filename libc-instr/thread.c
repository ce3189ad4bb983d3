/* User threads, spin locks and sleep locks. */
#include "kov.h"
#include "uthread.h"
#include "../../kernel/syscall_nr.h"
#include "../../kernel/km_abi.h"

#define THREAD_STACK (64 * 1024)

struct start { void (*fn)(void *); void *arg; struct uthread *self; };

static struct uthread records[UTHREAD_MAX];   /* [0] is the main thread's */
static struct spinlock records_lock;

static struct uthread *self(void)
{
	struct uthread *t;
	__asm__ volatile("mr %0, 13" : "=r"(t));
	return t;
}

void uthread_set_self(struct uthread *rec)
{
	__asm__ volatile("mr 13, %0" : : "r"(rec) : "memory");
}

void uthread_quiescent(void)
{
	struct uthread *t = self();
	if (t)
		__atomic_fetch_add(&t->quiescent, 1, __ATOMIC_RELEASE);
}

void uthread_snapshot(uint64_t seen[UTHREAD_MAX])
{
	for (int i = 0; i < UTHREAD_MAX; i++)
		seen[i] = __atomic_load_n(&records[i].quiescent, __ATOMIC_ACQUIRE);
}

void uthread_park(void)
{
	struct uthread *t = self();
	if (t)
		__atomic_store_n(&t->parked, 1, __ATOMIC_SEQ_CST);
}

void uthread_unpark(void)
{
	struct uthread *t = self();
	if (t) {
		__atomic_store_n(&t->parked, 0, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&t->quiescent, 1, __ATOMIC_RELEASE);
	}
}

bool uthread_all_passed(const uint64_t seen[UTHREAD_MAX])
{
	for (int i = 0; i < UTHREAD_MAX; i++)
		if (records[i].alive && &records[i] != self() && !records[i].parked &&
		    __atomic_load_n(&records[i].quiescent, __ATOMIC_ACQUIRE) == seen[i])
			return false;
	return true;
}

struct uthread *uthread_alloc(void)
{
	struct uthread *t = 0;
	spin_lock(&records_lock);
	for (int i = 1; i < UTHREAD_MAX && !t; i++)
		if (!records[i].alive) {
			t = &records[i];
			t->alive = 1;
		}
	spin_unlock(&records_lock);
	return t;
}

void uthread_release(struct uthread *t)
{
	if (t) {
		__atomic_fetch_add(&t->quiescent, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&t->alive, 0, __ATOMIC_RELEASE);
	}
}

/* Program start (from crt0): the main thread's record, then main. */
int main(int argc, char **argv);
void __libc_start(int argc, char **argv);
void __libc_start(int argc, char **argv)
{
	records[0].alive = 1;
	uthread_set_self(&records[0]);
	exit(main(argc, argv));
}

/* Every thread begins here (the kernel enters it with r3 = the start record). */
static void thread_entry(struct start *s)
{
	struct start copy = *s;
	free(s);
	uthread_set_self(copy.self);
	copy.fn(copy.arg);
	thread_exit(0);
}

int thread_create(void (*fn)(void *), void *arg, int cpu)
{
	struct start *s = malloc(sizeof *s);
	char *stack = malloc(THREAD_STACK);
	struct uthread *rec = uthread_alloc();
	if (!s || !stack || !rec) {
		free(s);
		free(stack);
		uthread_release(rec);
		return -KOV_ENOMEM;
	}
	s->fn = fn;
	s->arg = arg;
	s->self = rec;
	/* The stack is never freed: the thread may still run on it after it is joined. */
	uint64_t top = ((uint64_t)stack + THREAD_STACK) & ~15ull;
	void (*entry)(struct start *) = thread_entry;
	long tid = __syscall(SYS_THREAD_CREATE, (long)entry, (long)s, (long)top, cpu, 0);
	if (tid < 0) {
		free(s);
		free(stack);
		uthread_release(rec);
	}
	return (int)tid;
}

long thread_join(int tid) { return __syscall(SYS_THREAD_JOIN, tid, 0, 0, 0, 0); }

void thread_exit(long code)
{
	stdout_flush();   /* before the record (and its output buffer) can go to a new thread */
	uthread_release(self());
	__syscall(SYS_THREAD_EXIT, code, 0, 0, 0, 0);
	for (;;)
		;
}

long futex_wait(volatile uint32_t *addr, uint32_t expected)
{
	uthread_park();   /* a sleeping thread holds no rep pointers */
	long rc = __syscall(SYS_FUTEX_WAIT, (long)addr, expected, 0, 0, 0);
	uthread_unpark();
	return rc;
}

long futex_wake(volatile uint32_t *addr, long count)
{
	return __syscall(SYS_FUTEX_WAKE, (long)addr, count, 0, 0, 0);
}

bool spin_trylock(struct spinlock *l)
{
	return spin_trylock_as(l, 1);
}

void spin_lock(struct spinlock *l)
{
	while (!spin_trylock_as(l, 1))
		while (l->word != 0)
			__asm__ volatile("or 1,1,1; or 2,2,2" : : : "memory");
}

void spin_unlock(struct spinlock *l)
{
	__asm__ volatile("lwsync" : : : "memory");
	l->word = 0;
}

static struct lock_log *volatile lock_log;

void lock_log_install(struct lock_log *log)
{
	__atomic_store_n(&lock_log, log, __ATOMIC_RELEASE);
}

int thread_self_id(void)
{
	struct uthread *t = self();
	return t ? (int)(t - records) : -1;
}

static void log_lock_event(struct mutex *m, uint32_t kind)
{
	struct lock_log *log = __atomic_load_n(&lock_log, __ATOMIC_ACQUIRE);
	if (!log || !m->logged)
		return;
	uint32_t i = __atomic_fetch_add(&log->next, 1, __ATOMIC_RELAXED);
	if (i < log->capacity)
		log->events[i] = (struct lock_event){ clock_ns(), (uint64_t)m, (uint32_t)thread_self_id(), kind };
}

static inline uint64_t timebase(void)
{
	uint64_t tb;
	__asm__ volatile("mftb %0" : "=r"(tb));
	return tb;
}

#define LOCK_AREA_CAP 256
static struct km_lock_area *lock_area;
static struct spinlock lock_area_lock;

int mutex_monitor(struct mutex *m, const void *owner)
{
	int rc = -1;
	spin_lock(&lock_area_lock);
	if (!lock_area) {
		struct km_lock_area *a = malloc(sizeof *a + LOCK_AREA_CAP * sizeof a->locks[0]);
		if (a) {
			memset(a, 0, sizeof *a + LOCK_AREA_CAP * sizeof a->locks[0]);
			a->capacity = LOCK_AREA_CAP;
			if (__syscall(SYS_KM_LOCK_AREA, (long)a, 0, 0, 0, 0) == 0)
				lock_area = a;
			else
				free(a);
		}
	}
	if (m->stats) {
		rc = 0;
	} else if (lock_area && lock_area->count < lock_area->capacity) {
		struct km_lock_stats *s = &lock_area->locks[lock_area->count];
		s->lock = (uint64_t)m;
		s->owner = (uint64_t)owner;
		__atomic_store_n(&m->stats, s, __ATOMIC_RELEASE);
		__atomic_store_n(&lock_area->count, lock_area->count + 1, __ATOMIC_RELEASE);
		rc = 0;
	}
	spin_unlock(&lock_area_lock);
	return rc;
}

void mutex_monitor_pause(const void *owner, int paused)
{
	spin_lock(&lock_area_lock);
	for (uint32_t i = 0; lock_area && i < lock_area->count; i++)
		if (!owner || lock_area->locks[i].owner == (uint64_t)owner)
			__atomic_store_n(&lock_area->locks[i].paused, (uint32_t)!!paused, __ATOMIC_RELEASE);
	spin_unlock(&lock_area_lock);
}

/* Lockstat figures, updated by the new holder. */
static void acquired(struct km_lock_stats *s, uint64_t wait_from, uint32_t waiters_seen)
{
	uint64_t now = timebase();
	s->acquisitions++;
	if (wait_from) {
		uint64_t w = now - wait_from;
		s->contentions++;
		s->wait_total += w;
		if (w > s->wait_max)
			s->wait_max = w;
		s->qlen_samples++;
		s->qlen_sum += waiters_seen;
		if (waiters_seen > s->qlen_max)
			s->qlen_max = waiters_seen;
	}
	s->acquired_at = now;
}

void mutex_lock(struct mutex *m)
{
	struct km_lock_stats *st = m->stats && !m->stats->paused ? m->stats : 0;
	if (spin_trylock_as((struct spinlock *)&m->locked, 1)) {
		if (st)
			acquired(st, 0, 0);
		return;
	}
	/* Contended: only here does the logging hook look at anything. */
	log_lock_event(m, LOCK_EVENT_ENQUEUE);
	uint64_t from = st ? timebase() : 0;
	uint32_t seen = 0;
	do {
		uint32_t w = __atomic_add_fetch(&m->waiters, 1, __ATOMIC_SEQ_CST);
		if (w > seen)
			seen = w;
		uint32_t v = m->locked;
		if (v)
			futex_wait(&m->locked, v);
		__atomic_fetch_sub(&m->waiters, 1, __ATOMIC_SEQ_CST);
	} while (!spin_trylock_as((struct spinlock *)&m->locked, 1));
	/* Figures paused while this thread waited are not kept for this acquisition either. */
	st = m->stats && !m->stats->paused ? m->stats : 0;
	if (st)   /* resumed while it waited (from 0): the acquisition counts, its wait is unknown */
		acquired(st, from, seen);
	log_lock_event(m, LOCK_EVENT_DEQUEUE);
}

void mutex_unlock(struct mutex *m)
{
	struct km_lock_stats *s = m->stats;
	if (s && !s->paused && s->acquired_at) {
		uint64_t h = timebase() - s->acquired_at;
		s->hold_total += h;
		if (h > s->hold_max)
			s->hold_max = h;
		s->acquired_at = 0;   /* a hold measured once, and never from a paused acquisition */
	}
	__atomic_store_n(&m->locked, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&m->waiters, __ATOMIC_SEQ_CST))
		futex_wake(&m->locked, 1);
}

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

/* User threads, spin locks and sleep locks. */
#include "kov.h"
#include "../../kernel/syscall_nr.h"

#define THREAD_STACK (64 * 1024)

struct start { void (*fn)(void *); void *arg; };

/* Every thread begins here (the kernel enters it with r3 = the start record). */
static void thread_entry(struct start *s)
{
	struct start copy = *s;
	free(s);
	copy.fn(copy.arg);
	thread_exit(0);
}

int thread_create(void (*fn)(void *), void *arg, int cpu)
{
	struct start *s = malloc(sizeof *s);
	char *stack = malloc(THREAD_STACK);
	if (!s || !stack) {
		free(s);
		free(stack);
		return -KOV_ENOMEM;
	}
	s->fn = fn;
	s->arg = arg;
	/* The stack is never freed: the thread may still run on it after it is joined. */
	uint64_t top = ((uint64_t)stack + THREAD_STACK) & ~15ull;
	void (*entry)(struct start *) = thread_entry;
	long tid = __syscall(SYS_THREAD_CREATE, (long)entry, (long)s, (long)top, cpu, 0);
	if (tid < 0) {
		free(s);
		free(stack);
	}
	return (int)tid;
}

long thread_join(int tid) { return __syscall(SYS_THREAD_JOIN, tid, 0, 0, 0, 0); }

void thread_exit(long code)
{
	__syscall(SYS_THREAD_EXIT, code, 0, 0, 0, 0);
	for (;;)
		;
}

long futex_wait(volatile uint32_t *addr, uint32_t expected)
{
	return __syscall(SYS_FUTEX_WAIT, (long)addr, expected, 0, 0, 0);
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

void mutex_lock(struct mutex *m)
{
	while (!spin_trylock_as((struct spinlock *)&m->locked, 1)) {
		__atomic_fetch_add(&m->waiters, 1, __ATOMIC_SEQ_CST);
		uint32_t v = m->locked;
		if (v)
			futex_wait(&m->locked, v);
		__atomic_fetch_sub(&m->waiters, 1, __ATOMIC_SEQ_CST);
	}
}

void mutex_unlock(struct mutex *m)
{
	__atomic_store_n(&m->locked, 0, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&m->waiters, __ATOMIC_SEQ_CST))
		futex_wake(&m->locked, 1);
}

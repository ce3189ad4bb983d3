/* User threads and their registry (libc-instr/uthread.h). */
#include "kov.h"
#include "uthread.h"
#include "../kernel/abi/syscall_nr.h"

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
void __lockstat_init(void);   /* libc-instr/locks.c */
void __libc_start(int argc, char **argv);
void __libc_start(int argc, char **argv)
{
	records[0].alive = 1;
	uthread_set_self(&records[0]);
	__lockstat_init();
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

int thread_self_id(void)
{
	struct uthread *t = self();
	return t ? (int)(t - records) : -1;
}

int uthread_cpu(void)
{
	return getcpu();
}

/* User threads and their registry (libc-instr/uthread.h). */
#include "kov.h"
#include "uthread.h"
#include "common/co/co_swap.h"
#include "../kernel/abi/syscall_nr.h"

#define THREAD_STACK (64 * 1024)

struct start { void (*fn)(void *); void *arg; struct uthread *self; };

static struct uthread records[UTHREAD_MAX];   /* [0] is the main thread's */
static struct spinlock records_lock;

/* The stacks of threads not yet joined, by tid. A thread runs on its stack until its exit
 * system call, so the stack can go only once a join has seen it finish; before this table each
 * stack was kept for ever and a program that kept making threads ran out of memory after about
 * a thousand (64 KiB each). At most MAX_THREADS threads of a process exist at once (the
 * kernel's limit), so a slot is always free for one the kernel accepted. */
#define STACKS_MAX 64
static struct { int tid; void *stack; } stacks[STACKS_MAX];   /* tid 0: free; -1: reserved */
static struct spinlock stacks_lock;

static int stack_reserve(void *stack)
{
	int slot = -1;
	spin_lock(&stacks_lock);
	for (int i = 0; i < STACKS_MAX && slot < 0; i++)
		if (!stacks[i].tid) {
			stacks[i].tid = -1;
			stacks[i].stack = stack;
			slot = i;
		}
	spin_unlock(&stacks_lock);
	return slot;
}

/* The reserved slot's thread got tid (or, tid < 0, was never made: the slot is freed). */
static void stack_record(int slot, int tid)
{
	if (slot < 0)
		return;
	spin_lock(&stacks_lock);
	stacks[slot].tid = tid > 0 ? tid : 0;
	spin_unlock(&stacks_lock);
}

/* After tid was joined: its stack, taken out of the table; 0 if it was not recorded or it is
 * the one `sp` lies in (a thread that tried to join itself keeps its stack). */
static void *stack_take(int tid, const char *sp)
{
	void *stack = 0;
	spin_lock(&stacks_lock);
	for (int i = 0; i < STACKS_MAX && !stack; i++)
		if (stacks[i].tid == tid) {
			char *s = stacks[i].stack;
			if (sp >= s && sp < s + THREAD_STACK)
				break;
			stack = s;
			stacks[i].tid = 0;
		}
	spin_unlock(&stacks_lock);
	return stack;
}

/* Where a thread not yet started "sleeps": a back chain that ends at once. */
static const uint64_t no_frames[1];

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
	if (t) {
		__atomic_fetch_add(&t->calm, 1, __ATOMIC_RELEASE);
		__atomic_fetch_add(&t->quiescent, 1, __ATOMIC_RELEASE);
	}
}

void uthread_calm_snapshot(uint64_t seen[UTHREAD_MAX])
{
	for (int i = 0; i < UTHREAD_MAX; i++)
		seen[i] = __atomic_load_n(&records[i].calm, __ATOMIC_ACQUIRE);
}

/* A sleeping thread's stack stands still: walked between two reads of its park sequence, the
 * walk is of one sleep. A running thread is never walked (its stack moves): it shows it is
 * outside by itself, at a quiescent point or on entering the swap's mediator. */
bool uthread_outside(unsigned i, const uint64_t calm_seen[UTHREAD_MAX], void *const *reps,
		     uint32_t *walked)
{
	struct uthread *t = &records[i];
	if (i >= UTHREAD_MAX || !__atomic_load_n(&t->alive, __ATOMIC_ACQUIRE) ||
	    __atomic_load_n(&t->calm, __ATOMIC_ACQUIRE) != calm_seen[i])
		return true;
	uint64_t seq = __atomic_load_n(&t->park_seq, __ATOMIC_ACQUIRE);
	if (!(seq & 1))
		return false;
	bool inside = co_stack_inside(__atomic_load_n(&t->park_sp, __ATOMIC_ACQUIRE), reps);
	++*walked;
	return !inside && __atomic_load_n(&t->park_seq, __ATOMIC_ACQUIRE) == seq;
}

void uthread_snapshot(uint64_t seen[UTHREAD_MAX])
{
	for (int i = 0; i < UTHREAD_MAX; i++)
		seen[i] = __atomic_load_n(&records[i].quiescent, __ATOMIC_ACQUIRE);
}

void uthread_park(const void *sp)
{
	struct uthread *t = self();
	if (t) {
		__atomic_store_n(&t->park_sp, (uint64_t)sp, __ATOMIC_RELAXED);
		__atomic_fetch_add(&t->park_seq, 1, __ATOMIC_RELEASE);
		__atomic_store_n(&t->parked, 1, __ATOMIC_SEQ_CST);
	}
}

void uthread_unpark(void)
{
	struct uthread *t = self();
	if (t) {
		__atomic_store_n(&t->parked, 0, __ATOMIC_SEQ_CST);
		__atomic_fetch_add(&t->park_seq, 1, __ATOMIC_RELEASE);
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
			/* Parked until it runs: a thread not yet started holds no rep pointers, and
			 * one that waits for a CPU must not hold up every deferred destruction
			 * (cotest on 2 CPUs saw the runtime's scanner, created but not yet run,
			 * keep two objects from being reclaimed). */
			t->park_sp = (uint64_t)no_frames;
			if (!(t->park_seq & 1))
				t->park_seq++;
			t->parked = 1;
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
	uthread_unpark();
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
	/* Reserved before the thread exists, so a join that comes before we return finds it. A
	 * stack with no slot (more threads than the kernel allows) is never freed. */
	int slot = stack_reserve(stack);
	uint64_t top = ((uint64_t)stack + THREAD_STACK) & ~15ull;
	/* The kernel starts the thread 128 bytes below the top: a zero there ends its back chain
	 * (a hot swap walks sleeping threads' stacks to the end). */
	memset((void *)(top - 128), 0, 128);
	void (*entry)(struct start *) = thread_entry;
	long tid = __syscall(SYS_THREAD_CREATE, (long)entry, (long)s, (long)top, cpu, 0);
	stack_record(slot, (int)tid);
	if (tid < 0) {
		free(s);
		free(stack);
		uthread_release(rec);
	}
	return (int)tid;
}

/* The exit code cannot tell a failed join from a thread that exited with -KOV_ESRCH, so the
 * stack is freed whenever the table holds tid: a tid the kernel does not know has no entry
 * either (never made, or its entry went with the join that reaped it). The one exception is a
 * thread joining itself, which is refused and must keep its stack. As with POSIX threads, two
 * threads joining the same thread at once is undefined. */
long thread_join(int tid)
{
	long rc = uthread_blocking_syscall(SYS_THREAD_JOIN, tid, 0, 0, 0);
	char here;
	free(stack_take(tid, &here));
	return rc;
}

void thread_exit(long code)
{
	stdout_flush();   /* before the record (and its output buffer) can go to a new thread */
	uthread_release(self());
	__syscall(SYS_THREAD_EXIT, code, 0, 0, 0, 0);
	for (;;)
		;
}

/* A sleeping thread holds no rep pointers (quiescence), and a hot swap walks its stack from
 * here (uthread_outside) instead of waiting for it to wake. */
long uthread_blocking_syscall(long nr, long a1, long a2, long a3, long a4)
{
	uthread_park(__builtin_frame_address(0));
	long rc = __syscall(nr, a1, a2, a3, a4, 0);
	uthread_unpark();
	return rc;
}

long futex_wait(volatile uint32_t *addr, uint32_t expected)
{
	return uthread_blocking_syscall(SYS_FUTEX_WAIT, (long)addr, expected, 0, 0);
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

/* Threads: creation, exit and join, and blocking on an address and waking (the
 * blocked-thread queues; locks and their order: sched.c). */
#include "runqueue.h"
#include "process.h"
#include "kernel/mm/kmem.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/console.h"
#include "common/lib/string.h"

#define BTQ_BUCKETS 1024   /* K42's BlockedThreadQueues: a hash of wait queues by address */

static struct { struct spinlock lock; struct thread *head; } btq[BTQ_BUCKETS];
static uint32_t next_tid = 1;
static uint32_t next_cpu;

extern char thread_start_asm[];

void thread_start(struct thread *t);
void thread_start(struct thread *t)
{
	/* The switch that brought us here left the run-queue lock held and interrupts off. */
	(void)t;
	finish_switch(1);
	thread_kernel_entry();
	t->entry(t->arg);
	thread_exit(0);
}

struct thread *thread_create(const char *name, void (*fn)(void *), void *arg, int cpu)
{
	return thread_create_user(name, fn, arg, cpu, 0, 0);
}

struct thread *thread_create_user(const char *name, void (*fn)(void *), void *arg, int cpu,
				  struct process *proc, uint64_t user_ctx)
{
	struct thread *t = kmalloc(sizeof *t);
	uint8_t *stack = kmalloc(THREAD_STACK_SIZE);
	if (!t || !stack) {
		kfree(t);
		kfree(stack);
		return 0;
	}
	uint32_t affinity = AFFINITY_ALL;
	if (cpu < 0 || cpu >= MAX_CPUS || !percpu_area[cpu].online) {
		do
			cpu = (int)(__atomic_fetch_add(&next_cpu, 1, __ATOMIC_RELAXED) % MAX_CPUS);
		while (!percpu_area[cpu].online);
	} else {
		affinity = 1u << cpu;   /* asked for by number: pinned */
	}
	size_t n = strlen(name);
	memcpy(t->name, name, n < sizeof t->name - 1 ? n : sizeof t->name - 1);
	t->tid = __atomic_fetch_add(&next_tid, 1, __ATOMIC_RELAXED);
	t->cpu = (unsigned)cpu;
	t->affinity = affinity;
	t->stack = stack;
	t->stack_size = THREAD_STACK_SIZE;
	t->entry = fn;
	t->arg = arg;
	t->proc = proc;
	t->user_ctx = user_ctx;
	/* First switch_context into it "returns" to thread_start_asm with r14 = t. */
	t->ctx.r1 = (uint64_t)(stack + THREAD_STACK_SIZE - 16);
	*(uint64_t *)t->ctx.r1 = 0;
	__asm__("mr %0, 2" : "=r"(t->ctx.r2));
	t->ctx.lr = (uint64_t)thread_start_asm;
	t->ctx.gpr[0] = (uint64_t)t;
	struct runqueue *q = &runqueues[cpu];
	int irq = irq_save();
	spin_lock(&q->lock);
	t->state = THREAD_RUNNABLE;
	enqueue(q, t);
	spin_unlock(&q->lock);
	kick((unsigned)cpu);
	irq_restore(irq);
	return t;
}

void thread_exit(long code)
{
	irq_disable();
	struct runqueue *q = my_rq();
	struct thread *t = q->current;
	voluntary_switch_begins(t);
	t->exit_code = code;
	spin_lock(&q->lock);
	t->state = THREAD_DEAD;
	q->dead = t;
	switch_locked(q, true);
	kprintf("sched: dead thread %s resumed\n", t->name);
	machine_halt();
}

static bool not_reaped(const void *key)
{
	return !__atomic_load_n(&((const struct thread *)key)->reaped, __ATOMIC_ACQUIRE);
}

void thread_wait_reaped(struct thread *t)
{
	/* A loop, not one wait: the thread that announces an exit sets reaped and wakes the key
	 * after it (finish_switch), so a joiner that saw reaped early may free the thread, and a
	 * new thread at the same address be joined, before that late wake-up arrives. */
	while (not_reaped(t))
		thread_block_on(t, not_reaped);
	if (t->state != THREAD_DEAD) {
		kprintf("sched: thread %s(%u) reaped in state %d\n", t->name, t->tid, t->state);
		machine_halt();
	}
}

long thread_free(struct thread *t)
{
	long code = t->exit_code;
	kfree(t->net_buf);
	kfree(t->stack);
	kfree(t);
	return code;
}

long thread_join(struct thread *t)
{
	thread_wait_reaped(t);
	return thread_free(t);
}

static unsigned bucket_of(const void *key)
{
	uint64_t k = (uint64_t)key;
	return (unsigned)((k >> 4) ^ (k >> 14) ^ (k >> 24)) % BTQ_BUCKETS;
}

void thread_block_on(const void *key, bool (*still_blocked)(const void *key))
{
	int irq = irq_save();
	unsigned b = bucket_of(key);
	spin_lock(&btq[b].lock);
	if (!still_blocked(key)) {
		spin_unlock(&btq[b].lock);
		irq_restore(irq);
		return;
	}
	struct runqueue *q = my_rq();
	struct thread *t = q->current;
	if (t == q->idle) {
		kprintf("sched: the idle thread of cpu %u tried to block\n", t->cpu);
		machine_halt();
	}
	voluntary_switch_begins(t);
	t->cpu_bound = false;
	t->wait_key = key;
	t->state = THREAD_BLOCKED;
	t->next = btq[b].head;   /* order within a bucket is fixed up by wake_one (oldest first) */
	btq[b].head = t;
	spin_lock(&q->lock);
	spin_unlock(&btq[b].lock);
	switch_locked(q, true);
	finish_switch(irq);
	voluntary_switch_ends();
}

static void timed_remove(struct runqueue *q, struct thread *t)
{
	for (struct thread **p = &q->timed; *p; p = &(*p)->timed_next)
		if (*p == t) {
			*p = t->timed_next;
			break;
		}
	__atomic_store_n(&t->on_timed, false, __ATOMIC_RELEASE);
}

bool thread_block_until(const void *key, bool (*still_blocked)(const void *key),
			uint64_t deadline_ns)
{
	/* Interrupts stay off from joining the timed list to blocking, so the tick cannot expire
	 * the thread before it is in its wait queue (it would then never be woken). */
	int irq = irq_save();
	if (deadline_ns <= clock_ns()) {
		irq_restore(irq);
		return false;
	}
	struct runqueue *q = my_rq();
	struct thread *t = q->current;
	t->deadline_ns = deadline_ns;
	t->timed_out = false;
	t->timed_next = q->timed;
	q->timed = t;
	t->on_timed = true;   /* pins it to this CPU's list until it takes itself out */
	thread_block_on(key, still_blocked);
	timed_remove(my_rq(), t);
	irq_restore(irq);
	return !t->timed_out;
}

/* sched_tick (interrupts off): wakes this CPU's threads whose deadline has passed, if they are
 * still blocked on what they waited for. */
static void make_runnable(struct thread *t);

void wake_expired(struct runqueue *q)
{
	uint64_t now = clock_ns();
	for (struct thread **p = &q->timed; *p;) {
		struct thread *t = *p;
		if (t->deadline_ns > now) {
			p = &t->timed_next;
			continue;
		}
		*p = t->timed_next;
		__atomic_store_n(&t->on_timed, false, __ATOMIC_RELEASE);
		const void *key = t->wait_key;
		bool found = false;
		if (key) {
			unsigned b = bucket_of(key);
			spin_lock(&btq[b].lock);
			for (struct thread **l = &btq[b].head; *l; l = &(*l)->next)
				if (*l == t) {
					*l = t->next;
					found = true;
					break;
				}
			spin_unlock(&btq[b].lock);
		}
		if (found) {
			t->timed_out = true;
			make_runnable(t);
		}
	}
}

/* Whether the wake-up comes from I/O: the waker, running here, is a kernel thread. */
static bool woken_by_io(void)
{
	const struct runqueue *me = my_rq();
	const struct thread *waker = me->current;
	return waker && waker != me->idle && !waker->proc;
}

static void make_runnable(struct thread *t)
{
	int irq = irq_save();
	struct runqueue *q = &runqueues[t->cpu];
	spin_lock(&q->lock);   /* also waits out its own switch away, if it is still blocking */
	if (t->state != THREAD_BLOCKED) {
		/* Only a thread taken out of a wait queue gets here: anything else would put a
		 * running, queued or exited thread in a run queue a second time. */
		kprintf("sched: wake-up of %s(%u) in state %d, not blocked\n", t->name, t->tid,
			t->state);
		machine_halt();
	}
	t->wait_key = 0;
	t->state = THREAD_RUNNABLE;
	/* In no run queue and switched out: if its affinity excludes its CPU, it goes where it may
	 * run (not while it is in that CPU's list of timed waits, which only it leaves there). */
	uint32_t mask = __atomic_load_n(&t->affinity, __ATOMIC_RELAXED);
	if (!(mask & (1u << t->cpu)) && !__atomic_load_n(&t->on_timed, __ATOMIC_ACQUIRE) &&
	    least_loaded(mask, MAX_CPUS) < MAX_CPUS) {
		spin_unlock(&q->lock);
		place(t);
		irq_restore(irq);
		return;
	}
	bool io = !t->proc || woken_by_io();   /* a kernel thread's wake-up is I/O too (interrupts) */
	bool first = prompt_first(q, t);
	if (first) {
		enqueue_head(q, t);
	} else if (io ? q->io_jumps < IO_JUMPS_PER_TICK : q->jumps < WAKE_JUMPS_PER_TICK) {
		if (io)
			q->io_jumps++;
		else
			q->jumps++;
		enqueue_head(q, t);
	} else {
		enqueue(q, t);
	}
	/* A kernel thread (I/O: the network's receive and stack threads), or a thread one of them
	 * woke, preempts a CPU-bound thread (it last left a CPU preempted, not blocking) at once;
	 * otherwise a woken thread preempts one that has had the CPU for wake_preempt_ticks. A
	 * prompt thread preempts a normal one at once; only prompt and kernel threads preempt a
	 * prompt one (the network's threads carry the daemon's own traffic). No wake-up preempts
	 * a kernel thread: they block soon, and may hold the lock the woken thread needs next
	 * (lwIP's core lock: the daemon, woken by the stack's thread, preempted it, blocked on
	 * that lock, and a CPU-bound thread queued ahead of the holder ran for a turn). */
	struct thread *cur = q->current;
	bool cur_first = prompt_first(q, cur);
	bool preempt = cur != q->idle && cur->proc && (!cur_first || first || !t->proc) &&
		       ((first && !cur_first) || (cur->cpu_bound && io) ||
			mftb() - q->switched_at >= wake_preempt_ticks);
	if (preempt)
		q->need_resched = true;
	unsigned cpu = t->cpu;
	spin_unlock(&q->lock);
	kick(cpu);
	irq_restore(irq);
}

static int wake(const void *key, bool all)
{
	unsigned b = bucket_of(key);
	struct thread *woken = 0;
	int n = 0;
	int irq = irq_save();
	spin_lock(&btq[b].lock);
	for (;;) {
		/* The oldest waiter on key is the last one in the (newest-first) list. */
		struct thread **link = 0, **p;
		for (p = &btq[b].head; *p; p = &(*p)->next)
			if ((*p)->wait_key == key)
				link = p;
		if (!link)
			break;
		struct thread *t = *link;
		*link = t->next;
		t->next = woken;
		woken = t;
		n++;
		if (!all)
			break;
	}
	spin_unlock(&btq[b].lock);
	irq_restore(irq);
	while (woken) {
		struct thread *t = woken;
		woken = t->next;
		make_runnable(t);
	}
	return n;
}

int thread_wake_one(const void *key)
{
	return wake(key, false);
}

int thread_wake_all(const void *key)
{
	return wake(key, true);
}

void blocked_dump(void)
{
	for (unsigned b = 0; b < BTQ_BUCKETS; b++)
		for (struct thread *t = btq[b].head; t; t = t->next)
			kprintf("sched: blocked %s(%u) cpu%u on %p state %d\n", t->name, t->tid, t->cpu,
				t->wait_key, t->state);
}

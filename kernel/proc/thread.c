#include "kernel/include/kov_hooks.h"
#include "thread.h"
#include "../arch/percpu.h"
#include "common/lib/spinlock.h"
#include "../mm/kmem.h"
#include "../arch/platform.h"
#include "../drivers/console.h"
#include "../arch/cpu.h"
#include "../mm/mmu.h"
#include "common/co/cobj.h"
#include "common/lib/string.h"
#include "../arch/timer.h"
#include "kernel/include/kov_services.h"
#include "process.h"

#define BTQ_BUCKETS 1024   /* K42's BlockedThreadQueues: a hash of wait queues by address */

struct runqueue {
	struct spinlock lock;
	struct thread *head, *tail;
	struct thread *current, *idle;
	struct thread *dead;           /* exited thread to announce after the switch */
	struct thread *moving;         /* switched out to run elsewhere: placed after the switch */
	bool need_resched;
	bool turn_over;                /* need_resched from the tick: the running thread's turn ended */
	struct thread *timed;          /* blocked with a deadline (touched only by this CPU) */
	uint64_t switched_at;          /* timebase when current was switched in */
	unsigned jumps;                /* woken threads queued at the head since the last tick */
	unsigned io_jumps;             /* of them, woken by I/O (IO_JUMPS_PER_TICK) */
	volatile unsigned nr;          /* threads queued: with a running one, the CPU's load */
	unsigned balance_ticks;        /* ticks since this CPU last looked for a push */
	uint64_t pulled, pushed;       /* threads this CPU took while idle, gave away when loaded */
};

/* A CPU with this many threads (running and queued) more than the least loaded one gives it
 * one every BALANCE_TICKS ticks; idle CPUs pull at once (at their next idle-loop turn). */
#define BALANCE_TICKS 4
#define PUSH_IMBALANCE 2

/* Woken threads go to the head of their run queue, ahead of the threads that used up their
 * turn, so a chain of wake-ups (the NIC's interrupt, the network thread, the daemon) runs
 * through at once instead of waiting a tick per CPU-bound thread; at most this many per tick
 * and CPU, so threads that wake each other cannot starve the rest. */
#define WAKE_JUMPS_PER_TICK 8
/* A thread woken by a kernel thread (I/O: the network stack handing a program its data) has a
 * budget of its own, so user threads that wake each other thousands of times a tick (a mutex
 * handed back and forth) cannot push it to the tail behind CPU-bound threads' 10 ms turns: on
 * one CPU with pagestorm and sleepbench the median DCI ping was 2.4 ms that way. */
#define IO_JUMPS_PER_TICK 64

/* A woken thread preempts the one running on its CPU at once (at the next interrupt return,
 * system-call return or preemption point) if that one has had the CPU for this long, or if
 * the woken one is a kernel (I/O) thread and the running one is CPU-bound (it last left a CPU
 * preempted rather than blocking): a thread woken by I/O does not wait for a CPU-bound
 * thread's tick, even one switched in just before, while user threads that hand a lock back
 * and forth do not preempt each other, or a spinning lock holder, on every wake-up. A tick
 * ends no turn shorter than this either. In timebase ticks (set from the timebase frequency
 * at sched_init_cpu). */
static uint64_t wake_preempt_ticks;

static struct runqueue runqueues[MAX_CPUS];
/* Threads preempted in kernel code since their last quiescent point (thread.h). */
static struct spinlock kp_lock;
static struct thread *kp_head;
static struct { struct spinlock lock; struct thread *head; } btq[BTQ_BUCKETS];
static uint32_t next_tid = 1;
static uint32_t next_cpu;

extern char thread_start_asm[];

/* Callers have interrupts off or a spin lock held (no preemption, so no migration), or accept
 * a racy look (sched_cpu_busy). */
static struct runqueue *my_rq(void)
{
	return &runqueues[this_cpu()->index];
}

/* cpu->current and what the sampler reads of it (kernel/include/kov_services.h: svc_running). During
 * a switch that is the thread switching out, whose stack is still the one running, up to
 * switch_context(). A thread's process, its pid and its km never change while it can run. */
static void set_current(struct percpu *cpu, struct thread *t)
{
	struct process *p = t->proc;
	cpu->current = t;
	cpu->running_pid = p ? p->pid : 0;
	cpu->running_tid = t->tid;
	cpu->running_km = p ? p->km : 0;
}

static void enqueue(struct runqueue *q, struct thread *t)
{
	q->nr++;
	t->next = 0;
	if (q->tail)
		q->tail->next = t;
	else
		q->head = t;
	q->tail = t;
}

static void enqueue_head(struct runqueue *q, struct thread *t)
{
	q->nr++;
	t->next = q->head;
	q->head = t;
	if (!q->tail)
		q->tail = t;
}

static struct thread *dequeue(struct runqueue *q)
{
	struct thread *t = q->head;
	if (t) {
		q->head = t->next;
		if (!q->head)
			q->tail = 0;
		t->next = 0;
		q->nr--;
	}
	return t;
}

/* With q->lock held: takes out the queued thread nearest the tail that may run on `cpu`
 * (the one that waited least, so the least likely to be due soon), or 0. */
static struct thread *take_for(struct runqueue *q, unsigned cpu)
{
	struct thread *found = 0, *found_prev = 0, *prev = 0;
	for (struct thread *t = q->head; t; prev = t, t = t->next)
		if ((__atomic_load_n(&t->affinity, __ATOMIC_RELAXED) & (1u << cpu)) &&
		    !__atomic_load_n(&t->on_timed, __ATOMIC_ACQUIRE)) {
			found = t;
			found_prev = prev;
		}
	if (!found)
		return 0;
	if (found_prev)
		found_prev->next = found->next;
	else
		q->head = found->next;
	if (q->tail == found)
		q->tail = found_prev;
	found->next = 0;
	q->nr--;
	return found;
}

/* Threads running and queued on cpu (a racy look). */
static unsigned load_of(unsigned cpu)
{
	const struct runqueue *q = &runqueues[cpu];
	return __atomic_load_n(&q->nr, __ATOMIC_RELAXED) + (q->current && q->current != q->idle);
}

/* Both run-queue locks, lower CPU first (interrupts off). */
static void lock_pair(unsigned a, unsigned b)
{
	spin_lock(&runqueues[a < b ? a : b].lock);
	spin_lock(&runqueues[a < b ? b : a].lock);
}

static void unlock_pair(unsigned a, unsigned b)
{
	spin_unlock(&runqueues[a].lock);
	spin_unlock(&runqueues[b].lock);
}

static void kick(unsigned cpu)
{
	if (cpu != this_cpu()->index && platform->kick)
		platform->kick(percpu_area[cpu].hw_id);
}

/* The least loaded online CPU in mask, preferring `prefer` on a tie; MAX_CPUS if none. */
static unsigned least_loaded(uint32_t mask, unsigned prefer)
{
	unsigned best = MAX_CPUS, best_load = ~0u;
	if (prefer < MAX_CPUS && (mask & (1u << prefer)) && percpu_area[prefer].online) {
		best = prefer;
		best_load = load_of(prefer);
	}
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		if (!(mask & (1u << c)) || !percpu_area[c].online || c == prefer)
			continue;
		unsigned l = load_of(c);
		if (l < best_load) {
			best = c;
			best_load = l;
		}
	}
	return best;
}

/* With q->lock held and interrupts off: switch to the next runnable thread (or idle). The
 * caller has already put the current thread where it belongs (queue, wait queue, or dead).
 * `quiescent`: the outgoing thread holds no rep pointers (it blocks, yields or exits, or was
 * preempted in user mode); a thread preempted in the middle of kernel code may hold one. */
static void switch_locked(struct runqueue *q, bool quiescent)
{
	struct thread *prev = q->current, *next = dequeue(q);
	if (!next)
		next = q->idle;
	if (next == prev) {
		prev->state = THREAD_RUNNING;
		return;
	}
	next->state = THREAD_RUNNING;
	next->switches++;
	q->current = next;
	q->switched_at = mftb();
	struct percpu *cpu = this_cpu();
	/* A voluntary switch is a quiescent point: threads hold no rep pointers across one (except
	 * reps of objects they themselves keep alive). */
	if (quiescent || prev == q->idle)
		co_quiescent();
	km_sw(SW_CONTEXT_SWITCH, 0);
	set_current(cpu, next);
	cpu->kstack_top = next->stack ? (uint64_t)next->stack + next->stack_size : 0;
	mmu_switch_user(next->user_ctx);
	switch_context(&prev->ctx, &next->ctx);
}

static void place(struct thread *t);
static void voluntary_switch_begins(struct thread *t);

/* The second half of every switch, run by the thread that was switched in: on the CPU it runs
 * on now, which need not be the one it was switched out on. */
static void finish_switch(int irq)
{
	struct runqueue *q = my_rq();
	struct thread *dead = q->dead, *moving = q->moving;
	q->dead = q->moving = 0;
	spin_unlock(&q->lock);
	if (moving)
		place(moving);   /* its registers are saved now: another CPU may run it */
	irq_restore(irq);
	if (dead) {
		/* Its registers are saved and its stack is no longer in use: joiners may free it. */
		__atomic_store_n(&dead->reaped, true, __ATOMIC_RELEASE);
		thread_wake_all(dead);
	}
}

void sched_init_cpu(void)
{
	struct runqueue *q = my_rq();
	struct thread *idle = kmalloc(sizeof *idle);
	if (!idle) {
		kprintf("sched: no memory for the idle thread\n");
		machine_halt();
	}
	memcpy(idle->name, "idle", 5);
	idle->cpu = this_cpu()->index;
	idle->state = THREAD_RUNNING;
	idle->tid = 0;
	idle->affinity = 1u << idle->cpu;
	q->idle = q->current = idle;
	set_current(this_cpu(), idle);
	wake_preempt_ticks = machine.tb_freq / 1000;   /* 1 ms */
}

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

long thread_join(struct thread *t)
{
	thread_block_on(t, not_reaped);
	long code = t->exit_code;
	kfree(t->net_buf);
	kfree(t->stack);
	kfree(t);
	return code;
}

/* Interrupts off. */
static void kp_add(struct thread *t)
{
	spin_lock(&kp_lock);
	t->kernel_preempted = true;
	t->kp_next = kp_head;
	kp_head = t;
	spin_unlock(&kp_lock);
}

static void kp_remove(struct thread *t)
{
	spin_lock(&kp_lock);
	for (struct thread **p = &kp_head; *p; p = &(*p)->kp_next)
		if (*p == t) {
			*p = t->kp_next;
			break;
		}
	t->kernel_preempted = false;
	spin_unlock(&kp_lock);
}

void thread_kernel_entry(void)
{
	struct thread *t = current_thread();
	if (t)
		t->episode = __atomic_load_n(&co_retired, __ATOMIC_ACQUIRE);
}

void thread_quiescent(void)
{
	struct thread *t = current_thread();
	if (t && t->kernel_preempted)
		kp_remove(t);
}

uint64_t sched_oldest_episode(void)
{
	uint64_t oldest = UINT64_MAX;
	if (!__atomic_load_n(&kp_head, __ATOMIC_ACQUIRE))
		return oldest;
	int irq = irq_save();
	spin_lock(&kp_lock);
	for (struct thread *t = kp_head; t; t = t->kp_next)
		if (t->episode < oldest)
			oldest = t->episode;
	spin_unlock(&kp_lock);
	irq_restore(irq);
	return oldest;
}

/* A voluntary switch (block, yield, exit) is the thread's quiescent point; when it runs
 * again it starts a new episode (interrupts off). */
static void voluntary_switch_begins(struct thread *t)
{
	if (t->kernel_preempted)
		kp_remove(t);
}

static void voluntary_switch_ends(void)
{
	thread_kernel_entry();
}

/* With q->lock held: the running thread goes back to the queue (at the tail when its turn is
 * over; second, behind the thread that woke and preempted it, when it was cut short), or, if
 * its affinity no longer has this CPU, to the next thread to place elsewhere after the switch. */
static void requeue_current(struct runqueue *q, bool turn_over)
{
	struct thread *t = q->current;
	if (t == q->idle)
		return;
	t->state = THREAD_RUNNABLE;
	if (!(__atomic_load_n(&t->affinity, __ATOMIC_RELAXED) & (1u << this_cpu()->index))) {
		q->moving = t;
	} else if (turn_over || !q->head) {
		enqueue(q, t);
	} else {
		t->next = q->head->next;
		q->head->next = t;
		if (q->tail == q->head)
			q->tail = t;
		q->nr++;
	}
}

void thread_yield(void)
{
	co_reclaim();
	int irq = irq_save();
	/* A yield is a quiescent point even when nothing else is runnable (counted with
	 * interrupts off: on the CPU the thread is on). */
	co_quiescent();
	struct runqueue *q = my_rq();
	voluntary_switch_begins(q->current);
	spin_lock(&q->lock);
	requeue_current(q, true);
	switch_locked(q, true);
	finish_switch(irq);
	voluntary_switch_ends();
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

static void make_runnable(struct thread *t);

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

/* Tick (interrupts off): wakes this CPU's threads whose deadline has passed, if they are
 * still blocked on what they waited for. */
static void wake_expired(struct runqueue *q)
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
	if (io ? q->io_jumps < IO_JUMPS_PER_TICK : q->jumps < WAKE_JUMPS_PER_TICK) {
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
	 * otherwise a woken thread preempts one that has had the CPU for wake_preempt_ticks. */
	struct thread *cur = q->current;
	bool preempt = cur != q->idle && ((cur->cpu_bound && io) ||
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

/* Interrupts off, no run-queue lock held: puts t (runnable, in no queue, registers saved) on
 * the least loaded CPU its affinity allows. */
static void place(struct thread *t)
{
	uint32_t mask = __atomic_load_n(&t->affinity, __ATOMIC_RELAXED);
	unsigned c = least_loaded(mask, t->cpu);
	if (c == MAX_CPUS)
		c = t->cpu;   /* no allowed CPU online (refused when set): stay */
	struct runqueue *q = &runqueues[c];
	spin_lock(&q->lock);
	if (c != t->cpu)
		t->migrations++;
	t->cpu = c;
	enqueue(q, t);
	spin_unlock(&q->lock);
	kick(c);
}

/* Moves one queued thread from CPU `from` to CPU `to` (interrupts off, neither lock held);
 * true if one could go. */
static bool move_one(unsigned from, unsigned to)
{
	struct runqueue *src = &runqueues[from], *dst = &runqueues[to];
	lock_pair(from, to);
	struct thread *t = take_for(src, to);
	if (t) {
		t->cpu = to;
		t->migrations++;
		enqueue(dst, t);
	}
	unlock_pair(from, to);
	return t != 0;
}

/* Tick: a CPU with PUSH_IMBALANCE threads more than the least loaded CPU gives it a queued
 * thread; a queued thread whose affinity excludes this CPU goes where it may run. */
static void balance_push(struct runqueue *q)
{
	unsigned me = this_cpu()->index;
	if (!q->nr)
		return;
	unsigned to = least_loaded(AFFINITY_ALL & ~(1u << me), MAX_CPUS);
	if (to < MAX_CPUS && load_of(me) >= load_of(to) + PUSH_IMBALANCE && move_one(me, to)) {
		q->pushed++;
		kick(to);
	}
	spin_lock(&q->lock);
	struct thread *stray = 0;
	for (struct thread *t = q->head; t && !stray; t = t->next)
		if (!(__atomic_load_n(&t->affinity, __ATOMIC_RELAXED) & (1u << me)) &&
		    !__atomic_load_n(&t->on_timed, __ATOMIC_ACQUIRE))
			stray = t;
	unsigned dest = stray ? least_loaded(stray->affinity, MAX_CPUS) : MAX_CPUS;
	spin_unlock(&q->lock);
	if (dest < MAX_CPUS && move_one(me, dest))   /* moves the tail-most one allowed there */
		kick(dest);
}

bool sched_pull(void)
{
	if (cpus_online < 2)
		return false;
	int irq = irq_save();
	unsigned me = this_cpu()->index, from = MAX_CPUS, most = 0;
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		if (c == me || !percpu_area[c].online)
			continue;
		/* Worth taking only from a CPU that runs a thread and has another waiting. */
		unsigned queued = __atomic_load_n(&runqueues[c].nr, __ATOMIC_RELAXED);
		if (queued && load_of(c) >= 2 && queued > most) {
			most = queued;
			from = c;
		}
	}
	bool took = from < MAX_CPUS && move_one(from, me);
	if (took)
		my_rq()->pulled++;
	irq_restore(irq);
	return took;
}

void thread_set_affinity(struct thread *t, uint32_t mask)
{
	__atomic_store_n(&t->affinity, mask, __ATOMIC_RELEASE);
}

void sched_tick(void)
{
	struct runqueue *q = my_rq();
	q->jumps = q->io_jumps = 0;   /* racy against wakers on other CPUs: bounds, not exact counts */
	if (q->timed)
		wake_expired(q);
	if (cpus_online > 1 && ++q->balance_ticks >= BALANCE_TICKS) {
		q->balance_ticks = 0;
		balance_push(q);
	}
	/* A turn is one tick: switch whenever someone else is waiting, or when the running
	 * thread may no longer run here; but a thread has the CPU for at least
	 * wake_preempt_ticks. A woken thread is often switched in just before a tick (under QEMU
	 * its wake-up and the tick arrive together): now that system calls take interrupts, that
	 * tick would preempt it tens of microseconds later, inside its first system call, behind
	 * the threads it had just preempted (seen for dcid on almost every DCI ping under load). */
	struct thread *cur = q->current;
	bool turn_over = q->head && mftb() - q->switched_at >= wake_preempt_ticks;
	if (cur != q->idle && (turn_over || !(cur->affinity & (1u << this_cpu()->index)))) {
		q->need_resched = true;
		q->turn_over = true;
	}
}

void sched_preempt(struct trap_frame *tf)
{
	struct runqueue *q = my_rq();
	if (!q->need_resched || this_cpu()->preempt_count)
		return;
	q->need_resched = false;
	bool in_kernel = !(tf->msr & MSR_PR);
	if (in_kernel && q->current != q->idle && !q->current->kernel_preempted)
		kp_add(q->current);   /* it may hold rep pointers until its next quiescent point */
	if (q->current != q->idle)
		q->current->cpu_bound = true;
	spin_lock(&q->lock);
	requeue_current(q, q->turn_over);
	q->turn_over = false;
	switch_locked(q, !in_kernel);
	finish_switch(0);
}

bool sched_cpu_busy(void)
{
	return __atomic_load_n(&my_rq()->head, __ATOMIC_ACQUIRE) != 0;
}

bool sched_run_queued(void)
{
	struct runqueue *q = my_rq();
	if (!__atomic_load_n(&q->head, __ATOMIC_ACQUIRE))
		return false;
	thread_yield();
	return true;
}

void sched_dump(void)
{
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		struct runqueue *q = &runqueues[c];
		if (!q->idle)
			continue;
		kprintf("sched: cpu%u current %s(%u) pulled %lu pushed %lu queue:", c, q->current->name,
			q->current->tid, (unsigned long)q->pulled, (unsigned long)q->pushed);
		for (struct thread *t = q->head; t; t = t->next)
			kprintf(" %s(%u)", t->name, t->tid);
		kprintf("\n");
	}
	for (unsigned b = 0; b < BTQ_BUCKETS; b++)
		for (struct thread *t = btq[b].head; t; t = t->next)
			kprintf("sched: blocked %s(%u) cpu%u on %p state %d\n", t->name, t->tid, t->cpu,
				t->wait_key, t->state);
}

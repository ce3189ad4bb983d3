/* The run queues, shared by the scheduler (sched.c), the threads' life and wait queues
 * (thread.c) and migration (sched_balance.c); not for use outside kernel/proc/.
 * Locks and their order: sched.c. */
#ifndef KOV_RUNQUEUE_H
#define KOV_RUNQUEUE_H

#include "thread.h"
#include "common/lib/spinlock.h"
#include "kernel/arch/platform.h"
#include "kernel/arch/percpu.h"

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
	uint64_t window_start;         /* timebase: the prompt class's current window */
	uint64_t prompt_used;          /* timebase prompt threads ran in it while first */
	uint64_t prompt_since;         /* when the running thread's time was last charged: at a
	                                  tick, or at its switch-in (sched.c, prompt_charge) */
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
extern uint64_t wake_preempt_ticks;

/* The prompt class (SYS_SCHED_SETCLASS; the DCI daemon is in it, so that a monitor's answers
 * do not wait behind the workload it watches): a prompt thread goes to the head of its queue
 * when woken, preempts a user thread of the normal class at once, is preempted only by prompt
 * and kernel threads, and keeps the CPU at a tick unless one of those waits. That precedence
 * lasts for up to PROMPT_SHARE_PERCENT of each PROMPT_WINDOW_MS of the CPU; past it, prompt
 * threads are normal ones until the window ends, so a busy one cannot starve the rest of the
 * CPU. The daemon draining an overload can use up that share (the throttle bounds its cost
 * over the whole machine, not over its own CPU), and then waits like any thread. */
#define PROMPT_WINDOW_MS 100
#define PROMPT_SHARE_PERCENT 50
extern uint64_t prompt_window_ticks, prompt_budget_ticks;   /* timebase (sched_init_cpu) */

/* Whether t is first on q: of the prompt class, with the CPU's prompt time left. */
static inline bool prompt_first(const struct runqueue *q, const struct thread *t)
{
	return t->prompt && q->prompt_used < prompt_budget_ticks;
}

extern struct runqueue runqueues[MAX_CPUS];

/* Callers have interrupts off or a spin lock held (no preemption, so no migration), or accept
 * a racy look (sched_cpu_busy). */
static inline struct runqueue *my_rq(void)
{
	return &runqueues[this_cpu()->index];
}

static inline void enqueue(struct runqueue *q, struct thread *t)
{
	q->nr++;
	t->next = 0;
	if (q->tail)
		q->tail->next = t;
	else
		q->head = t;
	q->tail = t;
}

static inline void enqueue_head(struct runqueue *q, struct thread *t)
{
	q->nr++;
	t->next = q->head;
	q->head = t;
	if (!q->tail)
		q->tail = t;
}

static inline struct thread *dequeue(struct runqueue *q)
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

static inline void kick(unsigned cpu)
{
	if (cpu != this_cpu()->index && platform->kick)
		platform->kick(percpu_area[cpu].hw_id);
}

/* sched.c: the switch itself (q->lock held, interrupts off; the caller has put the current
 * thread where it belongs) and its second half, run by the thread switched in. */
void switch_locked(struct runqueue *q, bool quiescent);
void finish_switch(int irq);
/* Takes t off the list of threads preempted in kernel code (thread.h). */
void kp_remove(struct thread *t);

/* A voluntary switch (block, yield, exit) is the thread's quiescent point; when it runs
 * again it starts a new episode (interrupts off). */
static inline void voluntary_switch_begins(struct thread *t)
{
	if (t->kernel_preempted)
		kp_remove(t);
}

static inline void voluntary_switch_ends(void)
{
	thread_kernel_entry();
}

/* thread.c: the tick's wake-ups of timed waits, and the blocked threads for sched_dump. */
void wake_expired(struct runqueue *q);
void blocked_dump(void);

/* sched_balance.c */
/* The least loaded online CPU in mask, preferring `prefer` on a tie; MAX_CPUS if none. */
unsigned least_loaded(uint32_t mask, unsigned prefer);
/* Interrupts off, no run-queue lock held: puts t (runnable, in no queue, registers saved) on
 * the least loaded CPU its affinity allows. */
void place(struct thread *t);
/* Tick: a CPU with PUSH_IMBALANCE threads more than the least loaded CPU gives it a queued
 * thread; a queued thread whose affinity excludes this CPU goes where it may run. */
void balance_push(struct runqueue *q);

#endif

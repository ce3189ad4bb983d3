/* The scheduler: switching between threads, the tick's turns, preemption, and the threads
 * preempted in kernel code.
 *
 * Locks, what each protects, and the order they are taken in (all with interrupts off):
 *   btq[b].lock (thread.c)  a bucket of the blocked-thread queues: its list and, for the
 *                           threads in it, wait_key and next.
 *   runqueue.lock           one CPU's queue (head, tail, nr, current, dead, moving) and the
 *                           state of the threads in it. A switch takes the outgoing thread's
 *                           lock and the incoming thread releases it (finish_switch), so a
 *                           thread is never picked up before its registers are saved.
 *   kp_lock (sched.c)       the list of threads preempted in kernel code (kp_head, kp_next).
 * Order: a btq bucket lock before a run-queue lock (thread_block_on: it queues itself, then
 * switches away); two run-queue locks lower CPU first (lock_pair); kp_lock and the console's
 * lock are leaves, taken with no other of these held. No btq lock is taken with a run-queue
 * lock held, and a thread never blocks holding any of them. Fields touched only by their own
 * CPU with interrupts off (timed, jumps, balance_ticks, need_resched) need no lock. */
#include "runqueue.h"
#include "process.h"
#include "kernel/include/kov_hooks.h"
#include "kernel/mm/kmem.h"
#include "kernel/mm/mmu.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/console.h"
#include "common/co/cobj.h"
#include "common/lib/string.h"

uint64_t wake_preempt_ticks;   /* runqueue.h */
uint64_t prompt_window_ticks, prompt_budget_ticks;

struct runqueue runqueues[MAX_CPUS];
/* Threads preempted in kernel code since their last quiescent point (thread.h). */
static struct spinlock kp_lock;
static struct thread *kp_head;

/* cpu->current and what the sampler reads of it (kernel/include/kov_services.h: svc_running). During
 * a switch that is the thread switching out, whose stack is still the one running, up to
 * switch_context(). A thread's process, its pid, km and heap account never change while it can
 * run. */
static void set_current(struct percpu *cpu, struct thread *t)
{
	struct process *p = t->proc;
	cpu->current = t;
	cpu->running_pid = p ? p->pid : 0;
	cpu->running_tid = t->tid;
	cpu->running_km = p ? p->km : 0;
	cpu->heap_account = p ? p->heap_account : KMEM_KERNEL;
}

/* Charges the running thread's time since it was last charged (at its switch-in at the
 * latest) to the prompt class, if it ran first as one (interrupts off; at every tick, and at
 * every switch before q->current moves on to the next thread). */
static void prompt_charge(struct runqueue *q, uint64_t now)
{
	if (prompt_first(q, q->current))
		q->prompt_used += now - q->prompt_since;
	q->prompt_since = now;
}

/* With q->lock held and interrupts off: switch to the next runnable thread (or idle). The
 * caller has already put the current thread where it belongs (queue, wait queue, or dead).
 * `quiescent`: the outgoing thread holds no rep pointers (it blocks, yields or exits, or was
 * preempted in user mode); a thread preempted in the middle of kernel code may hold one. */
void switch_locked(struct runqueue *q, bool quiescent)
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
	uint64_t now = mftb();
	prompt_charge(q, now);
	q->current = next;
	prev->run_ticks += now - q->switched_at;
	q->switched_at = now;
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

/* The second half of every switch, run by the thread that was switched in: on the CPU it runs
 * on now, which need not be the one it was switched out on. */
void finish_switch(int irq)
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
	prompt_window_ticks = machine.tb_freq / 1000 * PROMPT_WINDOW_MS;
	prompt_budget_ticks = prompt_window_ticks / 100 * PROMPT_SHARE_PERCENT;
}

/* Where t leaves its CPU without a quiescent point, written before it stops running (the
 * release orders it before requeue_current's state), for sched_kp_outside. */
static void kp_left_at(struct thread *t, uint64_t sp, uint64_t pc, uint64_t lr)
{
	t->kp_sp = sp;
	t->kp_pc = pc;
	t->kp_lr = lr;
	__atomic_thread_fence(__ATOMIC_RELEASE);
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

void kp_remove(struct thread *t)
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
	 * the threads it had just preempted (seen for dcid on almost every DCI ping under load).
	 * A prompt thread keeps the CPU unless another one, or a kernel thread, waits (runqueue.h). */
	struct thread *cur = q->current;
	uint64_t now = mftb();
	prompt_charge(q, now);
	if (now - q->window_start >= prompt_window_ticks) {
		q->window_start = now;
		q->prompt_used = 0;
	}
	bool keeps = prompt_first(q, cur) && !(q->head && (q->head->prompt || !q->head->proc));
	bool turn_over = q->head && !keeps && now - q->switched_at >= wake_preempt_ticks;
	if (cur != q->idle && (turn_over || !(cur->affinity & (1u << this_cpu()->index)))) {
		q->need_resched = true;
		q->turn_over = true;
	}
}

void thread_pause(void)
{
	int irq = irq_save();
	struct runqueue *q = my_rq();
	if (q->current != q->idle) {
		kp_left_at(q->current, (uint64_t)__builtin_frame_address(0), 0, 0);
		if (!q->current->kernel_preempted)
			kp_add(q->current);
	}
	spin_lock(&q->lock);
	requeue_current(q, true);
	switch_locked(q, false);
	finish_switch(irq);
}

bool sched_kp_outside(uint64_t since, void *const *reps, uint32_t *walked)
{
	struct thread *me = current_thread();
	bool all = true;
	int irq = irq_save();
	spin_lock(&kp_lock);
	for (struct thread *t = kp_head; t; t = t->kp_next) {
		if (t == me || t->episode >= since || t->swap_clear == since)
			continue;
		if (co_thread_left_outside(t, reps, walked))
			t->swap_clear = since;
		else
			all = false;
	}
	spin_unlock(&kp_lock);
	irq_restore(irq);
	return all;
}

void sched_preempt(struct trap_frame *tf)
{
	struct runqueue *q = my_rq();
	if (!q->need_resched || this_cpu()->preempt_count)
		return;
	q->need_resched = false;
	bool in_kernel = !(tf->msr & MSR_PR);
	if (in_kernel && q->current != q->idle) {
		kp_left_at(q->current, tf->gpr[1], tf->nip, tf->lr);
		if (!q->current->kernel_preempted)
			kp_add(q->current);   /* it may hold rep pointers until its next quiescent point */
	}
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
	blocked_dump();
}

uint64_t svc_thread_cpu_ticks(void)
{
	int irq = irq_save();
	struct runqueue *q = my_rq();
	uint64_t t = q->current->run_ticks + (mftb() - q->switched_at);
	irq_restore(irq);
	return t;
}

uint64_t svc_cpu_idle_ticks(unsigned cpu)
{
	const struct runqueue *q = &runqueues[cpu];
	const struct thread *idle = q->idle;
	if (!idle)
		return 0;
	uint64_t t = __atomic_load_n(&idle->run_ticks, __ATOMIC_RELAXED);
	if (__atomic_load_n(&q->current, __ATOMIC_RELAXED) == idle) {
		uint64_t since = __atomic_load_n(&q->switched_at, __ATOMIC_RELAXED), now = mftb();
		t += now > since ? now - since : 0;
	}
	return t;
}

/* Kernel threads and the per-CPU scheduler.
 *
 * Every CPU has a run queue of runnable threads and an idle thread (the flow that booted the
 * CPU). Threads start on the CPU they were created for and migrate: an idle CPU pulls a queued
 * thread from the busiest one, and every few ticks a CPU with two or more threads more than
 * the least loaded one pushes one there; a thread's affinity (CPU mask) bounds both. The
 * decrementer preempts a running thread (round robin, one tick per turn), in the kernel too,
 * unless it holds a spin lock. Switching follows xv6: the
 * outgoing thread takes its CPU's run-queue lock with interrupts off, and whoever runs next
 * releases it, so a thread is never picked up before its registers are saved. The code:
 * sched.c (switching, ticks; its locks and the order they are taken in), thread.c (life,
 * blocking and waking), sched_balance.c (migration). */
#ifndef KOV_THREAD_H
#define KOV_THREAD_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "../arch/trap.h"
#include "../arch/percpu.h"
#include "kernel/lock/wait.h"

struct process;

enum thread_state { THREAD_RUNNABLE, THREAD_RUNNING, THREAD_BLOCKED, THREAD_DEAD };

/* Registers a thread keeps across a switch (the ELFv1 non-volatile set). */
struct context {
	uint64_t r1, r2, lr, cr;
	uint64_t gpr[18];          /* r14-r31 */
};

struct thread {
	struct context ctx;
	struct thread *next;       /* run queue or blocked-thread queue link */
	volatile enum thread_state state;
	unsigned int cpu;
	uint32_t tid;
	char name[24];
	uint8_t *stack;            /* 0 for the idle threads (they run on the boot stacks) */
	uint64_t stack_size;
	void (*entry)(void *);
	void *arg;
	long exit_code;
	volatile bool reaped;      /* exited and switched away from: safe to free */
	const void *wait_key;      /* what the thread is blocked on */
	uint64_t switches;         /* times it was switched in */
	uint64_t run_ticks;        /* timebase it ran until its last switch out (sched.c) */
	struct process *proc;      /* user process the thread belongs to, 0 for kernel threads */
	uint64_t user_ctx;         /* its VSID context */
	uint64_t futex_addr;       /* user word a futex wait is on, and the value it waits out */
	uint32_t futex_expected;
	uint64_t deadline_ns;      /* thread_block_until: when to give up */
	struct thread *timed_next; /* its CPU's list of threads blocked with a deadline */
	bool timed_out;
	volatile bool on_timed;    /* in that list: the thread does not migrate meanwhile */
	volatile uint32_t affinity; /* CPUs it may run on, a bit per CPU */
	uint64_t migrations;       /* times the balancer or its affinity moved it */
	uint64_t episode;          /* co_retired when it last entered the kernel or resumed from a
	                              voluntary switch: it holds no rep of an object retired later */
	bool kernel_preempted;     /* preempted in kernel code since its last quiescent point */
	bool cpu_bound;            /* it last left the CPU preempted, not blocking */
	volatile bool prompt;      /* of the prompt class (runqueue.h, SYS_SCHED_SETCLASS) */
	struct thread *kp_next;    /* the list of such threads */
	/* Where it was last switched out without a quiescent point, for a hot swap's drain to
	 * walk (sched_kp_outside): its stack pointer, and the pc and LR of a preemption (0 for a
	 * pause, which is an ordinary call). */
	uint64_t kp_sp, kp_pc, kp_lr;
	uint64_t swap_clear;       /* the drain stamp of the last swap that found it outside */
	int net_errno;             /* the network stack's errno for this thread */
	void *net_buf;             /* socket calls' bounce buffer, made on first use */
};

#define THREAD_STACK_SIZE (16 * 1024)

/* Makes this CPU's current flow its idle thread; call once per CPU before anything blocks. */
void sched_init_cpu(void);

/* Creates a runnable thread on `cpu`, pinned there (affinity that CPU alone); -1 or an offline
 * CPU: spread round robin over the online CPUs, free to migrate. */
struct thread *thread_create(const char *name, void (*fn)(void *), void *arg, int cpu);
/* The same for a thread of a user process (proc and its VSID context set before it runs). */
struct thread *thread_create_user(const char *name, void (*fn)(void *), void *arg, int cpu,
				  struct process *proc, uint64_t user_ctx);
/* Ends the calling thread. */
void thread_exit(long code) __attribute__((noreturn));
/* Waits for a thread to exit, frees it and returns its exit code. */
long thread_join(struct thread *t);
/* The two halves of a join, for callers that must unlist the thread between them: waiting
 * until t has exited and been switched away from (wake-ups on t that come early or late are
 * waited through), and freeing it (returns its exit code). */
void thread_wait_reaped(struct thread *t);
long thread_free(struct thread *t);
/* Gives the CPU to the next runnable thread, if any. */
void thread_yield(void);

/* The running thread, in one load from this CPU's area: a thread preempted and moved to another
 * CPU between two steps of a longer lookup would find another CPU's thread. */
static inline struct thread *current_thread(void)
{
	struct thread *t;
	__asm__ volatile("ld %0, %1(13)" : "=r"(t) : "i"(offsetof(struct percpu, current)));
	return t;
}

#define AFFINITY_ALL ((1u << MAX_CPUS) - 1)
/* Restricts t to the CPUs in mask (a bit per CPU; at least one online). A queued thread moves
 * at its CPU's next balancing pass, a running one when it is next switched out. */
void thread_set_affinity(struct thread *t, uint32_t mask);
/* Clustered-object reclamation with kernel preemption (kernel/co/cobj.c). A thread preempted in
 * kernel code may hold rep pointers until its next quiescent point, on whatever CPU it resumes;
 * per-CPU quiescent counts cannot see that, so such threads are listed until they return to
 * user mode or block, yield or exit. thread_kernel_entry: a user thread enters the kernel
 * (system call, page fault); thread_quiescent: the running thread holds no rep pointers
 * (interrupts off); sched_oldest_episode: the oldest episode of the listed threads (UINT64_MAX
 * for none): objects retired at or after it may still be in use. */
void thread_kernel_entry(void);
void thread_quiescent(void);
uint64_t sched_oldest_episode(void);
/* Hot swaps (kernel/co/cobj_swap_glue.c). sched_kp_outside: whether every thread listed above
 * whose episode began before `since` (a stamp taken from co_retired after the interposition)
 * is known to be out of the methods of the object with these reps: switched out with no frame
 * of them on its stack (*walked counts the stacks walked). thread_pause: gives the CPU to the
 * next runnable thread like a preemption, without a quiescent point (interrupts on, no lock
 * held). */
bool sched_kp_outside(uint64_t since, void *const *reps, uint32_t *walked);
/* Whether t, switched out, has no frame of those reps on its stack (cobj_swap_glue.c). */
bool co_thread_left_outside(const struct thread *t, void *const *reps, uint32_t *walked);
void thread_pause(void);

/* Idle CPU: takes a runnable thread from the busiest CPU; true if it took one. */
bool sched_pull(void);

/* Blocking on an address and waking: kernel/lock/wait.h (thread.c). */

/* Timer hook: counts the tick and asks for a switch when the turn is over. */
void sched_tick(void);
/* Called on the way out of an interrupt: switches if a tick asked for it. */
void sched_preempt(struct trap_frame *tf);
/* Runs queued threads from the idle loop; returns false if the queue was empty. */
bool sched_run_queued(void);
/* True when other threads wait to run on this CPU (it will not go idle soon). */
bool sched_cpu_busy(void);

void switch_context(struct context *from, struct context *to);

/* Prints every CPU's current thread and run queue, and every blocked thread (for NMI reports). */
void sched_dump(void);

#endif

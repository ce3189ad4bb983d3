/* Per-CPU data. Each CPU keeps a pointer to its own area in SPRG0 and, in the kernel, in r13. */
#ifndef KOV_PERCPU_H
#define KOV_PERCPU_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "kernel/abi/kov_limits.h"

struct thread;
struct km_proc;
struct km_cpu;

#define MAX_CPUS KOV_MAX_CPUS
#define CPU_STACK_SIZE (32 * 1024)
#define BOOT_STACK_SIZE (32 * 1024)   /* boot/head.S */

struct percpu {
	uint64_t scratch[4];       /* exception entry: r9, r10, r11 of the interrupted code */
	uint64_t pmu_entry_tb;     /* timebase at the PMU interrupt's entry (boot/vectors.S): the
	                              monitor's cost bound counts its handler from there */
	uint64_t kernel_toc;       /* the kernel's TOC (r2), for the exception entries */
	uint64_t stack_top;        /* initial kernel stack of this CPU */
	uint64_t kstack_top;       /* kernel stack of the running thread (entries from user mode) */
	uint64_t user_context;     /* VSID context of the running process, 0 for none */
	uint32_t index;            /* logical CPU number, 0 = boot CPU */
	uint32_t hw_id;            /* interrupt server number (FDT "reg") */
	volatile uint32_t online;  /* set by the CPU itself once it runs kernel C code */
	uint32_t pad;
	uint64_t dec_period;       /* timebase ticks between decrementer interrupts */
	uint64_t next_tick_tb;     /* timebase of the next programmed tick */
	volatile uint64_t ticks;   /* decrementer interrupts taken */
	uint64_t slb_misses;       /* segment misses handled (0x380, 0x480) */
	uint64_t hpt_misses;       /* page-table misses handled (0x300, 0x400), kernel and user */
	uint32_t slb_next;         /* next SLB entry to replace (round robin above the bolted) */
	volatile uint64_t quiescent; /* quiescent points passed (clustered-object reclamation) */
	uint64_t xcall_seen;       /* last cross-CPU call this CPU ran */
	uint32_t preempt_count;    /* spin locks held: no preemption while non-zero (changed only
	                              through r13 itself: kernel/lock/spinlock.c) */
	struct thread *current;    /* the running thread, read in one load (thread.h) */
	/* Its pid (0 in a kernel thread), tid and process's monitor state, set with `current`, so
	 * that the sampler reads them in three loads (kernel/include/kov_services.h: svc_running). */
	uint32_t running_pid, running_tid;
	struct km_proc *running_km;
	uint32_t heap_account;     /* whom kmalloc charges (kernel/mm/kmem.h), set with `current` */
	struct km_cpu *km_cpu;     /* the monitor's state for this CPU (kov/km_internal.h), from
	                              before the first PMU interrupt (km_probe) */
	uint64_t ipis;             /* inter-processor interrupts received */
	uint64_t stray_interrupts; /* external interrupts from sources nobody handles */
	volatile uint32_t uaccess_nofault; /* user accesses fail instead of faulting pages in */
	uint64_t ticks_rearmed;    /* decrementer interrupts found lost and re-armed (timer.c) */
	uint64_t ticks_pending;    /* ticks found overdue but still pending (timer.c) */
	uint64_t ticks_skipped;    /* ticks missed altogether: due a period or more before taken */
	uint64_t turn_handed_at;   /* the step of the waiting work it last handed its turn on for,
	                              plus one (smp_kind.h: smp_hand_on_turn) */
	uint64_t turns_handed;     /* turns it handed on for work waiting on another CPU */
	uint64_t pending_seen;     /* the tick last counted so */
	/* Idle and its wake-ups (kernel/arch/wake_guard.c). */
	volatile uint32_t ceding;  /* in H_CEDE (set just before it, cleared just after) */
	uint32_t pad2;
	uint64_t cede_msr;         /* the MSR H_CEDE was called with */
	uint64_t cede_sp;          /* and the stack pointer */
	uint64_t wake_prods;       /* ceded CPUs this CPU found asleep past their tick and prodded */
	uint64_t wake_rescues;     /* times this CPU was found halted at a vector after H_CEDE */
	uint64_t wake_resets;      /* hypervisor-watchdog resets this CPU took */
	uint64_t wake_late_max_tb; /* the longest this CPU slept past a due tick (timebase) */
	uint64_t reset_deadline;   /* the watchdog deadline of the last reset this CPU took */
	uint64_t prod_after;       /* timebase before which no neighbour prods this CPU again */
};

extern struct percpu percpu_area[MAX_CPUS];
extern unsigned int cpus_online;

static inline struct percpu *this_cpu(void)
{
	struct percpu *p;
	__asm__ volatile("mr %0, 13" : "=r"(p));
	return p;
}

/* The running thread's tid, in one load from this CPU's area (as thread.h's current_thread()):
 * for the sleep locks (kernel/lock/sleeplock.c), which need no more of the thread. */
static inline uint32_t running_tid(void)
{
	uint32_t tid;
	__asm__ volatile("lwz %0, %1(13)" : "=r"(tid) : "i"(offsetof(struct percpu, running_tid)));
	return tid;
}

/* Sets up area `index` and points SPRG0 and r13 at it; call first thing on each CPU. */
void percpu_init_self(unsigned int index, uint32_t hw_id);

/* No preemption on this CPU until the matching enable, as while a spin lock is held
 * (kernel/lock/spinlock.c). */
void preempt_disable(void);
void preempt_enable(void);

#endif

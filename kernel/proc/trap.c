/* Exception dispatch (from boot/vectors.S): each vector to the layer that handles it, and the
 * scheduler's and the monitor's turns on the way. Above kernel/arch/ so that the exception
 * code there includes no higher layer; the handlers are called directly, not through pointers
 * registered at boot, which would add an indirect call to every system call and fault. The
 * performance monitor's interrupt does not come here (boot/vectors.S: pmu_common). */
#include "thread.h"
#include "process.h"
#include "syscall.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/platform.h"
#include "kernel/arch/timer.h"
#include "kernel/arch/wake_guard.h"
#include "kernel/arch/hcall.h"
#include "kernel/arch/console.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/smp_kind.h"
#include "kernel/mm/mmu.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/kmem.h"
#include "kernel/include/kov_hooks.h"

/* Handlers start in real mode; everything but the MMU's fast paths runs translated, so it can
 * reach user memory and the local translation table. The return path turns it off again. */
static void translation_on(void)
{
	mtmsrd(mfmsr() | MSR_IR | MSR_DR);
	isync();
}

/* A user program did something fatal: report it and end the process. */
__attribute__((noreturn)) static void kill_process(const struct trap_frame *tf, const char *what,
						   uint64_t addr, long status)
{
	struct process *p = current_process();
	kprintf("kov: pid %u (%s) killed: %s at 0x%lx (pc 0x%lx)\n", p->pid, p->name, what,
		(unsigned long)addr, (unsigned long)tf->nip);
	process_exit(status);
}

#define DSISR_PROTECTION 0x08000000ull
#define DSISR_STORE 0x02000000ull
#define SRR1_ISI_NOEXEC 0x10000000ull
#define SRR1_ISI_PROTECTION 0x08000000ull

static void storage_fault(struct trap_frame *tf, bool user)
{
	bool data = tf->vector == 0x300 || tf->vector == 0x380;
	uint64_t ea = data ? tf->dar : tf->nip;
	bool write = tf->vector == 0x300 && (tf->dsisr & DSISR_STORE);
	bool refused = (tf->vector == 0x300 && (tf->dsisr & DSISR_PROTECTION)) ||
		       (tf->vector == 0x400 && (tf->msr & (SRR1_ISI_NOEXEC | SRR1_ISI_PROTECTION)));
	struct process *p = current_process();
	uint64_t resume;
	if (!user && uaccess_nofault_fixup(tf->nip, &resume)) {
		tf->nip = resume;   /* an interrupt handler's copy: never fault pages in there */
		return;
	}
	long rc = -KOV_EFAULT;
	if (p && !refused && ea >= USER_BASE && ea < USER_END &&
	    (rc = CO_CALL(struct process, p->self, fault, ea, write)) == 0) {
		int irq = irq_save();   /* this CPU's count, wherever the fault started */
		this_cpu()->hpt_misses++;   /* a user page fault resolved: a page-table miss too */
		irq_restore(irq);
		km_sw(SW_HPT_MISS, tf);
		return;
	}
	if (!user) {
		if (uaccess_fixup(tf->nip, &resume)) {
			tf->nip = resume;
			return;
		}
		panic_trap(tf, "unhandled storage fault");
	}
	kill_process(tf, refused ? "protection fault" : rc == -KOV_ENOMEM ?
		     "no memory or page-table slot for a page fault" : "bad address", ea, -11);
}

static bool in_user_ltt(const struct trap_frame *tf)
{
	uint64_t ea = tf->vector == 0x300 || tf->vector == 0x380 ? tf->dar : tf->nip;
	return ea >= ULTT_BASE && ea < ULTT_BASE + ULTT_BYTES;
}

void exception_dispatch(struct trap_frame *tf)
{
	bool user = tf->msr & MSR_PR;
	/* What a device's or the tick's handler allocates is the kernel's, not the interrupted
	 * thread's process's, which would be charged at random (kernel/mm/kmem.h); the performance
	 * monitor's handler allocates nothing. The interrupted thread's account is back before
	 * sched_preempt, whose switch, if any, sets the incoming thread's. */
	unsigned heap;
	if (tf->nip == (uint64_t)hcall_cede_return)
		wake_cede_ended();   /* this frame now holds where the cede returns to */
	switch (tf->vector) {
	case 0x300:
	case 0x380:
	case 0x400:
	case 0x480:
		if (mmu_fault(tf)) {
			/* The real-mode fast path; the monitor samples with translation on. */
			uint32_t sw = tf->vector == 0x380 || tf->vector == 0x480 ? SW_SLB_MISS : SW_HPT_MISS;
			if (km_sw_mask & (1u << sw)) {
				translation_on();
				km_sw_event((enum sw_event)sw, tf);
			}
			return;
		}
		translation_on();
		/* A user page fault walks Region, FCM, PM: interruptible (preemptible) too, except
		 * in the user LTT, whose page and segment are this CPU's: that fault must end on
		 * the CPU it started on. */
		if (user)
			thread_kernel_entry();   /* a preemptible episode in the kernel starts */
		if (user && !in_user_ltt(tf))
			irq_enable();
		storage_fault(tf, user);
		irq_disable();
		break;
	case 0x900:
		translation_on();
		heap = kmem_account_swap(KMEM_KERNEL);
		timer_interrupt(tf);
		smp_hand_on_turn();
		sched_tick();
		km_tick(tf);
		kmem_account_swap(heap);
		sched_preempt(tf);
		break;
	case 0x500:
		if (!platform->external_interrupt)
			panic_trap(tf, "external interrupt on a platform that takes none");
		translation_on();
		timer_check();
		heap = kmem_account_swap(KMEM_KERNEL);
		platform->external_interrupt();
		smp_hand_on_turn();
		km_interrupt();
		kmem_account_swap(heap);
		sched_preempt(tf);   /* a device or an IPI may have woken a thread to run now */
		break;
	case 0xc00:
		translation_on();
		if (!user)
			panic_trap(tf, "system call from the kernel");
		timer_check();
		smp_hand_on_turn();
		km_sw(SW_SYSCALL, tf);
		thread_kernel_entry();   /* a preemptible episode in the kernel starts */
		/* System calls run with interrupts on, as kernel threads do: the tick preempts them
		 * (not while they hold a spin lock) and samples land in the code that runs them. */
		irq_enable();
		syscall_dispatch(tf);
		irq_disable();
		sched_preempt(tf);   /* a thread this call woke may be due to run now */
		break;
	case 0x700:
		if (!user)
			panic_trap(tf, "unexpected exception");
		translation_on();
		kill_process(tf, program_cause(tf->msr), tf->nip, tf->msr & (1ull << 17) ? -5 : -4);
	/* 0xf00, the performance monitor, has its own entry (boot/vectors.S: pmu_common). */
	case 0x100:
		/* The wake guard's watchdog (a CPU it rescued or resumed), or else an NMI. */
		if (!wake_guard_reset(tf))
			panic_trap(tf, "NMI");
		if (tf->vector == 0xf00) {   /* the interrupt the CPU was halted at, taken now */
			translation_on();
			km_pmu_interrupt(tf);
		}
		break;
	default:
		panic_trap(tf, "unexpected exception");
	}
	/* Never return into a nap: the interrupted idle loop re-checks for work itself. */
	tf->msr &= ~MSR_POW;
	/* A thread preempted in the kernel may have been moved to another CPU meanwhile: the
	 * kernel code it returns to must find this CPU's area in r13, not the one it left. */
	if (!user) {
		tf->gpr[13] = (uint64_t)this_cpu();
	} else {
		thread_quiescent();   /* back to user mode: it holds no rep pointers now */
		process_check_exit();
	}
}

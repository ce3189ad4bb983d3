/* Exception dispatch and the panic report for anything unexpected. */
#include "trap.h"
#include "percpu.h"
#include "../drivers/console.h"
#include "platform.h"
#include "../symbols.h"
#include "timer.h"
#include "wake_guard.h"
#include "hcall.h"
#include "../mm/mmu.h"
#include "kernel/include/kernel_stack.h"
#include "../proc/thread.h"
#include "../proc/process.h"
#include "../proc/syscall.h"
#include "../mm/uaccess.h"
#include "cpu.h"
#include "common/lib/spinlock.h"
#include "../lib/stackwalk.h"
#include "kernel/include/kov_hooks.h"


/* Program interrupts say why in SRR1 bits 43-47. */
static const char *program_cause(uint64_t srr1)
{
	if (srr1 & (1ull << 20)) return "floating-point enabled";
	if (srr1 & (1ull << 19)) return "illegal instruction";
	if (srr1 & (1ull << 18)) return "privileged instruction";
	if (srr1 & (1ull << 17)) return "trap";
	return "unknown cause";
}

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
		timer_interrupt(tf);
		km_tick(tf);
		sched_preempt(tf);
		break;
	case 0x500:
		if (!platform->external_interrupt)
			panic_trap(tf, "external interrupt on a platform that takes none");
		translation_on();
		timer_check();
		platform->external_interrupt();
		sched_preempt(tf);   /* a device or an IPI may have woken a thread to run now */
		break;
	case 0xc00:
		translation_on();
		if (!user)
			panic_trap(tf, "system call from the kernel");
		timer_check();
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

const char *vector_name(uint64_t v)
{
	switch (v) {
	case 0x100: return "system reset";
	case 0x200: return "machine check";
	case 0x300: return "data storage";
	case 0x380: return "data segment";
	case 0x400: return "instruction storage";
	case 0x480: return "instruction segment";
	case 0x500: return "external";
	case 0x600: return "alignment";
	case 0x700: return "program";
	case 0x800: return "floating-point unavailable";
	case 0x900: return "decrementer";
	case 0x980: return "hypervisor decrementer";
	case 0xc00: return "system call";
	case 0xd00: return "trace";
	case 0xf00: return "performance monitor";
	case 0xf20: return "vector unavailable";
	case 0x1300: return "instruction address breakpoint";
	case 0x1600: return "maintenance";
	case 0x1700: return "VMX assist";
	case 0x1800: return "thermal";
	default: return "reserved";
	}
}

static void print_backtrace(uint64_t sp)
{
	/* The walker may only read the stack the trap happened on. */
	struct stack_range range = kernel_stack_of(sp);
	struct stack_walk w = { .sp = sp, .read = kernel_stack_read, .ctx = &range, .max_frame = 16384 };
	uint64_t pcs[32];
	enum walk_end end;
	int n = stack_walk(&w, pcs, 32, &end);
	char sym[96];
	kprintf("call trace (back chain from sp %016lx):\n", (unsigned long)sp);
	for (int i = 0; i < n; i++)
		kprintf("  #%-2d %016lx %s\n", i, (unsigned long)pcs[i], symbolize(pcs[i], sym, sizeof sym));
	kprintf("  %s\n", end == WALK_END_CHAIN ? "(end of stack)" :
			  end == WALK_END_TRUNCATED ? "(truncated)" : "(bad back chain: walk stopped)");
}

void panic_trap(const struct trap_frame *tf, const char *why)
{
	static volatile uint32_t panicking, nmi_reports;
	static struct spinlock nmi_lock;
	irq_disable();
	bool nmi = tf->vector == 0x100;
	if (nmi) {
		/* Every online CPU takes the NMI: each reports in turn, the last one halts. */
		spin_lock(&nmi_lock);
	} else if (__atomic_exchange_n(&panicking, 1, __ATOMIC_SEQ_CST)) {
		for (;;)   /* one report per real panic: a second CPU stops silently */
			;
	}
	console_break_lock();
	char sym[96];
	const struct percpu *cpu = this_cpu();
	kprintf("\nkov: PANIC on cpu %u: %s 0x%lx (%s)", cpu->index, why,
		(unsigned long)tf->vector, vector_name(tf->vector));
	if (tf->vector == 0x700)
		kprintf(": %s", program_cause(tf->msr));
	kprintf("\n");
	kprintf("  nip  %016lx %s\n", (unsigned long)tf->nip, symbolize(tf->nip, sym, sizeof sym));
	kprintf("  lr   %016lx %s\n", (unsigned long)tf->lr, symbolize(tf->lr, sym, sizeof sym));
	kprintf("  srr1 %016lx  dar %016lx  dsisr %08lx\n", (unsigned long)tf->msr,
		(unsigned long)tf->dar, (unsigned long)tf->dsisr);
	kprintf("  ctr  %016lx  xer %016lx  cr %08lx\n", (unsigned long)tf->ctr,
		(unsigned long)tf->xer, (unsigned long)tf->cr);
	kprintf("  dec  %08lx  ticks %lu  next tick in %ld timebase ticks  ceding %u  prods sent %lu  "
		"rescued %lu\n", (unsigned long)(mfspr(SPRN_DEC) & 0xffffffff), (unsigned long)cpu->ticks,
		(long)(cpu->next_tick_tb - mftb()), cpu->ceding, (unsigned long)cpu->wake_prods,
		(unsigned long)cpu->wake_rescues);
	for (int i = 0; i < 32; i += 4)
		kprintf("  r%-2d %016lx r%-2d %016lx r%-2d %016lx r%-2d %016lx\n",
			i, (unsigned long)tf->gpr[i], i + 1, (unsigned long)tf->gpr[i + 1],
			i + 2, (unsigned long)tf->gpr[i + 2], i + 3, (unsigned long)tf->gpr[i + 3]);
	print_backtrace(tf->gpr[1]);
	if (nmi) {
		bool last = __atomic_add_fetch(&nmi_reports, 1, __ATOMIC_SEQ_CST) >= cpus_online;
		if (last)
			sched_dump();   /* what every CPU runs and queues, and who waits on what */
		spin_unlock(&nmi_lock);
		if (!last)
			for (;;)
				;
	}
	kprintf("kov: halted\n");
	machine_halt();
}

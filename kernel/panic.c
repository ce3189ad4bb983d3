/* The panic report for an unexpected exception: registers, a symbolized back chain and, after an
 * NMI, what every CPU runs and who waits on what. */
#include "arch/trap.h"
#include "arch/percpu.h"
#include "arch/console.h"
#include "arch/cpu.h"
#include "arch/platform.h"
#include "lib/stackwalk.h"
#include "kernel/include/kernel_stack.h"
#include "proc/thread.h"
#include "kernel/arch/symbols.h"
#include "common/lib/spinlock.h"

extern const char _image_start[], _etext[];

/* When the back chain is broken, the words around sp are the evidence: each readable one, and
 * the kernel text addresses among them named (the return addresses of the frames that ran). */
static void print_stack_words(uint64_t sp, struct stack_range *range)
{
	kprintf("stack words from sp-0x100 (text addresses named):\n");
	char sym[96];
	for (uint64_t a = (sp & ~7ull) - 0x100; a < (sp & ~7ull) + 0x200; a += 8) {
		uint64_t v;
		if (!kernel_stack_read(range, a, &v))
			continue;
		bool text = v >= (uint64_t)_image_start && v < (uint64_t)_etext;
		kprintf("  sp%+5ld %016lx%s%s\n", (long)(a - sp), (unsigned long)v, text ? " " : "",
			text ? symbolize(v, sym, sizeof sym) : "");
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
	if (end == WALK_END_BAD)
		print_stack_words(sp, &range);
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

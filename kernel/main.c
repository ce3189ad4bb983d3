/* Kernel entry on the boot CPU (platform, console, timer, PMU probe, other CPUs, ready) and on
 * the others (secondary_main), and every CPU's idle loop. */
#include <stdint.h>
#include "arch/platform.h"
#include "arch/percpu.h"
#include "kernel/arch/console.h"
#include "arch/timer.h"
#include "arch/smp.h"
#include "arch/smp_kind.h"
#include "arch/wake_guard.h"
#include "arch/platform_report.h"
#include "mm/mmu.h"
#include "mm/page_alloc.h"
#include "common/co/cobj.h"
#include "co/cobj_test.h"
#include "proc/thread.h"
#include "proc/process.h"
#include "proc/service.h"
#include "proc/thread_test.h"
#include "kernel/arch/symbols.h"
#include "arch/cpu.h"
#include "lib/bootargs.h"
#include "arch/ofstage.h"
#include "kernel/include/kov_hooks.h"
#include "net/net.h"
#include "net/netdev.h"
#include "drivers/nic.h"
#include "common/lib/format.h"
#include "common/lib/string.h"

#define DCI_TOKEN_MAX 65   /* the protocol's names and tokens: 64 bytes */

/* The per-CPU idle loop: waits for interrupts, runs cross-CPU calls, passes quiescent points. */
static __attribute__((noreturn)) void cpu_idle_loop(void)
{
	for (;;) {
		co_quiescent();
		co_reclaim();
		smp_run_pending_call();
		if (!sched_run_queued() && !(this_cpu()->index == 0 && netdev_idle()) && !sched_pull())
			platform->idle();
	}
}

/* C entry of a secondary CPU (from boot/head.S). */
void secondary_main(unsigned long index) __attribute__((noreturn));
void secondary_main(unsigned long index)
{
	percpu_init_self((unsigned)index, machine.cpu_hw_id[index]);
	if (platform->interrupts_init_cpu)
		platform->interrupts_init_cpu();
	mmu_init_secondary();
	cobj_init_cpu();
	sched_init_cpu();
	timer_start_cpu();
	smp_mark_online();
	irq_enable();
	cpu_idle_loop();
}

void kmain(uint64_t fdt, uint64_t from_firmware);

static uint64_t boot_tb;
static unsigned int boot_cpus;

extern char boot_stack_top[];
extern const char kov_build_id[];

/* Deliberate faults for testing the panic path ("fault=illegal|trap|dsi"). */
__attribute__((noinline)) static void fault_illegal(void)
{
	__asm__ volatile(".long 0");
}

__attribute__((noinline)) static void fault_trap(void)
{
	__asm__ volatile("trap");
}

__attribute__((noinline)) static void fault_dsi(void)
{
	/* Beyond any RAM: a real-mode access outside memory raises a storage or machine check. */
	*(volatile uint64_t *)0xCfff000000000000ull = 1;
}

/* A deliberate hang with interrupts off ("hang=1"), to exercise the NMI report. */
__attribute__((noinline)) static void run_hang_test(void)
{
	kprintf("kov: hang test: spinning with interrupts off\n");
	irq_disable();
	for (volatile uint64_t i = 0;; i++)
		;
}

__attribute__((noinline)) static void run_fault_test(const char *kind)
{
	kprintf("kov: fault test '%s'\n", kind);
	if (kind[0] == 'i')
		fault_illegal();
	else if (kind[0] == 't')
		fault_trap();
	else
		fault_dsi();
	kprintf("kov: fault test '%s' did not fault\n", kind);
}

static unsigned int boot_hz(void)
{
	uint64_t hz = TIMER_HZ_DEFAULT;
	int rc = bootarg_u64(machine.bootargs, "hz", &hz);
	if (rc < 0 || (rc > 0 && (hz < 1 || hz > TIMER_HZ_MAX))) {
		kprintf("kov: bad boot argument hz (want 1..%u), using %u\n", TIMER_HZ_MAX,
			TIMER_HZ_DEFAULT);
		hz = TIMER_HZ_DEFAULT;
	}
	return (unsigned int)hz;
}

/* Waits until every online CPU has taken `ticks` decrementer interrupts (bounded wait). */
static bool wait_for_ticks(uint64_t ticks)
{
	uint64_t deadline = mftb() + 2 * machine.tb_freq;
	for (;;) {
		bool all = true;
		for (unsigned i = 0; i < MAX_CPUS; i++)
			if (percpu_area[i].online && percpu_area[i].ticks < ticks)
				all = false;
		if (all)
			return true;
		if ((int64_t)(deadline - mftb()) < 0)
			return false;
		platform->idle();
	}
}

/* "run=PROGRAM,ARG,...": starts the user init process, which runs the program; reports the
 * exit status and powers off. */
static void run_program(char *spec)
{
	long status = 127;
	long pid = process_spawn("init", spec, 0);
	if (pid < 0)
		kprintf("kov: cannot start init: error %ld\n", -pid);
	else
		process_wait((uint32_t)pid, 0, &status);
	kprintf("kov: exit status %ld\n", status);
	machine_halt();
}

/* The DCI daemon, started by the kernel (so privileged) when there is a network and kept
 * running (kernel/proc/service.h: restarted when it ends); `dci=off` keeps it off,
 * `dci.token=T` sets its controller token. */
static void start_dci(void)
{
	char arg[DCI_TOKEN_MAX];
	if (bootarg_str(machine.bootargs, "dci", arg, sizeof arg) && strcmp(arg, "off") == 0)
		return;
	char args[DCI_TOKEN_MAX + 8] = "";
	if (bootarg_str(machine.bootargs, "dci.token", arg, sizeof arg) && arg[0])
		format_buf(args, sizeof args, "token=%s", arg);
	long pid = service_keep("dcid", args);
	if (pid < 0)
		kprintf("kov: cannot start the DCI daemon: error %ld\n", -pid);
}

/* workload=PROG[:ARG...][,PROG...]: programs started at boot that keep the target busy (or
 * just alive with objects to look at) for kovctl and the viewer; the kernel does not wait. */
static void start_workloads(void)
{
	char list[128];
	if (!bootarg_str(machine.bootargs, "workload", list, sizeof list))
		return;
	for (char *p = list; *p;) {
		char *end = p;
		while (*end && *end != ',')
			end++;
		bool last = !*end;
		*end = 0;
		char *args = p;
		while (*args && *args != ':')
			args++;
		if (*args)
			*args++ = 0;
		for (char *a = args; *a; a++)
			if (*a == ':')
				*a = ',';
		long pid = process_spawn(p, args, 0);
		if (pid < 0)
			kprintf("kov: cannot start workload %s: error %ld\n", p, -pid);
		else
			kprintf("kov: workload %s started, pid %ld\n", p, pid);
		p = last ? end : end + 1;
	}
}

/* The rest of boot runs as a thread, so that it may block: the boot CPU's own flow becomes
 * its idle thread, which never does. */
static void kernel_init(void *unused)
{
	(void)unused;
	char arg[16];
	if (bootarg_str(machine.bootargs, "selftest", arg, sizeof arg)) {
		if (arg[0] == 'c' || arg[0] == 'a')
			cobj_selftest();
		if (arg[0] == 't' || arg[0] == 'a')
			thread_selftest();
	}

	kprintf("mmu:");
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (percpu_area[i].online)
			kprintf(" cpu%u slb_misses=%lu hpt_misses=%lu", i,
				(unsigned long)percpu_area[i].slb_misses,
				(unsigned long)percpu_area[i].hpt_misses);
	kprintf("\n");

	uint64_t boot_us = (mftb() - boot_tb) * 1000000 / machine.tb_freq;
	kprintf("kov: ready profile=%s cpus=%u pvr=0x%08x mem=%luMiB boot_us=%lu\n",
		machine.profile, boot_cpus, machine.pvr, (unsigned long)(machine.mem_total >> 20),
		(unsigned long)boot_us);

	/* The network comes up after the ready line: DHCP and the daemon must not delay boot. */
	if ((spapr_vlan_probe(&boot_fdt) || sungem_probe(&boot_fdt)) && net_start())
		start_dci();
	start_workloads();

	char run[128];
	if (bootarg_str(machine.bootargs, "run", run, sizeof run))
		run_program(run);
	if (bootarg_str(machine.bootargs, "fault", arg, sizeof arg))
		run_fault_test(arg);
	if (bootarg_str(machine.bootargs, "halt", arg, sizeof arg)) {
		kprintf("kov: halt requested\n");
		machine_halt();
	}
}

void kmain(uint64_t fdt, uint64_t from_firmware)
{
	percpu_init_self(0, 0);
	percpu_area[0].stack_top = (uint64_t)boot_stack_top;
	if (!fdt || !platform_init(kernel_ptr(phys_of((void *)fdt))))
		machine_halt();   /* no console to complain on */
	percpu_area[0].hw_id = machine.cpu_hw_id[0];
	boot_tb = mftb();

	kprintf("\nKOV kernel %s on %s (%s), %s\n", kov_build_id, platform->name, machine.model,
		from_firmware ? "device tree from Open Firmware" : "device tree from the machine");
	if (from_firmware) {
		const struct of_stage_stats *st = &of_stage_stats;
		kprintf("kov: Open Firmware stage: %u nodes, %u properties, %u-byte tree; "
			"flatten %lu us, quiesce %lu us\n", st->nodes, st->props, st->fdt_size,
			(unsigned long)((st->tb_flattened - st->tb_start) * 1000000 / machine.tb_freq),
			(unsigned long)((st->tb_done - st->tb_flattened) * 1000000 / machine.tb_freq));
	}
	kprintf("kov: cmdline \"%s\"\n", machine.bootargs);
	kprintf("kov: memory %lu MiB in %u region(s); timebase %lu Hz; %u symbols\n",
		(unsigned long)(machine.mem_total >> 20), machine.mem_count,
		(unsigned long)machine.tb_freq, symbol_count());
	if (machine.mem_unused)
		kprintf("kov: %lu MiB above %lu MiB left out: devices cannot reach it without the "
			"IOMMU\n", (unsigned long)(machine.mem_unused >> 20),
			(unsigned long)(platform->dma_limit >> 20));
	rtc_boot_read();

	char arg[16];
	if (bootarg_str(machine.bootargs, "hang", arg, sizeof arg))
		run_hang_test();
	mmu_init();
	page_alloc_init(kernel_ptr(phys_of((void *)fdt)), fdt_blob_size(kernel_ptr(phys_of((void *)fdt))));
	cobj_init();
	cobj_init_cpu();
	sched_init_cpu();
	process_init();
	if (platform->interrupts_init_cpu)
		platform->interrupts_init_cpu();
	timer_set_hz(boot_hz());
	timer_start_cpu();
	km_probe();
	irq_enable();

	unsigned int cpus = smp_start();
	km_init();
	bool ticking = wait_for_ticks(3);
	kprintf("timer: hz=%u", timer_hz());
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (percpu_area[i].online)
			kprintf(" cpu%u=%lu", i, (unsigned long)percpu_area[i].ticks);
	kprintf("%s\n", ticking ? "" : " (some CPU is not ticking)");
	wake_guard_start();
	platform_report();
	if (cpus > 1)
		kprintf("smp: cpus %s\n", smp_run_kind_name(smp_run_kind()));

	boot_cpus = cpus;
	if (!thread_create("init", kernel_init, 0, 0)) {
		kprintf("kov: cannot create the init thread\n");
		machine_halt();
	}
	cpu_idle_loop();
}

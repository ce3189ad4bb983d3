#include "smp.h"
#include "percpu.h"
#include "platform.h"
#include "timer.h"
#include "mmu.h"
#include "console.h"
#include "cpu.h"

extern char secondary_entry[];

char cpu_stacks[MAX_CPUS * CPU_STACK_SIZE] __attribute__((aligned(16)));

static void mark_online(void)
{
	__atomic_fetch_add(&cpus_online, 1, __ATOMIC_SEQ_CST);
	this_cpu()->online = 1;
}

void cpu_idle_loop(void)
{
	for (;;)
		platform->idle();
}

void secondary_main(unsigned long index)
{
	percpu_init_self((unsigned)index, machine.cpu_hw_id[index]);
	mmu_init_secondary();
	timer_start_cpu();
	mark_online();
	irq_enable();
	cpu_idle_loop();
}

unsigned int smp_start(void)
{
	mark_online();
	unsigned int want = machine.cpu_count < MAX_CPUS ? machine.cpu_count : MAX_CPUS;
	if (machine.cpu_count > MAX_CPUS)
		kprintf("smp: %u CPUs present, using the first %u\n", machine.cpu_count, MAX_CPUS);
	for (unsigned int i = 1; i < want; i++) {
		struct percpu *p = &percpu_area[i];
		p->stack_top = (uint64_t)&cpu_stacks[(i + 1) * CPU_STACK_SIZE];
		sync();
		if (!platform->start_cpu(machine.cpu_hw_id[i], phys_of(secondary_entry), i)) {
			kprintf("smp: cpu %u (hw id %u) could not be started\n", i, machine.cpu_hw_id[i]);
			continue;
		}
		uint64_t deadline = mftb() + machine.tb_freq;   /* one second */
		while (!p->online && (int64_t)(deadline - mftb()) > 0)
			cpu_relax();
		if (!p->online)
			kprintf("smp: cpu %u (hw id %u) did not come online\n", i, machine.cpu_hw_id[i]);
	}
	return cpus_online;
}

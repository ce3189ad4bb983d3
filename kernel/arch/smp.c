#include "smp.h"
#include "percpu.h"
#include "platform.h"
#include "timer.h"
#include "common/lib/spinlock.h"
#include "console.h"
#include "cpu.h"

extern char secondary_entry[];

char cpu_stacks[MAX_CPUS * CPU_STACK_SIZE] __attribute__((aligned(16)));

static struct {
	void (*fn)(void *);
	void *arg;
	volatile uint64_t seq;
	volatile uint32_t done;
	uint32_t caller_hw_id;
} xcall;
static struct spinlock xcall_lock;

void smp_mark_online(void)
{
	/* Calls made before this CPU was online are not its business. */
	this_cpu()->xcall_seen = __atomic_load_n(&xcall.seq, __ATOMIC_ACQUIRE);
	__atomic_fetch_add(&cpus_online, 1, __ATOMIC_SEQ_CST);
	this_cpu()->online = 1;
}

void smp_run_pending_call(void)
{
	uint64_t seq = __atomic_load_n(&xcall.seq, __ATOMIC_ACQUIRE);
	if (seq == this_cpu()->xcall_seen)
		return;
	this_cpu()->xcall_seen = seq;
	xcall.fn(xcall.arg);
	/* The last CPU to finish wakes the caller, who waits in idle. */
	if (__atomic_add_fetch(&xcall.done, 1, __ATOMIC_ACQ_REL) >= cpus_online && platform->kick)
		platform->kick(xcall.caller_hw_id);
}

bool smp_call_all(void (*fn)(void *), void *arg)
{
	spin_lock(&xcall_lock);
	xcall.fn = fn;
	xcall.arg = arg;
	xcall.done = 0;
	xcall.caller_hw_id = this_cpu()->hw_id;
	this_cpu()->xcall_seen = __atomic_add_fetch(&xcall.seq, 1, __ATOMIC_RELEASE);
	/* Wake the others out of their idle wait (an IPI where the platform has them). */
	for (unsigned i = 0; i < MAX_CPUS && platform->kick; i++)
		if (percpu_area[i].online && i != this_cpu()->index)
			platform->kick(percpu_area[i].hw_id);
	fn(arg);
	__atomic_fetch_add(&xcall.done, 1, __ATOMIC_ACQ_REL);
	uint64_t deadline = mftb() + 2 * machine.tb_freq;
	while (__atomic_load_n(&xcall.done, __ATOMIC_ACQUIRE) < cpus_online &&
	       (int64_t)(deadline - mftb()) > 0)
		platform->idle();
	bool ok = xcall.done >= cpus_online;
	spin_unlock(&xcall_lock);
	return ok;
}

unsigned int smp_start(void)
{
	smp_mark_online();
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

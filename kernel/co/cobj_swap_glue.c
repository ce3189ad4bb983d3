/* The kernel runtime's part of hot swapping (common/co/co_swap.h). Its participants are the
 * CPUs: a CPU is out of the calls it was making at the interposition once it has passed a
 * quiescent point (switched threads or idled).
 * Not done yet: walking the kernel stacks of threads preempted or asleep in kernel code, which
 * may be inside a method. Until it is, participant MAX_CPUS stands for those threads and is
 * never known to be outside, so a kernel swap ends at its deadline with CO_SWAP_DRAIN_TIMEOUT
 * and the old instance in place; no kernel class registers a swappable implementation yet. */
#include "common/co/co_swap.h"
#include "../arch/percpu.h"
#include "../arch/timer.h"
#include "../proc/thread.h"
#include "kernel/include/kernel_stack.h"

_Static_assert(MAX_CPUS < CO_SEEN_MAX, "a participant slot per CPU and one for the others");

extern const char __co_bodies_start[], __co_bodies_end[];

unsigned co_runtime_self_slot(void)
{
	return this_cpu()->index;
}

void co_runtime_calm_snapshot(uint64_t seen[CO_SEEN_MAX])
{
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		seen[cpu] = __atomic_load_n(&percpu_area[cpu].quiescent, __ATOMIC_ACQUIRE);
}

bool co_runtime_outside(unsigned i, const uint64_t seen[CO_SEEN_MAX], void *const reps[CO_MAX_CPUS],
			uint32_t *walked)
{
	(void)reps, (void)walked;
	if (i > MAX_CPUS)
		return true;
	if (i == MAX_CPUS)
		return false;
	return !percpu_area[i].online ||
	       __atomic_load_n(&percpu_area[i].quiescent, __ATOMIC_ACQUIRE) != seen[i];
}

bool co_runtime_method_pc(uint64_t pc)
{
	return pc >= (uint64_t)__co_bodies_start && pc < (uint64_t)__co_bodies_end;
}

void co_runtime_relax(void)
{
	thread_yield();
}

uint64_t co_runtime_now_ns(void)
{
	return clock_ns();
}

bool co_runtime_stack_word(uint64_t addr, uint64_t *value)
{
	struct stack_range range = kernel_stack_of(addr);
	return kernel_stack_read(&range, addr, value);
}

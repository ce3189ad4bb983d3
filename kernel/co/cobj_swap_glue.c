/* The kernel runtime's part of hot swapping (common/co/co_swap.h). Its participants are the
 * CPUs and, in one slot more, the threads switched out in kernel code without a quiescent point
 * (preempted, or paused in a swap's mediator):
 *   - CPU i is out of the calls it was making at the interposition once it has passed a
 *     quiescent point (a voluntary switch, a preemption in user mode, idle): whatever ran there
 *     left, or was switched out in kernel code and joined the list below;
 *   - a listed thread whose kernel episode began before the drain's stamp is out once it is
 *     seen switched out with no frame of the object on its stack (sched_kp_outside).
 * A method neither blocks nor passes a quiescent point (the rule deferred destruction already
 * has), so nothing else can be inside. */
#include "common/co/co_swap.h"
#include "../arch/percpu.h"
#include "../arch/timer.h"
#include "../proc/thread.h"
#include "kernel/include/kernel_stack.h"
#include "kernel/include/kov_services.h"
#include "kernel/include/processor.h"
#include "common/lib/string.h"
#include "common/lib/elfv1_asm.h"

_Static_assert(MAX_CPUS < CO_SEEN_MAX, "a participant slot per CPU and one for the others");

extern const char __co_bodies_start[], __co_bodies_end[];

unsigned co_runtime_self_slot(void)
{
	return this_cpu()->index;
}

/* Taken after the interposition: a thread whose episode began at or after the stamp can only
 * have reached the object through the mediator. */
void co_runtime_calm_snapshot(uint64_t seen[CO_SEEN_MAX])
{
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		seen[cpu] = __atomic_load_n(&percpu_area[cpu].quiescent, __ATOMIC_ACQUIRE);
	seen[MAX_CPUS] = __atomic_add_fetch(&co_retired, 1, __ATOMIC_SEQ_CST);
}

bool co_runtime_outside(unsigned i, const uint64_t seen[CO_SEEN_MAX], void *const reps[CO_MAX_CPUS],
			uint32_t *walked)
{
	if (i > MAX_CPUS)
		return true;
	if (i == MAX_CPUS)
		return sched_kp_outside(seen[MAX_CPUS], reps, walked);
	return !percpu_area[i].online ||
	       __atomic_load_n(&percpu_area[i].quiescent, __ATOMIC_ACQUIRE) != seen[i];
}

bool co_runtime_method_pc(uint64_t pc)
{
	return pc >= (uint64_t)__co_bodies_start && pc < (uint64_t)__co_bodies_end;
}

/* Not thread_yield(): a yield is a quiescent point, and a call held in the mediator is inside
 * its caller's methods. A thread that may not leave its CPU (interrupts off, a spin lock held,
 * or the pinned swapper) spins. */
bool co_runtime_may_wait(void)
{
	return !this_cpu()->preempt_count && (mfmsr() & MSR_EE);
}

void co_runtime_relax(void)
{
	if (co_runtime_may_wait())
		thread_pause();
	else
		cpu_relax();
}

void co_runtime_pin(void)
{
	preempt_disable();
}

void co_runtime_unpin(void)
{
	preempt_enable();
}

uint64_t co_runtime_now_ns(void)
{
	return clock_ns();
}

/* The thread whose stack this CPU is walking (co_thread_left_outside; its own otherwise). */
static const struct thread *walking[MAX_CPUS];

/* A trap from user mode makes the first frame of the thread's kernel stack, and its back
 * chain is the user stack pointer: no kernel method runs beyond it, so the chain ends there. */
static uint64_t user_entry_frame(const struct thread *t)
{
	return (((uint64_t)t->stack + t->stack_size) & ~15ull) -
	       (STACK_FRAME_MIN + sizeof(struct trap_frame));
}

bool co_runtime_stack_word(uint64_t addr, uint64_t *value)
{
	const struct thread *t = walking[this_cpu()->index];
	if (!t)
		t = current_thread();
	struct stack_range range = t && t->stack ?
		(struct stack_range){ (uint64_t)t->stack, (uint64_t)t->stack + t->stack_size } :
		kernel_stack_of(addr);
	if (!kernel_stack_read(&range, addr, value))
		return false;
	if (t && t->stack && addr == user_entry_frame(t))
		*value = 0;
	return true;
}

/* Walked only while switched out, and only if it was not switched in during the walk (its
 * switch count, bumped before it runs, is unchanged): the frames at and above the point it
 * left are then still the ones it left. A pc or LR in any method body counts as inside: the
 * innermost frame's owner is not on the stack. Interrupts are off (sched_kp_outside). */
bool co_thread_left_outside(const struct thread *t, void *const *reps, uint32_t *walked)
{
	uint64_t switches = __atomic_load_n(&t->switches, __ATOMIC_ACQUIRE);
	if (__atomic_load_n(&t->state, __ATOMIC_ACQUIRE) == THREAD_RUNNING || !t->stack)
		return false;
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	walking[this_cpu()->index] = t;
	bool inside = co_runtime_method_pc(t->kp_pc) || co_runtime_method_pc(t->kp_lr) ||
		      co_stack_inside(t->kp_sp, (void **)reps);
	walking[this_cpu()->index] = 0;
	++*walked;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return !inside && __atomic_load_n(&t->switches, __ATOMIC_ACQUIRE) == switches &&
	       __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != THREAD_RUNNING;
}

void svc_kernel_swap(uint32_t index, const char cls[KM_CLASS_NAME], struct km_swap_answer *a)
{
	*a = (struct km_swap_answer){ 0 };
	memcpy(a->to, cls, KM_CLASS_NAME);
	co_swap_requested(index, a);
}

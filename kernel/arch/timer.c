#include "timer.h"
#include "percpu.h"
#include "platform.h"
#include "wake_guard.h"
#include "cpu.h"
#include "console.h"

static unsigned int hz = TIMER_HZ_DEFAULT;

void timer_set_hz(unsigned int rate)
{
	hz = rate;
}

unsigned int timer_hz(void)
{
	return hz;
}

uint64_t tb_from_us(uint64_t us)
{
	return us * (machine.tb_freq / 1000000) + us * (machine.tb_freq % 1000000) / 1000000;
}

uint64_t clock_ns(void)
{
	uint64_t tb = mftb(), f = machine.tb_freq;
	return tb / f * 1000000000ull + tb % f * 1000000000ull / f;
}

/* The decrementer is 32 bits and interrupts when it goes negative. */
static void program_next(struct percpu *cpu)
{
	uint64_t now = mftb();
	int64_t delta = (int64_t)(cpu->next_tick_tb - now);
	if (delta <= 0) {
		/* Ticks were missed (a long interrupts-off stretch; on a machine whose CPUs take
		 * turns, a wait for this CPU's turn longer than a period): skip them, do not burst,
		 * and stay on this CPU's grid (timer_start_cpu). Restarting from now moved the tick
		 * to where the CPU's turn began, next to the tick that had ended the last turn, and
		 * wore away the spread the grid gives. */
		uint64_t missed = (uint64_t)-delta / cpu->dec_period + 1;
		cpu->ticks_skipped += missed;
		cpu->next_tick_tb += missed * cpu->dec_period;
		delta = (int64_t)(cpu->next_tick_tb - now);
	}
	if (delta > 0x7fffffff)
		delta = 0x7fffffff;
	mtspr(SPRN_DEC, (uint64_t)delta);
}

/* The CPUs' ticks are spread evenly over the period, CPU i's at i/n of it, instead of falling
 * wherever each CPU started (all within a millisecond at boot). Where the CPUs take turns on one
 * host thread, a timer interrupt is what ends a turn: ticks that fall together end n turns at
 * once and leave the next one running for a whole period, so a CPU waited up to n periods
 * (40 ms on 4 CPUs at 100 Hz) for its turn. */
void timer_start_cpu(void)
{
	struct percpu *cpu = this_cpu();
	uint64_t period = machine.tb_freq / hz, now = mftb();
	uint64_t phase = machine.cpu_count > 1 ? period * cpu->index / machine.cpu_count : 0;
	uint64_t next = now - now % period + phase;
	while (next <= now)
		next += period;
	cpu->dec_period = period;
	cpu->next_tick_tb = next;
	program_next(cpu);
}

void timer_interrupt(struct trap_frame *tf)
{
	struct percpu *cpu = this_cpu();
	wake_guard_tick(tf);   /* first: it measures how late this tick is */
	cpu->ticks++;
	cpu->next_tick_tb += cpu->dec_period;
	program_next(cpu);
}

void timer_check(void)
{
	struct percpu *cpu = this_cpu();
	if (!cpu->dec_period)
		return;   /* not started yet */
	int64_t late = (int64_t)(mftb() - cpu->next_tick_tb);
	if (late <= (int64_t)(2 * cpu->dec_period))
		return;
	/* A decrementer past zero (its top bit set) still has its interrupt pending: it is taken
	 * once this handler returns. Another interrupt merely came first (external interrupts
	 * rank above the decrementer), typically after the host left this CPU's thread unscheduled
	 * for a while. Writing the decrementer now would cancel that tick. */
	int32_t dec = (int32_t)mfspr(SPRN_DEC);
	if (dec < 0) {
		if (cpu->pending_seen != cpu->next_tick_tb) {   /* once per tick */
			cpu->pending_seen = cpu->next_tick_tb;
			cpu->ticks_pending++;
		}
		return;
	}
	if ((uint64_t)dec <= cpu->dec_period)
		return;   /* due within a period: the decrementer and the timebase disagree a little */
	if (!cpu->ticks_rearmed++)
		kprintf("timer: cpu%u's decrementer interrupt was lost (%lu us late, decrementer 0x%lx); "
			"re-armed\n", cpu->index,
			(unsigned long)((uint64_t)late / (machine.tb_freq / 1000000)),
			(unsigned long)(uint32_t)dec);
	program_next(cpu);   /* the tick is in the past: the next on its grid */
}

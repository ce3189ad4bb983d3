#include "timer.h"
#include "percpu.h"
#include "platform.h"
#include "cpu.h"
#include "../proc/thread.h"

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
		/* Ticks were missed (e.g. a long interrupts-off stretch): skip, do not burst. */
		cpu->next_tick_tb = now + cpu->dec_period;
		delta = (int64_t)cpu->dec_period;
	}
	if (delta > 0x7fffffff)
		delta = 0x7fffffff;
	mtspr(SPRN_DEC, (uint64_t)delta);
}

void timer_start_cpu(void)
{
	struct percpu *cpu = this_cpu();
	cpu->dec_period = machine.tb_freq / hz;
	cpu->next_tick_tb = mftb() + cpu->dec_period;
	program_next(cpu);
}

void timer_interrupt(struct trap_frame *tf)
{
	(void)tf;
	struct percpu *cpu = this_cpu();
	cpu->ticks++;
	cpu->next_tick_tb += cpu->dec_period;
	program_next(cpu);
	sched_tick();
}

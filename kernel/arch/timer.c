#include "timer.h"
#include "percpu.h"
#include "platform.h"
#include "cpu.h"
#include "../proc/thread.h"
#include "../drivers/console.h"

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

/* QEMU 10 (TCG, pseries) can leave a CPU halted for good: H_CEDE marks it halted, then, in
 * the same pass of QEMU's CPU loop, an external interrupt is delivered to it (MSR[EE] goes
 * off) without the halted state being cleared, and a halted CPU with EE off never has work
 * again. Seen under httpd's network load on CPU 0: it sat at 0x500 with its decrementer long
 * due, and lwIP's threads there with it. So each CPU watches the next online CPU's ticks and,
 * when they have not moved for WATCH_TICKS of its own, restarts it (H_PROD clears QEMU's
 * halted state; a CPU that merely runs with interrupts off only sees its next cede return at
 * once). One CPU alone has nobody to watch it. */
#define WATCH_TICKS 5

static void watch_neighbour(struct percpu *cpu)
{
	if (!platform->unhalt || cpus_online < 2)
		return;
	struct percpu *o = 0;
	for (unsigned i = 1; i < MAX_CPUS && !o; i++) {
		struct percpu *p = &percpu_area[(cpu->index + i) % MAX_CPUS];
		if (p->online)
			o = p;
	}
	if (!o || o == cpu)
		return;
	if (o->ticks != cpu->watch_seen) {
		cpu->watch_seen = o->ticks;
		cpu->watch_since = cpu->ticks;
	} else if (cpu->ticks - cpu->watch_since >= WATCH_TICKS) {
		platform->unhalt(o->hw_id);
		cpu->unhalts++;
		cpu->watch_since = cpu->ticks;
	}
}

void timer_interrupt(struct trap_frame *tf)
{
	(void)tf;
	struct percpu *cpu = this_cpu();
	cpu->ticks++;
	cpu->next_tick_tb += cpu->dec_period;
	program_next(cpu);
	watch_neighbour(cpu);
	sched_tick();
}

void timer_check(void)
{
	struct percpu *cpu = this_cpu();
	if (!cpu->dec_period)
		return;   /* not started yet */
	int64_t late = (int64_t)(mftb() - cpu->next_tick_tb);
	if (late <= (int64_t)(2 * cpu->dec_period))
		return;
	if (!cpu->ticks_rearmed++)
		kprintf("timer: cpu%u's decrementer interrupt was lost (%lu us late); re-armed\n",
			cpu->index, (unsigned long)((uint64_t)late / (machine.tb_freq / 1000000)));
	program_next(cpu);   /* the tick is in the past: the next is one period from now */
}

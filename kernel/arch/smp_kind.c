#include "smp_kind.h"
#include "platform.h"
#include "percpu.h"
#include "../lib/bootargs.h"
#include "common/lib/string.h"
#include "console.h"

int smp_run_kind(void)
{
	static int kind = -1;
	if (kind >= 0)
		return kind;
	char arg[16];
	kind = SMP_RUN_UNKNOWN;
	if (bootarg_str(machine.bootargs, "cpus", arg, sizeof arg)) {
		if (!strcmp(arg, "parallel"))
			kind = SMP_RUN_PARALLEL;
		else if (!strcmp(arg, "turns"))
			kind = SMP_RUN_TAKE_TURNS;
		else
			kprintf("kov: bad boot argument cpus (want parallel or turns)\n");
	}
	if (cpus_online < 2)
		kind = SMP_RUN_UNKNOWN;
	return kind;
}

bool smp_yield_turn(void)
{
	if (smp_run_kind() != SMP_RUN_TAKE_TURNS || !platform->yield_turn)
		return false;
	platform->yield_turn();
	return true;
}

const char *smp_run_kind_name(int kind)
{
	return kind == SMP_RUN_PARALLEL ? "run in parallel" :
	       kind == SMP_RUN_TAKE_TURNS ? "take turns" : "unknown";
}

/* Set once, at boot; read relaxed: it publishes no data, and this runs at every system call
 * and interrupt on every machine, where an acquire would add an isync. */
static smp_waiting_fn turn_watch;

void smp_watch_turns(smp_waiting_fn waiting)
{
	if (smp_run_kind() == SMP_RUN_TAKE_TURNS)
		__atomic_store_n(&turn_watch, waiting, __ATOMIC_RELAXED);
}

void smp_hand_on_turn(void)
{
	smp_waiting_fn waiting = __atomic_load_n(&turn_watch, __ATOMIC_RELAXED);
	unsigned cpu;
	uint64_t step;
	if (!waiting || !waiting(&cpu, &step))
		return;
	struct percpu *me = this_cpu();
	step++;   /* a CPU that never handed on has 0 */
	if (cpu == me->index || me->turn_handed_at == step)
		return;
	me->turn_handed_at = step;
	me->turns_handed++;
	smp_yield_turn();
}

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

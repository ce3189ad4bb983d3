#include "spinlock.h"
#include "percpu.h"
#include "cpu.h"

static uint32_t owner_id(void)
{
	return this_cpu()->index + 1;
}

bool spin_trylock(struct spinlock *l)
{
	return spin_trylock_as(l, owner_id());
}

void spin_lock(struct spinlock *l)
{
	uint32_t me = owner_id();
	while (!spin_trylock_as(l, me)) {
		/* Wait with plain loads so the reservation traffic stays off the lock line. */
		while (l->word != 0)
			cpu_relax();
	}
}

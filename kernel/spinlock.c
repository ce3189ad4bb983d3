#include "spinlock.h"
#include "percpu.h"
#include "cpu.h"

static uint32_t owner_id(void)
{
	return this_cpu()->index + 1;
}

bool spin_trylock(struct spinlock *l)
{
	this_cpu()->preempt_count++;
	if (spin_trylock_as(l, owner_id()))
		return true;
	this_cpu()->preempt_count--;
	return false;
}

void spin_unlock(struct spinlock *l)
{
	__asm__ volatile("lwsync" : : : "memory");
	l->word = 0;
	this_cpu()->preempt_count--;
}

void spin_lock(struct spinlock *l)
{
	this_cpu()->preempt_count++;
	uint32_t me = owner_id();
	while (!spin_trylock_as(l, me)) {
		/* Wait with plain loads so the reservation traffic stays off the lock line. */
		while (l->word != 0)
			cpu_relax();
	}
}

/* Spin locks built on lwarx/stwcx. (the reservation instructions KOV's lock metrics count).
 * The lock word holds 0 when free and (CPU index + 1) when held, which panic reports show. */
#ifndef KOV_SPINLOCK_H
#define KOV_SPINLOCK_H

#include <stdint.h>
#include <stdbool.h>

struct spinlock { volatile uint32_t word; };

#define SPINLOCK_INIT { 0 }

/* One acquisition attempt: true if the lock was free and is now ours. */
static inline bool spin_trylock_as(struct spinlock *l, uint32_t owner)
{
	uint32_t old;
	__asm__ volatile(
		"1:	lwarx	%0, 0, %1\n"
		"	cmpwi	%0, 0\n"
		"	bne-	2f\n"
		"	stwcx.	%2, 0, %1\n"
		"	bne-	1b\n"
		"	isync\n"
		"2:\n"
		: "=&r"(old) : "r"(&l->word), "r"(owner) : "cr0", "memory");
	return old == 0;
}

/* Taking a lock also holds off preemption on this CPU until it is released. */
void spin_lock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
void spin_unlock(struct spinlock *l);

#endif

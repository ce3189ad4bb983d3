/* Spin locks built on lwarx/stwcx. The lock word holds 0 when free and the holder's id when
 * held (kernel: CPU index + 1, which panic reports show; user: 1), with SPIN_CONTENDED added
 * when the holder had to wait: its hold is then measured at release for the lock statistics
 * (kernel/lib/lockstat.h). The uncontended acquisition is the same instructions as without
 * statistics; everything else happens on the contended path. */
#ifndef KOV_SPINLOCK_H
#define KOV_SPINLOCK_H

#include <stdint.h>
#include <stdbool.h>

struct spinlock { volatile uint32_t word; };

#define SPINLOCK_INIT { 0 }
#define SPIN_CONTENDED 0x80000000u

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

/* Taking a lock also holds off preemption on this CPU until it is released (kernel). A
 * failed spin_trylock counts as a trylock failure in the lock's statistics. */
void spin_lock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
void spin_unlock(struct spinlock *l);

#endif

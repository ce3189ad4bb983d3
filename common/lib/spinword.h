/* The spin-lock word and its atomic steps, shared by the kernel's locks (kernel/lock/spinlock.c,
 * sleeplock.c) and the user C library's (libc-instr/locks.c). Spin locks are built on lwarx/stwcx. The lock word holds 0 when free and the holder's id when
 * held (kernel: CPU index + 1, which panic reports show; user: 1), with SPIN_CONTENDED added
 * when the holder's hold is measured at release for the lock statistics
 * (common/lib/lockstat.h). The uncontended acquisition is the same instructions as without
 * statistics; everything else happens on the contended path.
 *
 * SPIN_FULL marks a lock whose every acquisition is counted (full counting, switched on by the
 * monitor). It always comes with SPIN_CONTENDED and both stay in the word while the lock is
 * free, so the one-try acquisition fails and every acquisition takes the counted path, and the
 * release still tests one bit (the sign); locks without the mark pay nothing. */
#ifndef KOV_SPINWORD_H
#define KOV_SPINWORD_H

#include <stdint.h>
#include <stdbool.h>

struct spinlock { volatile uint32_t word; };

#define SPINLOCK_INIT { 0 }
#define SPIN_CONTENDED 0x80000000u  /* the hold is measured at release */
#define SPIN_FULL 0x40000000u       /* every acquisition counted (with SPIN_CONTENDED) */
#define SPIN_MARKED (SPIN_CONTENDED | SPIN_FULL)   /* the word of a free, fully counted lock */
#define SPIN_HOLDER 0x3FFFFFFFu     /* the holder's id: 0 when free */

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

/* One acquisition attempt that keeps SPIN_FULL: true if no one held the lock and it now
 * carries `tag` (holder id and flags); `*seen` is the word found (the holder's id, if any). */
static inline bool spin_take_flagged(struct spinlock *l, uint32_t tag, uint32_t *seen)
{
	uint32_t w = l->word;
	*seen = w;
	if (w & SPIN_HOLDER)
		return false;
	return __atomic_compare_exchange_n(&l->word, &w, w | tag, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* Release from the measured path: a fully counted lock stays marked. */
static inline void spin_release_flagged(volatile uint32_t *word)
{
	uint32_t w = *word;
	while (!__atomic_compare_exchange_n(word, &w, w & SPIN_FULL ? SPIN_MARKED : 0, true,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
}

/* The monitor's switch of full counting on a lock word (a spin lock's or a sleep lock's): a
 * held lock switched off keeps SPIN_CONTENDED until its holder's measured release. */
static inline void spin_mark_full(volatile uint32_t *word, bool on)
{
	uint32_t w = *word;
	while (!__atomic_compare_exchange_n(word, &w, on ? w | SPIN_MARKED :
					    w & SPIN_HOLDER ? w & ~SPIN_FULL : 0, true,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
}

#endif

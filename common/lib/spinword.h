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
 * release still tests one bit (the sign); locks without the mark pay nothing.
 *
 * Built without lock statistics (KOV_NO_LOCK_INSTR, kernel/abi/kov_instr.h) the word holds only
 * the holder: spin_stat_bits reads nothing and finds no flag, and a release is a plain store. */
#ifndef KOV_SPINWORD_H
#define KOV_SPINWORD_H

#include <stdint.h>
#include <stdbool.h>
#include "kernel/abi/kov_instr.h"

struct spinlock { volatile uint32_t word; };

#define SPINLOCK_INIT { 0 }
#define SPIN_CONTENDED 0x80000000u  /* the hold is measured at release */
#define SPIN_FULL 0x40000000u       /* every acquisition counted (with SPIN_CONTENDED) */
#define SPIN_MARKED (SPIN_CONTENDED | SPIN_FULL)   /* the word of a free, fully counted lock */
#define SPIN_HOLDER 0x3FFFFFFFu     /* the holder's id: 0 when free */

/* The statistics' flags in a lock word (SPIN_MARKED bits): 0, and no load, without them. */
static inline uint32_t spin_stat_bits(const volatile uint32_t *word)
{
	return KOV_LOCK_INSTR ? *word & SPIN_MARKED : 0;
}

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

/* The release of a hold that is not measured: 0 is stored only while the word is still the
 * one read (a reservation), so that a mark the monitor's switch sets in between
 * (spin_mark_full) is not wiped out by a plain store, which left the lock uncounted for good;
 * such a release finds SPIN_CONTENDED and goes the measured way instead. False, with nothing
 * stored, when the word carries SPIN_CONTENDED. The caller orders the hold before it. Without
 * lock statistics no one else writes the word: a plain store, and never false. */
static inline bool spin_release_plain(volatile uint32_t *word)
{
#if KOV_LOCK_INSTR
	uint32_t w;
	__asm__ volatile(
		"1:	lwarx	%0, 0, %1\n"
		"	cmpwi	%0, 0\n"
		"	blt-	2f\n"
		"	stwcx.	%2, 0, %1\n"
		"	bne-	1b\n"
		"2:\n"
		: "=&r"(w) : "r"(word), "r"(0u) : "cr0", "memory");
	return (int32_t)w >= 0;
#else
	*word = 0;
	return true;
#endif
}

/* Release from the measured path: the lock stays marked if, and only if, its record is fully
 * counted now (`full` set in *flags; no record: not). The word's own SPIN_FULL is no guide: a
 * waiter that read the record's flags before a switch off puts SPIN_FULL back when it takes
 * the lock, and a switch on may have found the word held. The flags are read after each read of
 * the word (a full barrier: the monitor changes the flags, then the word), so a release racing
 * with the switch either sees the new flags or fails its store and reads them again. */
static inline void spin_release_flagged(volatile uint32_t *word, const volatile uint16_t *flags,
					uint16_t full)
{
	uint32_t w = *word, to;
	do
		to = flags && (__atomic_load_n(flags, __ATOMIC_SEQ_CST) & full) ? SPIN_MARKED : 0;
	while (!__atomic_compare_exchange_n(word, &w, to, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
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

/* The user address space and fault-safe loads of it inlined into the caller: the monitor's
 * stack walk reads user frames with them in its PMU interrupt (kernel/mm/uaccess.h has the copy
 * routines and includes this). The caller
 * checks the range and sets this CPU's uaccess_nofault flag (kernel/include/this_cpu.h) around
 * them, so a page not mapped now fails instead of being faulted in. */
#ifndef KOV_USER_LOAD_H
#define KOV_USER_LOAD_H

#include <stdbool.h>
#include <stdint.h>

/* User address space: the first 4 GiB (segments 0-15), above a guard at 0. */
#define USER_BASE 0x10000ull
#define USER_END  0x100000000ull

/* One user doubleword at p (aligned, range checked by the caller) into *v, loaded in the
 * caller's own code, for the sampler's stack walk with this CPU's uaccess_nofault set: a fault
 * resumes after the load through the fixup table (uaccess_fixup) with *err set to -KOV_EFAULT
 * instead of faulting the page in, so several loads share one check of *err. No call: a copy
 * routine called from the walk cost the call and the spilling around it for every frame. No
 * memory clobber either (it made the walk reload everything it kept in memory after each
 * load): the caller puts compiler barriers around the span in which the flag is set. */
static inline __attribute__((always_inline)) void uaccess_load_or(const uint64_t *p, uint64_t *v,
	long *err)
{
	uint64_t x;
	__asm__ volatile("1:	ld	%1, 0(%2)\n"
			 "2:\n"
			 "	.pushsection __uaccess_table, \"a\"\n"
			 "	.balign 8\n"
			 "	.quad	1b, 3f\n"
			 "	.popsection\n"
			 "	.pushsection .text.uaccess_fixup, \"ax\"\n"
			 "3:	li	%0, -14\n"
			 "	b	2b\n"
			 "	.popsection\n"
			 : "+r"(*err), "=&r"(x) : "b"(p), "m"(*p));
	*v = x;
}

/* The same for one load: false when it faulted. */
static inline __attribute__((always_inline)) bool uaccess_load(const uint64_t *p, uint64_t *v)
{
	long err = 0;
	uaccess_load_or(p, v, &err);
	return err == 0;
}

#endif

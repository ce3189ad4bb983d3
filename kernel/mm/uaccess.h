/* Copying between the kernel and a user address space. Every user pointer is checked against
 * the user range first; a page that is not mapped is faulted in through the process's regions,
 * and an address no region covers ends the copy with -KOV_EFAULT instead of a kernel fault. */
#ifndef KOV_UACCESS_H
#define KOV_UACCESS_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

/* User address space: the first 4 GiB (segments 0-15), above a guard at 0. */
#define USER_BASE 0x10000ull
#define USER_END  0x100000000ull

bool user_range_ok(uint64_t addr, uint64_t len);
/* An array of count elements of size bytes, checked without the product overflowing. */
bool user_array_ok(uint64_t addr, uint64_t count, uint64_t size);
long copy_from_user(void *dst, uint64_t src, uint64_t len);
long copy_to_user(uint64_t dst, const void *src, uint64_t len);
/* Copies a NUL-terminated string of at most max-1 bytes; returns its length, -KOV_EFAULT, or
 * -KOV_EINVAL if it does not fit. */
long string_from_user(char *dst, uint64_t src, uint64_t max);

/* For interrupt handlers (the monitor's stack walker), which checked the range and set
 * this_cpu()->uaccess_nofault themselves (once per stack walk): copies n >= 1 aligned words
 * (instructions) if they are mapped now; a page that would have to be faulted in ends the copy
 * with -KOV_EFAULT instead. Interrupts must be off. Returns 0 or -KOV_EFAULT. */
long uaccess_words32(uint32_t *dst, const uint32_t *src, uint64_t n);
/* One user doubleword at p (aligned, range checked by the caller) into *v, loaded in the
 * caller's own code, for the sampler's stack walk with this_cpu()->uaccess_nofault set: a fault
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

/* Whether a kernel-mode fault at pc must fail instead of faulting in (nofault copy). */
bool uaccess_nofault_fixup(uint64_t pc, uint64_t *resume);

/* For the fault handler: where a faulting user copy resumes, if pc is inside one. */
bool uaccess_fixup(uint64_t pc, uint64_t *resume);

#endif

/* Copying between the kernel and a user address space. Every user pointer is checked against
 * the user range first; a page that is not mapped is faulted in through the process's regions,
 * and an address no region covers ends the copy with -KOV_EFAULT instead of a kernel fault. */
#ifndef KOV_UACCESS_H
#define KOV_UACCESS_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include "kernel/include/user_load.h"

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
/* Whether a kernel-mode fault at pc must fail instead of faulting in (nofault copy). */
bool uaccess_nofault_fixup(uint64_t pc, uint64_t *resume);

/* For the fault handler: where a faulting user copy resumes, if pc is inside one. */
bool uaccess_fixup(uint64_t pc, uint64_t *resume);

#endif

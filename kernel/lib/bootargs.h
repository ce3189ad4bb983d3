/* Kernel command line: space-separated words, each "key" or "key=value". */
#ifndef KOV_BOOTARGS_H
#define KOV_BOOTARGS_H

#include <stddef.h>
#include <stdint.h>

/* Copies the value of `key` into out (NUL-terminated, truncated to n-1 bytes).
 * Returns 1 if present with a value, 0 if absent; a bare "key" yields 1 and an empty value. */
int bootarg_str(const char *args, const char *key, char *out, size_t n);

/* Parses the value of `key` as an unsigned decimal or 0x-hex number.
 * Returns 1 on success, 0 if absent, -1 if present but not a number (or out of range). */
int bootarg_u64(const char *args, const char *key, uint64_t *out);

#endif

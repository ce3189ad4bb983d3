/* The initial RAM disk: user programs linked into the image by the build (tools/mkinitrd).
 * Format (big-endian): "KOVINITR", u32 count, u32 reserved, then count entries of
 * { char name[48]; u32 offset; u32 size; } with offsets from the start of the archive. */
#ifndef KOV_INITRD_H
#define KOV_INITRD_H

#include <stdint.h>
#include <stddef.h>

/* Finds a file by name; returns its bytes and size, or 0. */
const uint8_t *initrd_find(const char *name, uint32_t *size);

#endif

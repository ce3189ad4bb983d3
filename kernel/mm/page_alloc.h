/* Physical page frames (4 KiB): a bitmap over all memory above what boot handed out. The page
 * manager object (PM) hands frames to file cache managers through this; the kernel heap takes
 * its pages here too. */
#ifndef KOV_PAGE_ALLOC_H
#define KOV_PAGE_ALLOC_H

#include <stdint.h>

/* Takes over memory after early_alloc is done; reserves the device tree blob. */
void page_alloc_init(const void *fdt_blob, uint64_t fdt_size);

/* Allocates `count` physically contiguous pages; returns the kernel address of the first,
 * zeroed, or 0 if there is no such run. */
void *page_alloc(uint64_t count);
void page_free(void *first, uint64_t count);

uint64_t pages_free(void);
uint64_t pages_total(void);

#endif

/* Boot-time physical memory: a bump allocator above the kernel image, for structures that live
 * as long as the kernel (the hashed page table on bare metal). The page manager takes over the
 * rest of memory later and starts above what was handed out here. */
#ifndef KOV_EARLY_ALLOC_H
#define KOV_EARLY_ALLOC_H

#include <stdint.h>

/* Returns the kernel address of `size` zeroed bytes aligned to `align` (a power of two);
 * panics if memory runs out. */
void *early_alloc(uint64_t size, uint64_t align);

/* First physical address not handed out by early_alloc. */
uint64_t early_alloc_end(void);

#endif

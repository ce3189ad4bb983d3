/* Device registers: the first 4 GiB of physical address space seen cache-inhibited and
 * guarded at IO_BASE (kernel only; kernel/mm/ maps it on demand like the linear map). */
#ifndef KOV_IO_H
#define KOV_IO_H

#include <stdint.h>

#define IO_BASE 0xE000000000000000ull
#define IO_BYTES (1ull << 32)
static inline volatile void *io_ptr(uint64_t phys) { return (volatile void *)(IO_BASE + phys); }

#endif

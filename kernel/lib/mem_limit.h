/* Memory a platform cannot use: regions are cut at a physical limit (mac99's 2 GiB, below which
 * the G5's devices reach memory without the DART). Portable, so the unit tests run it. */
#ifndef KOV_MEM_LIMIT_H
#define KOV_MEM_LIMIT_H

#include <stdint.h>

/* Cuts [*base, *base + *size) at limit (0: no limit); returns the bytes cut off, leaving
 * *size 0 when the whole region lies at or above the limit. */
uint64_t mem_limit_cut(uint64_t base, uint64_t *size, uint64_t limit);

#endif

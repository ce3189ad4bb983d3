#include "mem_limit.h"

uint64_t mem_limit_cut(uint64_t base, uint64_t *size, uint64_t limit)
{
	if (!limit || base + *size <= limit)
		return 0;
	uint64_t cut = base >= limit ? *size : base + *size - limit;
	*size -= cut;
	return cut;
}

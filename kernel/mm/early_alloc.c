#include "early_alloc.h"
#include "../arch/platform.h"
#include "kernel/arch/console.h"
#include "../arch/cpu.h"
#include "common/lib/string.h"

extern char _end[];
static uint64_t next_phys;

void *early_alloc(uint64_t size, uint64_t align)
{
	if (next_phys == 0)
		next_phys = phys_of(_end);
	uint64_t start = (next_phys + align - 1) & ~(align - 1);
	uint64_t limit = machine.mem_count ? machine.mem[0].base + machine.mem[0].size : 0;
	if (start + size > limit) {
		kprintf("kov: early_alloc: no room for %lu bytes (used up to 0x%lx of 0x%lx)\n",
			(unsigned long)size, (unsigned long)next_phys, (unsigned long)limit);
		machine_halt();
	}
	next_phys = start + size;
	void *p = kernel_ptr(start);
	memset(p, 0, size);
	return p;
}

uint64_t early_alloc_end(void)
{
	return next_phys ? next_phys : phys_of(_end);
}

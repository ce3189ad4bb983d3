#include "kernel/include/kernel_stack.h"
#include "../arch/percpu.h"
#include "thread.h"

extern char boot_stack_top[];
extern char cpu_stacks[];

struct stack_range kernel_stack_of(uint64_t sp)
{
	uint64_t boot_top = (uint64_t)boot_stack_top;
	if (sp <= boot_top && sp > boot_top - BOOT_STACK_SIZE)
		return (struct stack_range){ boot_top - BOOT_STACK_SIZE, boot_top };
	uint64_t base = (uint64_t)cpu_stacks;
	if (sp > base && sp <= base + (uint64_t)MAX_CPUS * CPU_STACK_SIZE) {
		uint64_t lo = base + (sp - base - 1) / CPU_STACK_SIZE * CPU_STACK_SIZE;
		return (struct stack_range){ lo, lo + CPU_STACK_SIZE };
	}
	const struct thread *t = this_cpu()->index < MAX_CPUS ? current_thread() : 0;
	if (t && t->stack && sp > (uint64_t)t->stack && sp <= (uint64_t)t->stack + t->stack_size)
		return (struct stack_range){ (uint64_t)t->stack, (uint64_t)t->stack + t->stack_size };
	return (struct stack_range){ 0, 0 };
}

bool kernel_stack_read(void *ctx, uint64_t addr, uint64_t *value)
{
	const struct stack_range *r = ctx;
	if (addr < r->lo || addr + 8 > r->hi || (addr & 7))
		return false;
	*value = *(const uint64_t *)addr;
	return true;
}

/* Kernel stacks: which one an address lies on, and bounded reads for stack walkers (the
 * kernel's panic report and the monitor's sampler). */
#ifndef KOV_STACK_H
#define KOV_STACK_H

#include <stdint.h>
#include <stdbool.h>

struct stack_range { uint64_t lo, hi; };

/* The kernel stack containing sp (boot stack or a CPU stack); {0, 0} if none. */
struct stack_range kernel_stack_of(uint64_t sp);

/* Reads an aligned doubleword inside the range passed as ctx; false outside it. */
bool kernel_stack_read(void *ctx, uint64_t addr, uint64_t *value);

#endif

/* Processor primitives (kernel/include/processor.h) and the kernel's address helpers. */
#ifndef KOV_CPU_H
#define KOV_CPU_H

#include <stdint.h>
#include "kernel/include/processor.h"

/* Converts a kernel address to the physical address it maps (top four bits dropped). */
static inline uint64_t phys_of(const volatile void *p) { return (uint64_t)p & 0x0fffffffffffffffull; }
#define KERNEL_BASE 0xC000000000000000ull
static inline void *kernel_ptr(uint64_t phys) { return (void *)(phys | KERNEL_BASE); }

#endif

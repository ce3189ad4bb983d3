/* Reading and writing the performance-monitor counters by number (mfspr/mtspr take the SPR
 * number as an immediate, so each counter is its own instruction). Target only. */
#ifndef KOV_PMU_ACCESS_H
#define KOV_PMU_ACCESS_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/include/processor.h"

static inline void write_pmc(int pmc, uint32_t v)
{
	switch (pmc) {
	case 1: mtspr(SPRN_PMC1 + 0, v); break;
	case 2: mtspr(SPRN_PMC1 + 1, v); break;
	case 3: mtspr(SPRN_PMC1 + 2, v); break;
	case 4: mtspr(SPRN_PMC1 + 3, v); break;
	case 5: mtspr(SPRN_PMC1 + 4, v); break;
	case 6: mtspr(SPRN_PMC1 + 5, v); break;
	case 7: mtspr(SPRN_PMC1 + 6, v); break;
	case 8: mtspr(SPRN_PMC1 + 7, v); break;
	}
}

static inline uint32_t read_pmc(int pmc)
{
	switch (pmc) {
	case 1: return (uint32_t)mfspr(SPRN_PMC1 + 0);
	case 2: return (uint32_t)mfspr(SPRN_PMC1 + 1);
	case 3: return (uint32_t)mfspr(SPRN_PMC1 + 2);
	case 4: return (uint32_t)mfspr(SPRN_PMC1 + 3);
	case 5: return (uint32_t)mfspr(SPRN_PMC1 + 4);
	case 6: return (uint32_t)mfspr(SPRN_PMC1 + 5);
	case 7: return (uint32_t)mfspr(SPRN_PMC1 + 6);
	case 8: return (uint32_t)mfspr(SPRN_PMC1 + 7);
	}
	return 0;
}

/* Reads counter pmc into *v and, when it overflowed (ovf: its overflow bit) less than p events
 * ago, reloads it so that it overflows again p events after it did (it has counted v - ovf
 * past that). The sampler's leaf path: one switch reads and writes, as mfspr and mtspr name
 * the counter in the instruction. False, the counter untouched, otherwise. */
#define PMC_EXCHANGE(n)                                                               \
	case n - 1:                                                                   \
		*v = (uint32_t)mfspr(SPRN_PMC1 + n - 1);                              \
		if (!(*v & ovf) || *v - ovf >= p)                                     \
			return false;                                                 \
		mtspr(SPRN_PMC1 + n - 1, *v - p);                                     \
		return true;
static inline __attribute__((always_inline)) bool pmc_exchange(int pmc, uint32_t ovf, uint32_t p,
	uint32_t *v)
{
	switch ((pmc - 1) & 7) {   /* every value a case: no range check */
	PMC_EXCHANGE(1) PMC_EXCHANGE(2) PMC_EXCHANGE(3) PMC_EXCHANGE(4)
	PMC_EXCHANGE(5) PMC_EXCHANGE(6) PMC_EXCHANGE(7) PMC_EXCHANGE(8)
	}
	return false;
}
#undef PMC_EXCHANGE

#endif

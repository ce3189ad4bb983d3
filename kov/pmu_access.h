/* Reading and writing the performance-monitor counters by number (mfspr/mtspr take the SPR
 * number as an immediate, so each counter is its own instruction). Target only. */
#ifndef KOV_PMU_ACCESS_H
#define KOV_PMU_ACCESS_H

#include <stdint.h>
#include "../kernel/arch/cpu.h"

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

#endif

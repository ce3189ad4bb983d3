#include "pmu_book3s.h"

uint32_t book3s_preload(uint32_t period)
{
	if (period == 0)
		period = 1;
	if (period > 0x80000000u)
		period = 0x80000000u;
	return 0x80000000u - period;
}

uint64_t book3s_overflow_bits(unsigned pmc_mask)
{
	uint64_t v = 0;
	if (pmc_mask & PMCS(1))
		v |= MMCR0_PMC1CE;
	if (pmc_mask & 0xfeu)
		v |= MMCR0_PMCJCE;
	return v ? v | MMCR0_PMXE : 0;
}

struct pmu_regs book3s_program(const struct pmu_regs *selects, unsigned sample_pmcs,
	unsigned modes)
{
	struct pmu_regs r = *selects;
	if (!(modes & PMU_COUNT_KERNEL))
		r.mmcr0 |= MMCR0_FCS | (modes & PMU_KERNEL_HV ? MMCR0_FCH : 0);
	if (!(modes & PMU_COUNT_USER))
		r.mmcr0 |= MMCR0_FCP;
	r.mmcr0 &= ~(uint64_t)(MMCR0_FC | MMCR0_PMAO);
	r.mmcr0 |= book3s_overflow_bits(sample_pmcs);
	return r;
}

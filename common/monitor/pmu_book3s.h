/* The MMCR0 overflow and freeze control every Book3S PMU here shares (the 970 and the ISA 2.07
 * counters alike): backends point their operations (common/monitor/pmu_backend.h) at these. Portable. */
#ifndef KOV_PMU_BOOK3S_H
#define KOV_PMU_BOOK3S_H

#include <stdbool.h>
#include <stdint.h>
#include "pmu_backend.h"

/* Preloading 0x80000000 - period makes the counter's top bit set after `period` events
 * (clamped to 1 .. 0x80000000). */
uint32_t book3s_preload(uint32_t period);
/* PMC1CE for PMC1, PMCjCE for any of PMC2-8 (one bit for all of them), and PMXE; 0 for none. */
uint64_t book3s_overflow_bits(unsigned pmc_mask);
/* The selects with FCS / FCP for the modes not counted, FC and PMAO clear, and the overflow
 * bits of sample_pmcs. */
struct pmu_regs book3s_program(const struct pmu_regs *selects, unsigned sample_pmcs,
	unsigned modes);

/* The overflow interrupt's control fields of a backend table: FC freezes, PMAO is the alert,
 * PMXE the enable, and a counter overflows at bit 31. */
#define BOOK3S_INTERRUPT_CONTROL \
	.mmcr0_freeze = MMCR0_FC, .mmcr0_alert = MMCR0_PMAO, .mmcr0_irq_enable = MMCR0_PMXE, \
	.pmc_overflowed = 0x80000000u

#endif

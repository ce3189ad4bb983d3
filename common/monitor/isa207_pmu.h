/* The ISA 2.07 counters QEMU provides (`isa207_pmu`, common/monitor/pmu_backend.h), the architected
 * fallback backend.
 *
 * QEMU's TCG PMU applies the ISA 2.07 (POWER8) rules to every model, the 970 included: PMC5
 * always counts completed instructions and PMC6 cycles while MMCR0[FC] and [FC56] are clear;
 * PMC1-4 count only the architected selects below, written to MMCR1 at shifts 24, 16, 8, 0;
 * PMC7/8 never count. On real 970 silicon these values select unrelated events, which is why
 * this backend is used only for what the boot probe saw count through these selects. */
#ifndef KOV_ISA207_PMU_H
#define KOV_ISA207_PMU_H

#include <stddef.h>
#include <stdint.h>
#include "pmu_backend.h"

extern const struct pmu_backend isa207_pmu;

/* Event codes: the architected PMCxSEL values (PM_INST_CMPL, PM_CYC). */
#define ISA207_INSTRUCTIONS 0x02u
#define ISA207_CYCLES 0x1eu
#define ISA207_COUNTERS 6
/* MMCR1 select of PMC1-4, 8 bits each. */
#define MMCR1_207_SHIFT(pmc) (24 - 8 * ((pmc) - 1))

/* codes: ISA207_INSTRUCTIONS or ISA207_CYCLES, optionally PMU_PIN()ned to a counter. The first
 * instructions event gets PMC5 and the first cycles event PMC6 (their own counters), others
 * PMC1-4. MMCR0[FC56] is set when neither PMC5 nor PMC6 is used, so they cannot raise stray
 * overflows. Returns PMU_OK or a PMU_E* code with a sentence in `why`. */
int isa207_assign(const uint32_t *codes, int n, struct pmu_assignment *out, char *why,
	size_t why_size);

#endif

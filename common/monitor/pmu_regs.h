/* Book3S performance-monitor register fields shared by the PMU backends (970FX user manual;
 * Power ISA 2.07; Linux arch/powerpc/include/asm/reg.h). The generic monitor does not use
 * them: it asks its backend (common/monitor/pmu_backend.h). Each backend's header adds its own selects. */
#ifndef KOV_PMU_REGS_H
#define KOV_PMU_REGS_H

#define NUM_PMCS 8

/* MMCR0 */
#define MMCR0_FC       0x80000000u   /* freeze counters */
#define MMCR0_FCS      0x40000000u   /* ... in supervisor state */
#define MMCR0_FCP      0x20000000u   /* ... in problem (user) state */
#define MMCR0_PMXE     0x04000000u   /* performance-monitor interrupt enable */
#define MMCR0_PMC1CE   0x00008000u   /* PMC1 overflow raises the alert */
#define MMCR0_PMCJCE   0x00004000u   /* PMC2..n overflow raises it */
#define MMCR0_PMC1SEL_SHIFT 8
#define MMCR0_PMAO     0x00000080u   /* alert occurred */
#define MMCR0_PMC2SEL_SHIFT 1
#define MMCR0_FC56     0x00000010u   /* ISA 2.07: freeze PMC5 and PMC6 */
#define MMCR0_FCH      0x00000001u   /* ... in hypervisor state (FCHV: MSR[HV]=1, PR=0) */

#endif

/* PowerPC 970/970FX performance-monitor register fields (970FX user manual; Linux
 * arch/powerpc/include/asm/reg.h), plus the ISA 2.07 fields QEMU applies to every model. */
#ifndef KOV_PMU_REGS_H
#define KOV_PMU_REGS_H

#define NUM_PMCS 8

/* MMCR0 (970) */
#define MMCR0_FC       0x80000000u
#define MMCR0_FCS      0x40000000u
#define MMCR0_FCP      0x20000000u
#define MMCR0_PMXE     0x04000000u
#define MMCR0_PMC1CE   0x00008000u
#define MMCR0_PMCJCE   0x00004000u
#define MMCR0_PMC1SEL_SHIFT 8
#define MMCR0_PMAO     0x00000080u
#define MMCR0_PMC2SEL_SHIFT 1
#define MMCR0_FCH      0x00000001u
/* MMCR1 (970): PMC3SEL..PMC8SEL, 5 bits each */
#define MMCR1_PMCSEL_SHIFT(pmc) (27 - 5 * ((pmc) - 3))
/* 970 PMCxSEL values of the any-counter direct events: the event code's select with bit 3 set
 * (Linux ppc970-pmu.c, IBM's published event groups); 8 alone selects nothing. */
#define P970_SEL_INST_CMPL 0x9
#define P970_SEL_CYC       0xF
#define P970_SEL_OFF       0x8

/* ISA 2.07 (what QEMU implements): 8-bit selects for PMC1-4 in MMCR1, PMC5 counts instructions
 * and PMC6 cycles unless MMCR0[FC56] is set. */
#define MMCR0_FC56     0x00000010u
#define MMCR1_207_SHIFT(pmc) (24 - 8 * ((pmc) - 1))
#define P207_SEL_INST_CMPL 0x02
#define P207_SEL_CYC       0x1e

#endif

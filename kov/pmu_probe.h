/* Boot-time PMU probe: for each counter, whether it counts a loop of known length with the
 * instructions and cycles selects of two backends (common/monitor/pmu_backend.h) — the processor's own
 * and the architected fallback — and whether its overflow interrupts. The results seed the
 * KM's event catalogue: nothing is assumed, everything is measured. */
#ifndef KOV_PMU_PROBE_H
#define KOV_PMU_PROBE_H

#include <stdint.h>
#include <stdbool.h>
#include "kernel/include/trap_frame.h"
#include "common/monitor/pmu_backend.h"

/* The columns of the probe: (backend, event). */
enum probe_encoding {
	PROBE_NATIVE_INST, PROBE_NATIVE_CYC, PROBE_ARCH_INST, PROBE_ARCH_CYC, PROBE_ENCODINGS
};

struct pmu_probe_result {
	uint32_t pvr;
	const struct pmu_backend *native;                /* the processor's PMU (registry's choice) */
	const struct pmu_backend *arch;                  /* the architected fallback */
	uint64_t loop_instructions;                      /* instructions in the measured loop */
	uint32_t delta[NUM_PMCS][PROBE_ENCODINGS];       /* counter change over the loop */
	int overflow_irq[NUM_PMCS];                      /* 1 yes, 0 no, -1 not tried */
	int overflow_encoding[NUM_PMCS];                 /* encoding the overflow was tried with */
	uint64_t overflow_nip[NUM_PMCS];                 /* SRR0 at the overflow interrupt */
	/* The loop counted with the kernel excluded (MMCR0[FCS], and [FCHV] when the kernel runs
	 * in hypervisor state), on the first counter counting instructions through each backend:
	 * 1 the count stopped (filtering works), 0 it did not, -1 not tried. */
	int kernel_filter_native, kernel_filter_arch;
	uint32_t kernel_filter_delta[2];                 /* native, arch: what was counted */
	bool kernel_is_hv;                               /* MSR[HV] was set */
};

extern struct pmu_probe_result pmu_probe_result;

/* Chooses the backends for this processor, runs the probe on the calling CPU and prints the
 * table. Interrupts must be ready. */
void pmu_probe(void);


/* The 0xF00 handler (until the KM owns the PMU). */
void pmu_interrupt(struct trap_frame *tf);

#endif

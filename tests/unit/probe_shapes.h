/* Boot-probe results shaped like QEMU 10's and like real 970 silicon's, for the catalogue
 * and plan tests. */
#ifndef KOV_TEST_PROBE_SHAPES_H
#define KOV_TEST_PROBE_SHAPES_H

#include <string.h>
#include "common/monitor/pmu_event.h"

static inline void fill(struct probe_cell cells[][PROBE_EVENT_COUNT], unsigned pmcs, int ev,
	bool counts, int irq)
{
	for (int p = 1; p <= PROBE_PMCS; p++) {
		if (!(pmcs & PMCS(p)))
			continue;
		cells[p - 1][ev].counts = counts;
		cells[p - 1][ev].overflow_irq = (int8_t)irq;
	}
}

/* Nothing counted, no interrupt tried. */
static inline void empty_probe(struct catalogue_probe *p)
{
	memset(p, 0, sizeof *p);
	fill(p->native, PMCS_ANY, PROBE_INSTRUCTIONS, false, -1);
	fill(p->native, PMCS_ANY, PROBE_CYCLES, false, -1);
	fill(p->arch, PMCS_ANY, PROBE_INSTRUCTIONS, false, -1);
	fill(p->arch, PMCS_ANY, PROBE_CYCLES, false, -1);
	p->kernel_filter_native = p->kernel_filter_arch = -1;
}

/* QEMU 10 (platform facts): PMC1-4 count both with ISA 2.07 selects, PMC5 instructions, PMC6
 * cycles, PMC7/8 nothing; an instructions overflow interrupts; PMC6's does not; 970 selects
 * count nothing. */
static inline void qemu_probe(struct catalogue_probe *p)
{
	empty_probe(p);
	fill(p->arch, 0x1f, PROBE_INSTRUCTIONS, true, 1);
	fill(p->arch, 0x0f, PROBE_CYCLES, true, -1);
	fill(p->arch, PMCS(6), PROBE_CYCLES, true, 0);
	p->kernel_filter_arch = 0;   /* QEMU ignores MMCR0[FCS] */
}

static inline void silicon_probe(struct catalogue_probe *p)
{
	empty_probe(p);
	fill(p->native, PMCS_ANY, PROBE_INSTRUCTIONS, true, 1);
	fill(p->native, PMCS_ANY, PROBE_CYCLES, true, 1);
	p->kernel_filter_native = 1;
}

#endif

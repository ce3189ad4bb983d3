#include "km_catalogue.h"
#include "pmu_probe.h"
#include "kernel/include/kov_services.h"
#include "kernel/include/kov_hooks.h"

struct catalogue km_catalogue;

/* The probe's table, in the catalogue's terms: native (the processor's backend's selects) and
 * architected cells per counter (which of them counted instructions or cycles: fixed
 * counters told apart, common/monitor/pmu_event.c), with the overflow result on the encoding it was
 * tried with, and whether excluding the kernel stopped the count. */
static void probe_cells(struct catalogue_probe *cp)
{
	const struct pmu_probe_result *r = &pmu_probe_result;
	uint32_t native[PROBE_PMCS][PROBE_EVENT_COUNT], arch[PROBE_PMCS][PROBE_EVENT_COUNT];
	for (int p = 0; p < PROBE_PMCS; p++) {
		native[p][PROBE_INSTRUCTIONS] = r->delta[p][PROBE_NATIVE_INST];
		native[p][PROBE_CYCLES] = r->delta[p][PROBE_NATIVE_CYC];
		arch[p][PROBE_INSTRUCTIONS] = r->delta[p][PROBE_ARCH_INST];
		arch[p][PROBE_CYCLES] = r->delta[p][PROBE_ARCH_CYC];
	}
	catalogue_probe_counts(cp, native, arch, r->loop_instructions);
	cp->kernel_filter_native = (int8_t)r->kernel_filter_native;
	cp->kernel_filter_arch = (int8_t)r->kernel_filter_arch;
	for (int p = 0; p < PROBE_PMCS; p++) {
		for (int e = 0; e < PROBE_EVENT_COUNT; e++)
			cp->native[p][e].overflow_irq = cp->arch[p][e].overflow_irq = -1;
		struct probe_cell *tried = 0;
		switch (r->overflow_encoding[p]) {
		case PROBE_NATIVE_INST: tried = &cp->native[p][PROBE_INSTRUCTIONS]; break;
		case PROBE_NATIVE_CYC: tried = &cp->native[p][PROBE_CYCLES]; break;
		case PROBE_ARCH_INST: tried = &cp->arch[p][PROBE_INSTRUCTIONS]; break;
		case PROBE_ARCH_CYC: tried = &cp->arch[p][PROBE_CYCLES]; break;
		}
		if (tried)
			tried->overflow_irq = (int8_t)r->overflow_irq[p];
	}
	if (cp->cycles_are_instructions)
		kprintf("kov: cycles equal instructions on every counter (QEMU -icount?): counters that "
			"ignore their select are told apart by the backends' tables, not by the probe\n");
}

void km_catalogue_init(void)
{
	struct catalogue_probe cp;
	probe_cells(&cp);
	if (catalogue_init_pmu(&km_catalogue, pmu_probe_result.native, pmu_probe_result.arch) != 0) {
		kprintf("kov: event catalogue: the backend's table does not fit\n");
		return;
	}
	catalogue_apply_probe(&km_catalogue, &cp);
	size_t n = catalogue_count(&km_catalogue), counting = 0, sampling = 0, hw = 0, filtered = 0;
	size_t basis[BASIS_SOFTWARE + 1] = { 0 };
	for (size_t i = 0; i < n; i++) {
		const struct event_status *s = catalogue_status(&km_catalogue, i);
		const struct event_desc *d = catalogue_desc(&km_catalogue, i);
		hw += d->source == EVSRC_HW;
		counting += s->counts_here;
		sampling += s->samples_here;
		basis[s->basis]++;
		filtered += s->modes_filtered;
	}
	kprintf("kov: event catalogue: %lu events (%lu hardware, %lu software); %lu count here, "
		"%lu can sample here\n", (unsigned long)n, (unsigned long)hw, (unsigned long)(n - hw),
		(unsigned long)counting, (unsigned long)sampling);
	kprintf("kov: counting basis: %lu measured by the probe, %lu assumed (not themselves "
		"probed), %lu software, %lu not counted; one mode only (kernel or user) honoured by "
		"%lu\n", (unsigned long)basis[BASIS_MEASURED], (unsigned long)basis[BASIS_ASSUMED],
		(unsigned long)basis[BASIS_SOFTWARE], (unsigned long)basis[BASIS_NOT_COUNTED],
		(unsigned long)filtered);
	kprintf("kov: PMU in use: %s\n", km_pmu_name());
	for (size_t i = 0; i < n; i++) {
		const struct event_status *s = catalogue_status(&km_catalogue, i);
		const struct event_desc *d = catalogue_desc(&km_catalogue, i);
		if (d->source == EVSRC_HW && s->counts_here && s->basis == BASIS_MEASURED)
			kprintf("kov: counts here: %s (%s selects, counters 0x%02x, samples on 0x%02x)\n",
				d->name, catalogue_selects(&km_catalogue, s->encoding),
				s->count_pmcs, s->sample_pmcs);
	}
}

const char *km_pmu_name(void)
{
	const struct pmu_backend *b = catalogue_pmu_in_use(&km_catalogue);
	return b ? b->name : "none";
}

void km_hw_basis(unsigned *hardware, unsigned *measured, unsigned *assumed)
{
	*hardware = *measured = *assumed = 0;
	for (size_t i = 0; i < catalogue_count(&km_catalogue); i++) {
		const struct event_status *s = catalogue_status(&km_catalogue, i);
		if (catalogue_desc(&km_catalogue, i)->source != EVSRC_HW)
			continue;
		(*hardware)++;
		*measured += s->counts_here && s->basis == BASIS_MEASURED;
		*assumed += s->counts_here && s->basis == BASIS_ASSUMED;
	}
}

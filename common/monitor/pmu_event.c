#include "pmu_event.h"
#include "pmu_backend.h"
#include "common/lib/format.h"

static const struct event_desc sw_events[SW_EVENT_COUNT] = {
	[SW_SLB_MISS] = { "SW_SLB_MISS", "Segment lookaside buffer misses handled by the kernel",
		EVSRC_SW, SW_SLB_MISS, EV_CAN_SAMPLE, 0 },
	[SW_HPT_MISS] = { "SW_HPT_MISS", "Hashed page table misses (page faults)",
		EVSRC_SW, SW_HPT_MISS, EV_CAN_SAMPLE, 0 },
	[SW_CONTEXT_SWITCH] = { "SW_CONTEXT_SWITCH", "Thread context switches",
		EVSRC_SW, SW_CONTEXT_SWITCH, EV_CAN_SAMPLE, 0 },
	[SW_SYSCALL] = { "SW_SYSCALL", "System calls",
		EVSRC_SW, SW_SYSCALL, EV_CAN_SAMPLE, 0 },
	[SW_SLEEPLOCK_BLOCK] = { "SW_SLEEPLOCK_BLOCK", "Threads blocked on a sleep lock",
		EVSRC_SW, SW_SLEEPLOCK_BLOCK, EV_CAN_SAMPLE, 0 },
	[SW_CPU_CLOCK] = { "SW_CPU_CLOCK", "CPU time measured with the decrementer",
		EVSRC_SW, SW_CPU_CLOCK, EV_CAN_SAMPLE, 0 },
};

static const char why_not_probed[] = "not probed yet";
static const char why_no_counter[] = "no counter counted it in the boot probe";
static const char why_cannot_sample[] = "this event cannot raise overflow samples";
static const char why_irq_untried[] = "counts, but the boot probe did not try its overflow interrupt";
static const char why_no_irq[] =
	"counts, but no counter's overflow interrupted in the boot probe; sample by time with "
	"SW_CPU_CLOCK";
static const char why_emulated[] =
	"the processor's own selects counted the boot probe's loop, but one cycle per instruction, "
	"as an emulator under -icount does, not a real PMU: its events other than instructions "
	"and cycles are not believed to count";

const char *event_basis_name(enum event_basis b)
{
	switch (b) {
	case BASIS_MEASURED: return "measured";
	case BASIS_ASSUMED: return "assumed";
	case BASIS_SOFTWARE: return "software";
	default: return "not counted";
	}
}

bool probe_exact_instructions(uint32_t delta, uint64_t n)
{
	return delta >= n && delta <= n + n / 50;
}

bool probe_plausible_cycles(uint32_t delta, uint64_t n)
{
	return delta >= n / 8 && delta < 100 * n;
}

bool probe_counts_agree(uint32_t a, uint32_t b, uint64_t n)
{
	uint32_t d = a > b ? a - b : b - a;
	return d <= n / 50;
}

void catalogue_probe_counts(struct catalogue_probe *p, const uint32_t native[][PROBE_EVENT_COUNT],
	const uint32_t arch[][PROBE_EVENT_COUNT], uint64_t n)
{
	/* Cycles told from instructions anywhere: a counter whose selects both count the loop's
	 * instructions then counts instructions whatever its select. */
	bool distinct = false;
	for (int b = 0; b < 2; b++)
		for (int q = 0; q < PROBE_PMCS; q++) {
			const uint32_t *d = b ? arch[q] : native[q];
			distinct |= probe_exact_instructions(d[PROBE_INSTRUCTIONS], n) &&
				    probe_plausible_cycles(d[PROBE_CYCLES], n) &&
				    !probe_counts_agree(d[PROBE_INSTRUCTIONS], d[PROBE_CYCLES], n);
		}
	p->cycles_are_instructions = false;
	for (int b = 0; b < 2; b++)
		for (int q = 0; q < PROBE_PMCS; q++) {
			const uint32_t *d = b ? arch[q] : native[q];
			struct probe_cell *c = b ? p->arch[q] : p->native[q];
			bool inst = probe_exact_instructions(d[PROBE_INSTRUCTIONS], n);
			bool cyc = probe_plausible_cycles(d[PROBE_CYCLES], n);
			if (probe_counts_agree(d[PROBE_INSTRUCTIONS], d[PROBE_CYCLES], n) && inst && cyc) {
				/* A fixed counter, or cycles that are instructions: which one? */
				if (distinct)
					cyc = false;
				else
					p->cycles_are_instructions = true;
			}
			c[PROBE_INSTRUCTIONS].counts = inst;
			c[PROBE_CYCLES].counts = cyc;
		}
}

const struct event_desc *sw_event_desc(enum sw_event e)
{
	return (unsigned)e < SW_EVENT_COUNT ? &sw_events[e] : NULL;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

bool name_equal(const char *a, const char *b)
{
	for (; *a && *b; a++, b++)
		if (lower(*a) != lower(*b))
			return false;
	return *a == *b;
}

static int init(struct catalogue *c, const struct event_desc *hw, size_t n_hw,
	const struct pmu_backend *native, const struct pmu_backend *arch)
{
	if (n_hw > CATALOGUE_MAX - SW_EVENT_COUNT)
		return -1;
	c->hw = hw;
	c->n_hw = n_hw;
	c->native = native;
	c->arch = arch;
	format_buf(c->why_no_native, sizeof c->why_no_native, "%s event selects counted nothing in "
		"the boot probe; only the %s instructions and cycles events count on this machine",
		catalogue_selects(c, EVENC_NATIVE), catalogue_selects(c, EVENC_ARCH));
	for (size_t i = 0; i < CATALOGUE_MAX; i++)
		c->status[i] = (struct event_status){ .why_not = why_not_probed };
	for (size_t i = 0; i < SW_EVENT_COUNT; i++)
		c->status[n_hw + i] = (struct event_status){ .counts_here = true, .samples_here = true,
							     .basis = BASIS_SOFTWARE };
	return 0;
}

int catalogue_init_pmu(struct catalogue *c, const struct pmu_backend *native,
	const struct pmu_backend *arch)
{
	return init(c, native ? native->events : NULL, native ? native->n_events : 0, native, arch);
}

int catalogue_init(struct catalogue *c, const struct event_desc *hw, size_t n_hw)
{
	return init(c, hw, n_hw, pmu_backend_of_events(hw), pmu_backend_architected());
}

const struct pmu_backend *catalogue_backend(const struct catalogue *c, enum event_encoding enc)
{
	return enc == EVENC_NATIVE ? c->native : enc == EVENC_ARCH ? c->arch : NULL;
}

const char *catalogue_selects(const struct catalogue *c, enum event_encoding enc)
{
	const struct pmu_backend *b = catalogue_backend(c, enc);
	return b ? b->selects : "no";
}

const struct pmu_backend *catalogue_pmu_in_use(const struct catalogue *c)
{
	bool arch = false;
	for (size_t i = 0; i < c->n_hw; i++) {
		if (!c->status[i].counts_here)
			continue;
		if (c->status[i].encoding == EVENC_NATIVE)
			return c->native;
		arch |= c->status[i].encoding == EVENC_ARCH;
	}
	return arch ? c->arch : NULL;
}

size_t catalogue_count(const struct catalogue *c)
{
	return c->n_hw + SW_EVENT_COUNT;
}

const struct event_desc *catalogue_desc(const struct catalogue *c, size_t i)
{
	if (i < c->n_hw)
		return &c->hw[i];
	if (i < catalogue_count(c))
		return &sw_events[i - c->n_hw];
	return NULL;
}

const struct event_status *catalogue_status(const struct catalogue *c, size_t i)
{
	return i < catalogue_count(c) ? &c->status[i] : NULL;
}

int catalogue_find(const struct catalogue *c, const char *name)
{
	for (size_t i = 0; i < catalogue_count(c); i++)
		if (name_equal(catalogue_desc(c, i)->name, name))
			return (int)i;
	return -1;
}

/* Counters whose cell for `ev` counts (irq == false) or interrupted (irq == true). */
static uint8_t cells_where(const struct probe_cell cells[][PROBE_EVENT_COUNT], int ev, bool irq)
{
	uint8_t m = 0;
	for (int p = 0; p < PROBE_PMCS; p++)
		if (irq ? cells[p][ev].overflow_irq == 1 : cells[p][ev].counts)
			m |= (uint8_t)(1u << p);
	return m;
}

static uint8_t cells_tried(const struct probe_cell cells[][PROBE_EVENT_COUNT], int ev)
{
	uint8_t m = 0;
	for (int p = 0; p < PROBE_PMCS; p++)
		if (cells[p][ev].overflow_irq >= 0)
			m |= (uint8_t)(1u << p);
	return m;
}

static void judge_sampling(struct event_status *s, const struct event_desc *d, uint8_t irq,
	uint8_t tried)
{
	s->sample_pmcs = irq & s->count_pmcs;
	s->samples_here = (d->flags & EV_CAN_SAMPLE) && s->sample_pmcs;
	if (s->samples_here)
		s->why_not = NULL;
	else if (!(d->flags & EV_CAN_SAMPLE))
		s->why_not = why_cannot_sample;
	else if (!(tried & s->count_pmcs))
		s->why_not = why_irq_untried;
	else
		s->why_not = why_no_irq;
	if (!s->samples_here)
		s->sample_pmcs = 0;
}

/* The counters the backend's own table allows for its generic instructions or cycles event
 * (every counter without a backend or such an event). */
static uint8_t generic_pmcs(const struct pmu_backend *b, uint32_t flag)
{
	for (size_t i = 0; b && i < b->n_events; i++)
		if (b->events[i].flags & flag)
			return b->events[i].pmcs;
	return PMCS_ANY;
}

/* Instructions and cycles were measured directly: prefer the native selects (real silicon)
 * and fall back to the architected ones (what QEMU counts). Each on the counters its
 * backend's table allows: where the probe could not tell a fixed cycle counter from an
 * instruction counter (cycles equal instructions), the table can. */
static void judge_generic(const struct catalogue *c, struct event_status *s,
	const struct event_desc *d, const struct catalogue_probe *p, int ev)
{
	uint32_t flag = ev == PROBE_INSTRUCTIONS ? EV_GENERIC_INST : EV_GENERIC_CYC;
	uint8_t native = cells_where(p->native, ev, false) & d->pmcs;
	uint8_t arch = cells_where(p->arch, ev, false) & generic_pmcs(c->arch, flag);
	if (native) {
		s->encoding = EVENC_NATIVE;
		s->count_pmcs = native;
		judge_sampling(s, d, cells_where(p->native, ev, true), cells_tried(p->native, ev));
	} else if (arch) {
		s->encoding = EVENC_ARCH;
		s->count_pmcs = arch;
		judge_sampling(s, d, cells_where(p->arch, ev, true), cells_tried(p->arch, ev));
	} else {
		s->why_not = why_no_counter;
	}
	s->counts_here = native || arch;
	s->basis = s->counts_here ? BASIS_MEASURED : BASIS_NOT_COUNTED;
}

/* Any other native event cannot be checked against a known loop. It is believed to count
 * (basis "assumed", never "measured") where the probe found the processor's own counters
 * working as a real PMU's: instructions and cycles both counted through the native selects,
 * and cycles told apart from instructions (an emulator under -icount counts one cycle per
 * instruction; its other events are not believed). It samples where their overflow
 * interrupted. */
static void judge_native(const struct catalogue *c, struct event_status *s,
	const struct event_desc *d, const struct catalogue_probe *p)
{
	uint8_t inst = cells_where(p->native, PROBE_INSTRUCTIONS, false);
	uint8_t cyc = cells_where(p->native, PROBE_CYCLES, false);
	uint8_t works = inst | cyc;
	s->basis = BASIS_NOT_COUNTED;
	if (!works) {
		s->why_not = c->why_no_native;
		return;
	}
	if (!inst || !cyc || p->cycles_are_instructions) {
		s->why_not = why_emulated;
		return;
	}
	s->count_pmcs = works & d->pmcs;
	s->counts_here = s->count_pmcs != 0;
	if (!s->counts_here) {
		s->why_not = why_no_counter;
		return;
	}
	s->basis = BASIS_ASSUMED;
	s->encoding = EVENC_NATIVE;
	judge_sampling(s, d,
		cells_where(p->native, PROBE_INSTRUCTIONS, true) |
			cells_where(p->native, PROBE_CYCLES, true),
		cells_tried(p->native, PROBE_INSTRUCTIONS) | cells_tried(p->native, PROBE_CYCLES));
}

void catalogue_apply_probe(struct catalogue *c, const struct catalogue_probe *p)
{
	for (size_t i = 0; i < c->n_hw; i++) {
		const struct event_desc *d = &c->hw[i];
		struct event_status *s = &c->status[i];
		*s = (struct event_status){ 0 };
		if (d->flags & EV_GENERIC_INST)
			judge_generic(c, s, d, p, PROBE_INSTRUCTIONS);
		else if (d->flags & EV_GENERIC_CYC)
			judge_generic(c, s, d, p, PROBE_CYCLES);
		else
			judge_native(c, s, d, p);
		/* Counting one mode only is honoured where the probe saw the kernel excluded. */
		int8_t filter = s->encoding == EVENC_NATIVE ? p->kernel_filter_native :
				s->encoding == EVENC_ARCH ? p->kernel_filter_arch : -1;
		s->modes_filtered = s->counts_here && filter == 1;
	}
}

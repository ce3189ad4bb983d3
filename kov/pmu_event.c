#include "pmu_event.h"
#include "pmu_backend.h"
#include "../kernel/lib/format.h"

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
		c->status[n_hw + i] = (struct event_status){ .counts_here = true, .samples_here = true };
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

/* Instructions and cycles were measured directly: prefer the native selects (real silicon)
 * and fall back to the architected ones (what QEMU counts). */
static void judge_generic(struct event_status *s, const struct event_desc *d,
	const struct catalogue_probe *p, int ev)
{
	uint8_t native = cells_where(p->native, ev, false) & d->pmcs;
	uint8_t arch = cells_where(p->arch, ev, false);
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
}

/* Any other native event cannot be checked against a known loop; it is trusted to count
 * where the probe saw the native selects work at all, and to sample where their overflow
 * interrupted. */
static void judge_native(const struct catalogue *c, struct event_status *s,
	const struct event_desc *d, const struct catalogue_probe *p)
{
	uint8_t works = cells_where(p->native, PROBE_INSTRUCTIONS, false) |
		cells_where(p->native, PROBE_CYCLES, false);
	s->count_pmcs = works & d->pmcs;
	s->counts_here = s->count_pmcs != 0;
	if (!s->counts_here) {
		s->why_not = works ? why_no_counter : c->why_no_native;
		return;
	}
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
			judge_generic(s, d, p, PROBE_INSTRUCTIONS);
		else if (d->flags & EV_GENERIC_CYC)
			judge_generic(s, d, p, PROBE_CYCLES);
		else
			judge_native(c, s, d, p);
	}
}

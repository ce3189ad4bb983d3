/* A PMU backend: what the generic monitor (kov/km*.c, kov/pmu_probe.c, common/monitor/km_plan.c) needs to
 * know about one family of performance-monitor hardware, as an operations table in the manner
 * of Linux's struct power_pmu (arch/powerpc/perf/core-book3s.c against ppc970-pmu.c and
 * generic-compat-pmu.c). The generic code never names a backend: it gets one from the registry
 * below and calls through the table.
 *
 * Every operation is a computation on register images, never a register access: the generic
 * target code reads and writes the Book3S SPRs (MMCR0, MMCR1, MMCRA, PMC1-8, whose numbers every
 * backend here shares) with the values the backend computes. So backends are portable and the
 * host unit tests pin them. What the overflow handler needs on every sample (freeze, unfreeze,
 * re-arm, disarm, overflowed) is given as register bits, applied by the inline functions
 * below. Counters are 32 bits and raise their overflow at bit 31 on every
 * backend (common/monitor/sample_period.c relies on it for the period arithmetic).
 *
 * Event codes are the backend's own encoding in bits 0-15; bits 16-19 may hold a counter the
 * caller wants the event on (PMU_PIN), which every assign() honours or refuses with a reason.
 *
 * To add a backend: a new file defining a `const struct pmu_backend`, and one line in the
 * registry's list (common/monitor/pmu_backends.c). docs/adding.md has the steps. */
#ifndef KOV_PMU_BACKEND_H
#define KOV_PMU_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu_event.h"
#include "pmu_regs.h"

#define PMU_PIN(code, pmc) ((uint32_t)(code) | (uint32_t)(pmc) << 16)
#define PMU_CODE_PIN(c) (((c) >> 16) & 0xfu)
#define PMU_CODE_EVENT(c) ((c) & 0xffffu)

/* The register image of the performance monitor. */
struct pmu_regs {
	uint64_t mmcr0, mmcr1, mmcra;
};

/* Where assign() put a group's events and the selects that count them (mmcr0 holds selects
 * only: program() adds the freeze and overflow control). */
struct pmu_assignment {
	uint64_t mmcr0, mmcr1, mmcra;
	int pmc_of[NUM_PMCS];          /* counter (1-8) of each event, in the caller's order */
};

/* assign() results */
enum {
	PMU_OK = 0,
	PMU_ETOOMANY = -1,    /* more events than counters */
	PMU_EBADCODE = -2,    /* not one of this backend's event codes */
	PMU_EPMC = -3,        /* counter constraints (wired counters, pins, counter halves) */
	PMU_EBUS = -4,        /* two units on one event-bus byte */
	PMU_ETTM = -5,        /* units competing for a multiplexer */
	PMU_ESPCSEL = -6,     /* different special selects */
};

/* program() modes: whose execution is counted. */
#define PMU_COUNT_KERNEL 0x1u
#define PMU_COUNT_USER 0x2u
#define PMU_KERNEL_HV 0x4u    /* the kernel runs with MSR[HV]=1 (a G5 on bare metal): excluding
                                 it needs MMCR0[FCHV] as well as [FCS] */

struct pmu_backend {
	const char *name;        /* reported to clients (handshake, /metrics): "ppc970", ... */
	const char *selects;     /* the encoding in sentences: "970" -> "970 selects" */
	/* Counts through architected selects any Book3S model may implement (what QEMU counts
	 * on every model): the fallback for instructions and cycles where the CPU's own selects
	 * count nothing. */
	bool architected;
	int counters;            /* PMC1 .. PMC<counters> exist */
	const struct event_desc *events;   /* the hardware events it offers */
	size_t n_events;

	/* Whether this is the PMU of the processor with this processor version register. */
	bool (*matches)(uint32_t pvr);
	/* Registers counting `ev` (instructions or cycles) on counter pmc alone, for the boot
	 * probe; a counter that cannot count it gets registers under which it counts nothing. */
	void (*probe_select)(int pmc, enum probe_event ev, struct pmu_regs *out);
	/* Constraints: finds a counter for each event and the selects that count them together,
	 * or returns a negative PMU_E* with a sentence naming the events and the constraint in
	 * `why` (may be NULL). */
	int (*assign)(const uint32_t *codes, int n, struct pmu_assignment *out, char *why,
		size_t why_size);
	/* The registers that count an assigned group: the selects, the modes not counted
	 * filtered out, the overflow interrupt enabled for the counters in sample_pmcs (bit p-1 for
	 * PMCp), counters running. */
	struct pmu_regs (*program)(const struct pmu_regs *selects, unsigned sample_pmcs,
		unsigned modes);
	/* Counter preload so that it overflows after `period` events (1 <= period <= 2^31). */
	uint32_t (*preload)(uint32_t period);

	/* The overflow interrupt's control, as MMCR0 bits that pmu_freeze() and the other inline
	 * functions below apply. Bits, not functions, because the overflow handler applies them
	 * on every sample: through calls (ELFv1 indirect calls, about 8 instructions each) the
	 * four of them added 30 instructions to every sample (`kmcheck cost`). */
	uint64_t mmcr0_freeze;       /* set: every counter stops */
	uint64_t mmcr0_alert;        /* set by the hardware with the interrupt; cleared to acknowledge */
	uint64_t mmcr0_irq_enable;   /* the interrupt enable the hardware clears when it signals */
	uint32_t pmc_overflowed;     /* a counter has overflowed when this bit is set */
};

/* MMCR0 with every counter frozen; pmu_freeze(b, 0) stops everything with nothing armed. */
static inline uint64_t pmu_freeze(const struct pmu_backend *b, uint64_t mmcr0)
{
	return mmcr0 | b->mmcr0_freeze;
}

static inline uint64_t pmu_unfreeze(const struct pmu_backend *b, uint64_t mmcr0)
{
	return mmcr0 & ~b->mmcr0_freeze;
}

/* After an overflow interrupt: the alert acknowledged and the interrupt enabled again, the
 * freeze state unchanged. */
static inline uint64_t pmu_rearm(const struct pmu_backend *b, uint64_t mmcr0)
{
	return (mmcr0 & ~b->mmcr0_alert) | b->mmcr0_irq_enable;
}

/* The alert acknowledged and no further interrupt. */
static inline uint64_t pmu_disarm(const struct pmu_backend *b, uint64_t mmcr0)
{
	return mmcr0 & ~(b->mmcr0_alert | b->mmcr0_irq_enable);
}

static inline bool pmu_overflowed(const struct pmu_backend *b, uint32_t value)
{
	return value & b->pmc_overflowed;
}

/* ---- The registry (common/monitor/pmu_backends.c): the one place backends are listed and chosen ---- */

size_t pmu_backend_count(void);
const struct pmu_backend *pmu_backend_at(size_t i);          /* NULL past the end */
/* The PMU of the processor with this PVR: the first registered backend that matches it (the
 * architected backend matches every processor, so there is always one while it is listed). */
const struct pmu_backend *pmu_backend_for_pvr(uint32_t pvr);
/* The architected fallback, or NULL if none is registered. */
const struct pmu_backend *pmu_backend_architected(void);
/* The backend whose event table this is, or NULL. */
const struct pmu_backend *pmu_backend_of_events(const struct event_desc *events);

/* The backend's event with this EV_GENERIC_* flag, or NULL. */
const struct event_desc *pmu_generic_event(const struct pmu_backend *b, uint32_t generic_flag);

#endif

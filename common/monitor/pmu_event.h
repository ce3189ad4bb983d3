/* The KM's event catalogue: every event the monitor can count, where its numbers come from
 * (a hardware counter or the kernel itself) and whether it counts and samples on this machine.
 *
 * The catalogue is machine-independent: the processor's PMU backend (common/monitor/pmu_backend.h)
 * supplies its table of hardware events, the kernel's software events are added here, and the
 * boot probe's measurements decide each event's status, and with it which backend programs
 * each event: the processor's own, or for instructions and cycles the architected fallback when
 * only its selects count (QEMU). Each event says on what basis it is listed as counting
 * (enum event_basis): only instructions and cycles can be checked against a loop of known
 * length; the processor's other events are believed to count where the probe found its own
 * counters working, and marked so. An event that does not count says why. An event's number
 * in the catalogue (its index) is the `event` of a sample record. */
#ifndef KOV_PMU_EVENT_H
#define KOV_PMU_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum event_source { EVSRC_HW, EVSRC_SW };

/* event_desc.flags */
#define EV_CAN_SAMPLE 0x1u  /* an overflow of this event can raise a sample on silicon */
#define EV_GENERIC_INST 0x2u  /* the backend's "instructions completed" event */
#define EV_GENERIC_CYC 0x4u   /* the backend's "processor cycles" event */
#define EV_MARKED 0x8u        /* counts marked (sampled) instructions: needs MMCRA sampling */

/* event_desc.pmcs: bit n-1 set when PMCn can count the event (0 for software events). */
#define PMCS(n) (1u << ((n) - 1))
#define PMCS_ANY 0xffu
#define PMCS_1256 0x33u       /* PMC1, 2, 5, 6 */
#define PMCS_3478 0xccu       /* PMC3, 4, 7, 8 */

struct event_desc {
	const char *name;
	const char *description;
	enum event_source source;
	uint32_t code;        /* the backend's encoding; sw_event for SW */
	uint32_t flags;
	uint8_t pmcs;
};

/* Software events: counted by the kernel where they happen and sampled through the same path
 * as counter overflows. */
enum sw_event {
	SW_SLB_MISS,          /* segment lookaside buffer reloads (data and instruction) */
	SW_HPT_MISS,          /* hashed-page-table misses: page faults */
	SW_CONTEXT_SWITCH,
	SW_SYSCALL,
	SW_SLEEPLOCK_BLOCK,   /* a thread blocked on a sleep lock */
	SW_CPU_CLOCK,         /* decrementer time: the time base for time-based sampling */
	SW_EVENT_COUNT
};

const struct event_desc *sw_event_desc(enum sw_event e);

/* How an event is programmed where it counts. */
enum event_encoding {
	EVENC_NONE,           /* software event, or does not count */
	EVENC_NATIVE,         /* the catalogue's own backend's selects (970 PMCxSEL, TTM muxes) */
	EVENC_ARCH,           /* the architected backend's (ISA 2.07): all QEMU implements */
};

/* On what an event's "counts here" rests. */
enum event_basis {
	BASIS_NOT_COUNTED,    /* it does not count here (why_not says why) */
	BASIS_MEASURED,       /* counted the boot probe's loop exactly (instructions, cycles) */
	BASIS_ASSUMED,        /* not itself probed: believed to count because the probe found this
	                         processor's own counters working (real silicon) */
	BASIS_SOFTWARE,       /* counted by the kernel where it happens */
};
const char *event_basis_name(enum event_basis b);   /* "measured", "assumed", ... */

struct event_status {
	bool counts_here;
	enum event_basis basis;
	/* Counting only the kernel or only user mode stops the counter in the other (the probe
	 * saw MMCR0[FCS] (and [FCHV]) freeze it). False for software events, which the kernel
	 * counts in every mode, and where the probe saw the freeze ignored (QEMU). */
	bool modes_filtered;
	bool samples_here;
	const char *why_not;  /* why it does not count or sample here; NULL when it does both */
	enum event_encoding encoding;
	uint8_t count_pmcs;   /* counters it counts on here */
	uint8_t sample_pmcs;  /* counters whose overflow interrupted here */
};

/* What the boot probe measured, per counter, for the two events a probe can check against a
 * loop of known length, once with the backend's selects and once with ISA 2.07 selects. */
enum probe_event { PROBE_INSTRUCTIONS, PROBE_CYCLES, PROBE_EVENT_COUNT };

struct probe_cell {
	bool counts;          /* the counter moved as the loop predicts */
	int8_t overflow_irq;  /* 1 an overflow interrupted, 0 it did not, -1 not tried */
};

#define PROBE_PMCS 8
struct catalogue_probe {
	struct probe_cell native[PROBE_PMCS][PROBE_EVENT_COUNT];
	struct probe_cell arch[PROBE_PMCS][PROBE_EVENT_COUNT];
	/* No counter counted cycles differently from instructions (QEMU under -icount counts one
	 * cycle per instruction): a counter that ignores its select cannot be told to be an
	 * instruction or a cycle counter by counting, and the backend's table decides. */
	bool cycles_are_instructions;
	/* With the kernel excluded (MMCR0[FCS], and [FCHV] in hypervisor state) the loop, run by
	 * the kernel: 1 not counted (the filter works), 0 counted anyway, -1 not tried. */
	int8_t kernel_filter_native, kernel_filter_arch;
};

/* A counter's probe deltas, over a loop of n instructions: instructions are counted exactly
 * (the loop plus a little set-up), cycles plausibly (at least n/8, under 100 n). */
bool probe_exact_instructions(uint32_t delta, uint64_t n);
bool probe_plausible_cycles(uint32_t delta, uint64_t n);
/* Two measurements of one counter that agree (within the instructions' tolerance). */
bool probe_counts_agree(uint32_t a, uint32_t b, uint64_t n);
/* The cells' `counts` from the deltas of each counter with the instructions and cycles selects
 * of each backend (delta[pmc][PROBE_INSTRUCTIONS / PROBE_CYCLES]). A counter whose two deltas
 * agree ignores its select (a fixed-function counter such as ISA 2.07's PMC5 and PMC6): it
 * counts instructions if the count is the loop's, else cycles — unless cycles equal
 * instructions on every counter, when it is left to count both and cycles_are_instructions
 * is set. overflow_irq and the kernel filter are left as they are. */
void catalogue_probe_counts(struct catalogue_probe *p, const uint32_t native[][PROBE_EVENT_COUNT],
	const uint32_t arch[][PROBE_EVENT_COUNT], uint64_t n);

#define CATALOGUE_MAX 64

struct pmu_backend;

/* Hardware events first (in the backend's order), then the software events. */
struct catalogue {
	const struct event_desc *hw;
	size_t n_hw;
	const struct pmu_backend *native;   /* whose events hw are; programs EVENC_NATIVE */
	const struct pmu_backend *arch;     /* programs EVENC_ARCH; may be NULL or native */
	char why_no_native[192];            /* why_not of native events when no native select counted */
	struct event_status status[CATALOGUE_MAX];
};

/* A catalogue of the events of `native` (may be NULL: software events only), with `arch` as
 * the fallback for instructions and cycles. Returns 0, or -1 when the backend's table does not
 * fit. Hardware events start "not probed". */
int catalogue_init_pmu(struct catalogue *c, const struct pmu_backend *native,
	const struct pmu_backend *arch);
/* The same for an event table: its backend is looked up in the registry (none if no backend
 * owns the table: its events are listed but never programmed), the fallback is the registry's
 * architected backend. */
int catalogue_init(struct catalogue *c, const struct event_desc *hw, size_t n_hw);
void catalogue_apply_probe(struct catalogue *c, const struct catalogue_probe *p);

/* The backend that programs events of this encoding (NULL for EVENC_NONE or if none). */
const struct pmu_backend *catalogue_backend(const struct catalogue *c, enum event_encoding enc);
/* The backend counting this machine's hardware events: the native one if any of its events
 * counts through its own selects, else the architected one if any event counts through it,
 * else NULL. Its name is the PMU reported to clients ("none" for NULL). */
const struct pmu_backend *catalogue_pmu_in_use(const struct catalogue *c);
/* The encoding's name in sentences ("970", "ISA 2.07"). */
const char *catalogue_selects(const struct catalogue *c, enum event_encoding enc);

size_t catalogue_count(const struct catalogue *c);
const struct event_desc *catalogue_desc(const struct catalogue *c, size_t i);   /* NULL past end */
const struct event_status *catalogue_status(const struct catalogue *c, size_t i);
/* Index of the event with this name (ASCII case-insensitive), or -1. */
int catalogue_find(const struct catalogue *c, const char *name);

/* ASCII case-insensitive string equality. */
bool name_equal(const char *a, const char *b);

#endif

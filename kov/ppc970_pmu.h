/* PowerPC 970/970FX PMU backend: the silicon's event encodings, the constraint checker that
 * turns a group of events into MMCR0/MMCR1/MMCRA values, and overflow programming helpers.
 * Separately, at the end, the ISA 2.07 subset that QEMU implements for every PowerPC model.
 *
 * Event codes follow the layout Linux (arch/powerpc/perf/ppc970-pmu.c) and libpfm/PAPI use:
 *   bits 12-15 PMC   counter the event is wired to, 1-8; 0 = "any counter" or a bus event
 *   bits  8-11 unit  functional unit driving the event bus: 0 none, see P970_UNIT_*
 *   bits  6-7  SPCSEL special select, written to MMCR1 bits 0-1
 *   bits  4-5  byte  event-bus byte lane the unit's signal travels on
 *   bits  0-3  PMCSEL (for a bus event: the bit within the byte)
 * Four kinds follow from that:
 *   direct  PMC != 0, unit == 0   one counter, PMCxSEL = PMCSEL
 *   adder   PMC != 0, unit != 0   one counter reading a bus byte (PMCSEL 0 adds the byte's
 *                                 bits; 7 and 13 decode them)
 *   any     PMC == 0, unit == 0   every counter, PMCxSEL = PMCSEL | 8 (cycles 0xF, insts 0x9)
 *   bus     PMC == 0, unit != 0   one bit of a bus byte: bytes 0 and 2 reach only PMC1/2/5/6,
 *                                 bytes 1 and 3 only PMC3/4/7/8; PMCxSEL = 0x10 | 8*(byte>=2) | bit
 *
 * KOV adds one field of its own, above the hardware's 16 bits: a PMC the caller wants the
 * event on (P970_PIN), so a user can ask for "larx on PMC3" and be told why not. */
#ifndef KOV_PPC970_PMU_H
#define KOV_PPC970_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "pmu_event.h"
#include "pmu_regs.h"

/* Code fields. */
#define P970_CODE_PMC(c) (((c) >> 12) & 0xfu)
#define P970_CODE_UNIT(c) (((c) >> 8) & 0xfu)
#define P970_CODE_SPCSEL(c) (((c) >> 6) & 0x3u)
#define P970_CODE_BYTE(c) (((c) >> 4) & 0x3u)
#define P970_CODE_PMCSEL(c) ((c) & 0xfu)
#define P970_PIN(code, pmc) ((uint32_t)(code) | (uint32_t)(pmc) << 16)
#define P970_CODE_PIN(c) (((c) >> 16) & 0xfu)

/* Units, as they appear in the code's unit field. */
enum p970_unit {
	P970_UNIT_NONE, P970_UNIT_FPU, P970_UNIT_VPU, P970_UNIT_ISU, P970_UNIT_IFU,
	P970_UNIT_IDU, P970_UNIT_STS, P970_UNIT_LSU0, P970_UNIT_LSU1U, P970_UNIT_LSU1L,
	P970_UNIT_COUNT
};

/* Register fields beyond kov/pmu_regs.h (970 user manual; Linux asm/reg.h, ppc970-pmu.c). */
#define P970_MMCR0_FCM1 0x10000000u
#define P970_MMCR0_FCM0 0x08000000u
#define P970_MMCR0_FCECE 0x02000000u
#define P970_MMCR0_TRIGGER 0x00002000u
#define P970_SEL_MASK 0x1fu
#define P970_MMCR1_TTM0SEL_SHIFT 62
#define P970_MMCR1_TTM1SEL_SHIFT 59
#define P970_MMCR1_TTM3SEL_SHIFT 53
#define P970_MMCR1_DBGSEL_SHIFT(byte) (50 - 2 * (byte))   /* TD_CP_DBG0SEL..TD_CP_DBG3SEL */
#define P970_MMCRA_SDSYNC 0x80000000u    /* status: SDAR belongs to the instruction in SIAR */
#define P970_MMCRA_SAMPLE_ENABLE 0x00000001u
/* One internal operation marked per PowerPC instruction; IBM's event groups and Linux always
 * set it. */
#define P970_MMCRA_ONE_IOP 0x00002000u

/* Where an event lands and which register values count a group. mmcr0 holds only event
 * selects: add the freeze and overflow bits below when arming. */
struct p970_config {
	uint64_t mmcr0, mmcr1, mmcra;
	int pmc_of[NUM_PMCS];          /* PMC (1-8) of each event, in the caller's order */
};

/* p970_assign results */
enum {
	P970_OK = 0,
	P970_ETOOMANY = -1,   /* more than 8 events */
	P970_EBADCODE = -2,   /* not a valid 970 event code */
	P970_EPMC = -3,       /* counter constraints (wired PMC, byte-lane counter halves, pins) */
	P970_EBUS = -4,       /* two units on one event-bus byte */
	P970_ETTM = -5,       /* units competing for a TTM multiplexer */
	P970_ESPCSEL = -6,    /* different special selects */
};

/* Accepts exactly the groups the hardware can count together: finds a counter for each event,
 * fills *out and returns P970_OK; or returns a negative code and writes into `why` a sentence
 * naming the events and the constraint. Unused counters get PMCxSEL 8 (off). */
int p970_assign(const uint32_t *codes, int n, struct p970_config *out, char *why,
	size_t why_size);

/* Counters an event code can use (bit n-1 for PMCn), ignoring the rest of a group; 0 if the
 * code is not valid. */
uint8_t p970_code_pmcs(uint32_t code);
/* Whether an event counts marked instructions, so MMCRA must enable sampling. */
bool p970_code_marked(uint32_t code);

/* The 970 events the KM offers, with codes checked against Linux and PAPI (see the .c). */
extern const struct event_desc p970_events[];
extern const size_t p970_event_count;
const struct event_desc *p970_event_by_code(uint32_t code);   /* pin ignored; NULL if unknown */
const struct event_desc *p970_event_by_name(const char *name);

/* Overflow. A PMC has overflowed when its top bit is set; preloading 0x80000000 - period
 * makes that happen after `period` events (1 <= period <= 0x80000000; clamped). */
uint32_t p970_overflow_preload(uint32_t period);
bool p970_pmc_overflowed(uint32_t value);
/* MMCR0 bits enabling the overflow interrupt for the PMCs in pmc_mask: PMC1CE for PMC1,
 * PMCjCE for any of PMC2-8 (one bit for all of them), and PMXE. */
uint64_t p970_mmcr0_overflow_bits(unsigned pmc_mask);
uint64_t p970_mmcr0_freeze(uint64_t mmcr0);     /* sets FC */
uint64_t p970_mmcr0_unfreeze(uint64_t mmcr0);   /* clears FC */
/* After an overflow interrupt: PMAO cleared and PMXE set again (the hardware clears PMXE
 * when it signals), freeze state unchanged. */
uint64_t p970_mmcr0_rearm(uint64_t mmcr0);

/* ---- What QEMU implements (not the 970) --------------------------------------------------
 * QEMU's TCG PMU applies the ISA 2.07 (POWER8) rules to every model, the 970 included:
 * PMC5 always counts completed instructions and PMC6 cycles while MMCR0[FC] and [FC56] are
 * clear; PMC1-4 count only the architected selects below, written to MMCR1 at shifts 24, 16,
 * 8, 0; PMC7/8 never count. On real 970 silicon these values select unrelated events. */
#define QEMU_ISA207_INSTRUCTIONS 0x02u
#define QEMU_ISA207_CYCLES 0x1eu

struct qemu_isa207_config {
	uint64_t mmcr0, mmcr1;
	int pmc_of[6];
};

/* codes: QEMU_ISA207_INSTRUCTIONS or QEMU_ISA207_CYCLES, optionally P970_PIN()ned to a PMC.
 * The first instructions event gets PMC5 and the first cycles event PMC6 (their own counters),
 * others PMC1-4. MMCR0[FC56] is set when neither PMC5 nor PMC6 is used, so they cannot raise
 * stray overflows. Same return values and `why` as p970_assign. */
int qemu_isa207_assign(const uint32_t *codes, int n, struct qemu_isa207_config *out,
	char *why, size_t why_size);

#endif

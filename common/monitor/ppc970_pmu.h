/* PowerPC 970/970FX/970MP PMU backend (`ppc970_pmu`, common/monitor/pmu_backend.h): the silicon's event
 * encodings and the constraint checker that turns a group of events into MMCR0/MMCR1/MMCRA
 * values. Overflow and freeze control is the Book3S one (common/monitor/pmu_book3s.h).
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
#include "pmu_backend.h"

extern const struct pmu_backend ppc970_pmu;

/* Code fields. */
#define P970_CODE_PMC(c) (((c) >> 12) & 0xfu)
#define P970_CODE_UNIT(c) (((c) >> 8) & 0xfu)
#define P970_CODE_SPCSEL(c) (((c) >> 6) & 0x3u)
#define P970_CODE_BYTE(c) (((c) >> 4) & 0x3u)
#define P970_CODE_PMCSEL(c) ((c) & 0xfu)
#define P970_PIN(code, pmc) PMU_PIN(code, pmc)
#define P970_CODE_PIN(c) PMU_CODE_PIN(c)

/* Units, as they appear in the code's unit field. */
enum p970_unit {
	P970_UNIT_NONE, P970_UNIT_FPU, P970_UNIT_VPU, P970_UNIT_ISU, P970_UNIT_IFU,
	P970_UNIT_IDU, P970_UNIT_STS, P970_UNIT_LSU0, P970_UNIT_LSU1U, P970_UNIT_LSU1L,
	P970_UNIT_COUNT
};

/* Register fields beyond common/monitor/pmu_regs.h (970 user manual; Linux asm/reg.h, ppc970-pmu.c). */
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
/* MMCR1: PMC3SEL..PMC8SEL, 5 bits each */
#define MMCR1_PMCSEL_SHIFT(pmc) (27 - 5 * ((pmc) - 3))
/* PMCxSEL values of the any-counter direct events: the event code's select with bit 3 set
 * (Linux ppc970-pmu.c, IBM's published event groups); 8 alone selects nothing. */
#define P970_SEL_INST_CMPL 0x9
#define P970_SEL_CYC       0xF
#define P970_SEL_OFF       0x8

/* p970_assign results: the backend interface's, under the names the 970 tests use. */
enum {
	P970_OK = PMU_OK,
	P970_ETOOMANY = PMU_ETOOMANY,   /* more than 8 events */
	P970_EBADCODE = PMU_EBADCODE,   /* not a valid 970 event code */
	P970_EPMC = PMU_EPMC,           /* counter constraints (wired PMC, counter halves, pins) */
	P970_EBUS = PMU_EBUS,           /* two units on one event-bus byte */
	P970_ETTM = PMU_ETTM,           /* units competing for a TTM multiplexer */
	P970_ESPCSEL = PMU_ESPCSEL,     /* different special selects */
};

/* Accepts exactly the groups the hardware can count together: finds a counter for each event,
 * fills *out and returns P970_OK; or returns a negative code and writes into `why` a sentence
 * naming the events and the constraint. Unused counters get PMCxSEL 8 (off). */
int p970_assign(const uint32_t *codes, int n, struct pmu_assignment *out, char *why,
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

#endif

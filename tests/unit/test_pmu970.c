/* 970 constraint checker and register encoder.
 *
 * Register values are pinned two ways:
 *  - worked out by hand from the field layout (common/monitor/ppc970_pmu.h), the derivation next to
 *    each test;
 *  - IBM's published event groups for the 970 (the MMCR values oprofile ships in
 *    events/ppc64/970/event_mappings, which real 970 machines ran with): pm_pe_bench4,
 *    pm_hpmcount1, pm_mark1, pm_isource, pm_basic, pm_tlb. Where IBM placed "any counter" events
 *    differently from our lowest-free-counter rule, the test pins them with P970_PIN.
 *
 * Field layout used below: MMCR0 PMC1SEL <<8, PMC2SEL <<1; MMCR1 TTM0SEL <<62, TTM1SEL <<59,
 * TD_CP_DBG0..3SEL <<50,48,46,44 (0 TTM0, 1 TTM1, 2 LSU0, 3 LSU1), adder bits PMC1 39, PMC2 38,
 * PMC6 37, PMC5 36, PMC8 35, PMC7 34, PMC3 33, PMC4 32, PMC3..8SEL <<27,22,17,12,7,2.
 * An unused counter has PMCxSEL 8, which alone gives MMCR1 low word 0x42108420
 * (8<<27 | 8<<22 | 8<<17 | 8<<12 | 8<<7 | 8<<2) and MMCR0 0x810 (8<<8 | 8<<1). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/ppc970_pmu.h"

static char why[256];

static const struct event_desc *ev(const char *name)
{
	const struct event_desc *d = p970_event_by_name(name);
	assert_non_null(d);
	return d;
}

static uint32_t code(const char *name)
{
	return ev(name)->code;
}

static void expect(const uint32_t *codes, int n, uint64_t mmcr0, uint64_t mmcr1, uint64_t mmcra,
	const int *pmc_of)
{
	struct pmu_assignment c;
	int rc = p970_assign(codes, n, &c, why, sizeof why);
	if (rc)
		print_error("refused: %s\n", why);
	assert_int_equal(rc, P970_OK);
	assert_string_equal(why, "");
	assert_int_equal(c.mmcr0, mmcr0);
	assert_int_equal(c.mmcr1, mmcr1);
	assert_int_equal(c.mmcra, mmcra);
	for (int i = 0; i < n; i++)
		assert_int_equal(c.pmc_of[i], pmc_of[i]);
}

static void refuse(const uint32_t *codes, int n, int rc, const char *message)
{
	struct pmu_assignment c;
	assert_int_equal(p970_assign(codes, n, &c, why, sizeof why), rc);
	assert_string_equal(why, message);
}

/* Any-counter events take the lowest free counters: cycles PMC1 (PMCSEL 7|8 = 0xF), instructions
 * PMC2 (1|8 = 9). MMCR0 = 0xF<<8 | 9<<1 = 0xF12; MMCR1 only the "off" selects; MMCRA is the
 * one-IOP-per-instruction bit 0x2000 that every 970 group sets. */
static void test_cycles_instructions(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_CYC"), code("PM_INST_CMPL") };
	int pmc[] = { 1, 2 };
	expect(g, 2, 0xF12, 0x42108420, 0x2000, pmc);
}

/* larx 0x727 is a bus event: unit LSU0, byte 2, bit 7. Byte 2 reaches PMC1/2/5/6 and, being
 * the more constrained event, it is placed first: PMC1, PMC1SEL 0x10|8|7 = 0x1F. Instructions
 * PMC2 (9). MMCR0 = 0x1F00 | 0x12 = 0x1F12. MMCR1: DBG2SEL = 2 (LSU0) -> 2<<46 =
 * 0x0000800000000000; PMC1 adder (byte 2 input) 1<<39 = 0x0000008000000000; PMC3-8 off. */
static void test_larx_instructions(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_INST_CMPL"), code("PM_LARX_LSU0") };
	int pmc[] = { 2, 1 };
	expect(g, 2, 0x1F12, 0x0000808042108420, 0x2000, pmc);
}

static void test_larx_on_pmc3_refused(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_INST_CMPL"), P970_PIN(code("PM_LARX_LSU0"), 3) };
	refuse(g, 2, P970_EPMC, "PM_LARX_LSU0 can only be counted on PMC1, 2, 5 or 6");
	uint32_t h[] = { P970_PIN(code("PM_LD_MISS_L1"), 4) };
	refuse(h, 1, P970_EPMC, "PM_LD_MISS_L1 can only be counted on PMC3");
}

static void test_nine_events_refused(void **state)
{
	(void)state;
	uint32_t g[9];
	for (int i = 0; i < 9; i++)
		g[i] = code("PM_CYC");
	refuse(g, 9, P970_ETOOMANY, "too many events: the 970 has 8 counters");
}

/* PM_FPU0_FIN is FPU (byte 1), PM_BR_ISSUED is IFU (byte 3): different bytes, but both units
 * exist only on the TTM0 multiplexer. */
static void test_ttm0_conflict_refused(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_FPU0_FIN"), code("PM_BR_ISSUED") };
	refuse(g, 2, P970_ETTM, "PM_FPU0_FIN and PM_BR_ISSUED both need TTM0 (units FPU and IFU)");
}

/* ISU can use TTM0 or TTM1; with FPU on TTM0 it moves to TTM1 (TTM1SEL 2), unless TTM1 is
 * taken too, here by a made-up but well-formed IDU bus event 0x500 (IDU byte 0 bit 0). */
static void test_isu_moves_to_ttm1(void **state)
{
	(void)state;
	/* FPU0_FIN: byte 1 -> PMC3, PMC3SEL 0x10|3 = 0x13. INST_DISP 0x320: ISU byte 2 bit 0 ->
	 * PMC1, PMC1SEL 0x18, PMC1 adder. MMCR0 = 0x18<<8 | 8<<1 = 0x1810.
	 * MMCR1 = TTM1SEL 2<<59 (0x1000000000000000) | DBG1SEL 0 (FPU on TTM0)
	 *       | DBG2SEL 1<<46 (ISU on TTM1, 0x0000400000000000) | 1<<39 (0x0000008000000000)
	 *       | 0x13<<27 (0x98000000) | PMC4-8 off (0x02108420) = 0x100040809A108420. */
	uint32_t g[] = { code("PM_FPU0_FIN"), code("PM_INST_DISP") };
	int pmc[] = { 3, 1 };
	expect(g, 2, 0x1810, 0x100040809A108420, 0x2000, pmc);

	uint32_t h[] = { code("PM_FPU0_FIN"), code("PM_INST_DISP"), 0x500 };
	refuse(h, 3, P970_ETTM, "PM_INST_DISP (unit ISU) needs TTM0 or TTM1, but PM_FPU0_FIN holds "
		"TTM0 (unit FPU) and event 0x500 holds TTM1 (unit IDU)");
}

static void test_bus_byte_conflict_refused(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_LARX_LSU0"), code("PM_INST_DISP") };
	refuse(g, 2, P970_EBUS,
		"PM_LARX_LSU0 and PM_INST_DISP both need event-bus byte 2 (units LSU0 and ISU)");
}

static void test_same_counter_refused(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_LD_MISS_L1"), code("PM_STOP_COMPLETION") };
	refuse(g, 2, P970_EPMC, "PM_LD_MISS_L1 and PM_STOP_COMPLETION both need PMC3");
}

/* Five events that all need PMC1/2/5/6 (LSU0 bytes 0 and 2). */
static void test_half_overflow_refused(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_LARX_LSU0"), code("PM_STCX_FAIL"), code("PM_STCX_PASS"),
		code("PM_DTLB_MISS"), code("PM_ITLB_MISS") };
	refuse(g, 5, P970_EPMC, "too many events for PMC1, 2, 5 and 6: PM_LARX_LSU0, PM_STCX_FAIL, "
		"PM_STCX_PASS, PM_DTLB_MISS and PM_ITLB_MISS can only be counted there");
	/* Four of them fit: the lock events of KOV's contention view plus a TLB event. */
	uint32_t h[] = { code("PM_LARX_LSU0"), code("PM_STCX_FAIL"), code("PM_STCX_PASS"),
		code("PM_DTLB_MISS"), code("PM_CYC"), code("PM_INST_CMPL") };
	struct pmu_assignment c;
	assert_int_equal(p970_assign(h, 6, &c, why, sizeof why), P970_OK);
	int pmc[] = { 1, 2, 5, 6, 3, 4 };
	for (int i = 0; i < 6; i++)
		assert_int_equal(c.pmc_of[i], pmc[i]);
}

static void test_bad_codes_refused(void **state)
{
	(void)state;
	uint32_t g[] = { 0x9001 };
	refuse(g, 1, P970_EBADCODE, "0x9001 is not a 970 event code: its PMC field is above 8");
	uint32_t h[] = { 0x0 };
	refuse(h, 1, P970_EBADCODE, "0x0 is not a 970 event code: an any-counter event needs a "
		"select of 1-7 (8 turns a counter off)");
	uint32_t l[] = { 0x900 };  /* LSU1L on byte 0 */
	refuse(l, 1, P970_EBADCODE,
		"0x900 is not a 970 event code: unit LSU1L reaches only event-bus bytes 2 and 3");
	/* 970MP's completion-stall events need special selects 2 and 1. */
	uint32_t s[] = { 0x508b, 0x704b };
	refuse(s, 2, P970_ESPCSEL,
		"event 0x508b and event 0x704b need different special selects (SPCSEL 2 and 1)");
}

/* No events: every counter off. */
static void test_empty_group(void **state)
{
	(void)state;
	expect(NULL, 0, 0x810, 0x42108420, 0x2000, NULL);
}

/* IBM pm_pe_bench4 (L1 and TLB), a full legal 8-event group, placed exactly as IBM did by our
 * own rule: wired events first (LD_MISS_L1 PMC3, ST_REF_L1 PMC7, LD_REF_L1 PMC8), bus events
 * next (DTLB 0x704 and ITLB 0x700 LSU0 byte 0 -> PMC1, PMC2 with selects 0x14, 0x10; ST_MISS
 * 0x813 LSU1U byte 1 bit 3 -> PMC4, 0x13), then cycles PMC5 (0xF) and instructions PMC6 (9).
 * MMCR0 = 0x14<<8 | 0x10<<1 = 0x1420.
 * MMCR1 = DBG0SEL 2<<50 | DBG1SEL 3<<48 = 0x000B000000000000, no adders (bytes 0/1 only),
 *         0x13<<22 | 0xF<<17 | 9<<12 = 0x04DE9000: 0x000B000004DE9000 (IBM's value). */
static void test_ibm_pm_pe_bench4(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_DTLB_MISS"), code("PM_ITLB_MISS"), code("PM_LD_MISS_L1"),
		code("PM_ST_MISS_L1"), code("PM_CYC"), code("PM_INST_CMPL"), code("PM_ST_REF_L1"),
		code("PM_LD_REF_L1") };
	int pmc[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect(g, 8, 0x1420, 0x000B000004DE9000, 0x2000, pmc);
}

/* IBM pm_hpmcount1: as above with PM_LSU_LMQ_SRQ_EMPTY_CYC (0x2002, PMC2 select 2) in place of
 * ITLB: MMCR0 = 0x14<<8 | 2<<1 = 0x1404, MMCR1 unchanged. */
static void test_ibm_pm_hpmcount1(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_DTLB_MISS"), code("PM_LSU_LMQ_SRQ_EMPTY_CYC"),
		code("PM_LD_MISS_L1"), code("PM_ST_MISS_L1"), code("PM_CYC"), code("PM_INST_CMPL"),
		code("PM_ST_REF_L1"), code("PM_LD_REF_L1") };
	int pmc[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect(g, 8, 0x1404, 0x000B000004DE9000, 0x2000, pmc);
}

/* IBM pm_mark1 (marked instructions): PM_MRK_LD_MISS_L1 0x1720 is an LSU0 byte 2 adder on
 * PMC1 (select 0, PMC1 adder, DBG2SEL 2) and counts marked instructions, so MMCRA gets
 * SAMPLE_ENABLE: 0x2001. The others are wired: 0x2003 PMC2 sel 3, 0x4004, 0x5004, 0x6005,
 * 0x7005; cycles and instructions take PMC3 and PMC8.
 * MMCR0 = 0<<8 | 3<<1 = 0x6.
 * MMCR1 = 2<<46 | 1<<39 = 0x0000808000000000 | 0xF<<27 | 4<<22 | 4<<17 | 5<<12 | 5<<7 | 9<<2
 *       = 0x00008080790852A4 (IBM's value). */
static void test_ibm_pm_mark1(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_MRK_LD_MISS_L1"), 0x2003, code("PM_CYC"), 0x4004, 0x5004, 0x6005,
		0x7005, code("PM_INST_CMPL") };
	int pmc[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect(g, 8, 0x6, 0x00008080790852A4, 0x2001, pmc);
}

/* IBM pm_isource: PM_INST_FROM_L2 0x1426 and PM_INST_FROM_MEM 0x2426 (IFU byte 2, wired to
 * PMC1/PMC2, select 6), PM_HV_CYC 0x3004, PM_DATA_TABLEWALK_CYC 0x707 (LSU0 byte 0 -> PMC5,
 * 0x17), PM_GRP_CMPL 0x7003, PM_DC_INV_L2 0x817 (LSU1U byte 1, 0x17); IBM put instructions on
 * PMC4, cycles on PMC6, DC_INV_L2 on PMC8, which we pin.
 * MMCR0 = 6<<8 | 6<<1 = 0x60C.
 * MMCR1 = TTM0SEL 2 (IFU) 0x8000000000000000 | DBG0SEL 2, DBG1SEL 3: 0x000B000000000000
 *       | adders PMC1, PMC2 (bits 39, 38): 0x000000C000000000
 *       | 4<<27 | 9<<22 | 0x17<<17 | 0xF<<12 | 3<<7 | 0x17<<2 = 0x226EF1DC
 *       = 0x800B00C0226EF1DC (IBM's value; Linux would leave the two adder bits clear). */
static void test_ibm_pm_isource(void **state)
{
	(void)state;
	uint32_t g[] = { 0x1426, 0x2426, code("PM_HV_CYC"), P970_PIN(code("PM_INST_CMPL"), 4),
		code("PM_DATA_TABLEWALK_CYC"), P970_PIN(code("PM_CYC"), 6), code("PM_GRP_CMPL"),
		P970_PIN(code("PM_DC_INV_L2"), 8) };
	int pmc[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect(g, 8, 0x60C, 0x800B00C0226EF1DC, 0x2000, pmc);
}

/* IBM pm_basic: ISU's PM_INST_DISP on PMC5 (byte 2 -> select 0x18 and the PMC5 adder bit 36,
 * TTM0SEL 1), DC_INV_L2 on PMC4 (0x17), instructions on PMC1 and PMC6, cycles on PMC2.
 * MMCR0 = 9<<8 | 0xF<<1 = 0x91E.
 * MMCR1 = 1<<62 | 3<<48 | 1<<36 = 0x4003001000000000
 *       | 0<<27 | 0x17<<22 | 0x18<<17 | 9<<12 | 0<<7 | 0<<2 = 0x05F09000. */
static void test_ibm_pm_basic(void **state)
{
	(void)state;
	uint32_t g[] = { P970_PIN(code("PM_INST_CMPL"), 1), P970_PIN(code("PM_CYC"), 2),
		code("PM_LD_MISS_L1"), P970_PIN(code("PM_DC_INV_L2"), 4),
		P970_PIN(code("PM_INST_DISP"), 5), P970_PIN(code("PM_INST_CMPL"), 6),
		code("PM_ST_REF_L1"), code("PM_LD_REF_L1") };
	int pmc[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect(g, 8, 0x91E, 0x4003001005F09000, 0x2000, pmc);
}

/* IBM pm_tlb: LSU0 feeds two bytes (0: DTLB 0x704, ITLB 0x700; 3: L1_PREF 0x731, L2_PREF
 * 0x733) and LSU1U byte 2 (LRQ slot 0 allocated 0x826, valid 0x822). IBM put the prefetch events
 * on PMC7/8 (pinned); the rest lands as IBM placed it: bus bytes 0 and 2 on PMC1, 2, 5, 6,
 * instructions PMC3, cycles PMC4.
 * MMCR0 = 0x14<<8 | 0x10<<1 = 0x1420.
 * MMCR1 = DBG0SEL 2<<50 | DBG2SEL 3<<46 | DBG3SEL 2<<44 = 0x0008E00000000000
 *       | adders PMC5, PMC6 (byte 2) bits 36, 37 and PMC7, PMC8 (byte 3) bits 34, 35
 *         = 0x0000003C00000000
 *       | 9<<27 | 0xF<<22 | 0x1E<<17 | 0x1A<<12 | 0x19<<7 | 0x1B<<2 = 0x4BFDACEC
 *       = 0x0008E03C4BFDACEC (IBM's value). MMCRA 0x2000: PM_L2_PREF is not a marked event. */
static void test_ibm_pm_tlb(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_DTLB_MISS"), code("PM_ITLB_MISS"), code("PM_INST_CMPL"),
		code("PM_CYC"), 0x826, 0x822, P970_PIN(code("PM_L1_PREF"), 7),
		P970_PIN(code("PM_L2_PREF"), 8) };
	int pmc[] = { 1, 2, 3, 4, 5, 6, 7, 8 };
	expect(g, 8, 0x1420, 0x0008E03C4BFDACEC, 0x2000, pmc);
}

/* The table's counter sets and marked flags agree with what the codes say, names are unique,
 * and each event is countable alone. */
static void test_table_consistent(void **state)
{
	(void)state;
	assert_true(p970_event_count >= 30);
	for (size_t i = 0; i < p970_event_count; i++) {
		const struct event_desc *d = &p970_events[i];
		struct pmu_assignment c;
		assert_int_equal(d->source, EVSRC_HW);
		assert_int_equal(p970_code_pmcs(d->code), d->pmcs);
		assert_int_equal(p970_code_marked(d->code), !!(d->flags & EV_MARKED));
		assert_ptr_equal(p970_event_by_code(d->code), d);
		assert_int_equal(p970_assign(&d->code, 1, &c, why, sizeof why), P970_OK);
		for (size_t j = 0; j < i; j++)
			assert_true(strcmp(p970_events[j].name, d->name) != 0);
	}
	assert_ptr_equal(p970_event_by_name("pm_larx_lsu0"), ev("PM_LARX_LSU0"));
	assert_null(p970_event_by_name("PM_NOTHING"));
}

/* Overflow programming through the backend table: preloads, the overflow bit, and the MMCR0
 * values of program() and the interrupt control. */
static void test_overflow_control(void **state)
{
	(void)state;
	const struct pmu_backend *b = &ppc970_pmu;
	assert_int_equal(b->preload(1000), 0x7FFFFC18);
	assert_int_equal(b->preload(1), 0x7FFFFFFF);
	assert_int_equal(b->preload(0x80000000u), 0);
	assert_int_equal(b->preload(0xFFFFFFFFu), 0);
	assert_true(pmu_overflowed(b, 0x7FFFFC18u + 1000));
	assert_false(pmu_overflowed(b, 0x7FFFFC18u + 999));
	const struct pmu_regs sel = { 0x80001F92, 0x42108420, 0x2000 };   /* FC, PMAO set */
	const unsigned both = PMU_COUNT_KERNEL | PMU_COUNT_USER;
	struct pmu_regs r = b->program(&sel, PMCS(1), both);
	assert_int_equal(r.mmcr0, 0x04009F12);       /* FC, PMAO off; PMXE | PMC1CE */
	assert_int_equal(r.mmcr1, sel.mmcr1);
	assert_int_equal(r.mmcra, sel.mmcra);
	assert_int_equal(b->program(&sel, PMCS(5), both).mmcr0, 0x04005F12);   /* PMXE | PMCjCE */
	assert_int_equal(b->program(&sel, PMCS(1) | PMCS(8), both).mmcr0, 0x0400DF12);
	assert_int_equal(b->program(&sel, 0, both).mmcr0, 0x1F12);
	assert_int_equal(b->program(&sel, 0, PMU_COUNT_USER).mmcr0, 0x40001F12);     /* FCS */
	assert_int_equal(b->program(&sel, 0, PMU_COUNT_KERNEL).mmcr0, 0x20001F12);   /* FCP */
	/* A G5 runs its kernel in hypervisor state: excluding it needs FCHV too (bit 63). */
	assert_int_equal(b->program(&sel, 0, PMU_COUNT_USER | PMU_KERNEL_HV).mmcr0, 0x40001F13);
	assert_int_equal(b->program(&sel, 0, both | PMU_KERNEL_HV).mmcr0, 0x1F12);
	assert_int_equal(b->program(&sel, 0, PMU_COUNT_KERNEL | PMU_KERNEL_HV).mmcr0, 0x20001F12);
	assert_int_equal(pmu_freeze(b, 0x1F12), 0x80001F12);
	assert_int_equal(pmu_freeze(b, 0), 0x80000000);
	assert_int_equal(pmu_unfreeze(b, 0x84009F12), 0x04009F12);
	assert_int_equal(pmu_rearm(b, 0x80009F92), 0x84009F12);     /* PMAO off, PMXE on */
	assert_int_equal(pmu_disarm(b, 0x84009F92), 0x80009F12);    /* both off */
}

/* The probe's selects: instructions (9) or cycles (15) on one counter, 8 (off) elsewhere. */
static void test_probe_selects(void **state)
{
	(void)state;
	struct pmu_regs r;
	ppc970_pmu.probe_select(1, PROBE_INSTRUCTIONS, &r);
	assert_int_equal(r.mmcr0, 0x910);            /* 9 << 8 | 8 << 1 */
	assert_int_equal(r.mmcr1, 0x42108420);
	assert_int_equal(r.mmcra, 0);
	ppc970_pmu.probe_select(2, PROBE_CYCLES, &r);
	assert_int_equal(r.mmcr0, 0x81E);            /* 8 << 8 | 15 << 1 */
	assert_int_equal(r.mmcr1, 0x42108420);
	ppc970_pmu.probe_select(8, PROBE_CYCLES, &r);
	assert_int_equal(r.mmcr0, 0x810);
	assert_int_equal(r.mmcr1, 0x4210843C);       /* PMC8SEL (<<2) 15 */
	ppc970_pmu.probe_select(3, PROBE_INSTRUCTIONS, &r);
	assert_int_equal(r.mmcr1, 0x4A108420);       /* PMC3SEL (<<27) 9 */
}

/* The backend claims the 970 family's processor versions and no other. */
static void test_matches(void **state)
{
	(void)state;
	assert_true(ppc970_pmu.matches(0x00390202));      /* 970 */
	assert_true(ppc970_pmu.matches(0x003C0300));      /* 970FX (QEMU's mac99 970fx) */
	assert_true(ppc970_pmu.matches(0x00440101));      /* 970MP */
	assert_true(ppc970_pmu.matches(0x00450201));      /* 970GX */
	assert_false(ppc970_pmu.matches(0x003A0000));     /* POWER5 */
	assert_false(ppc970_pmu.matches(0x004B0201));     /* POWER8 */
	assert_false(ppc970_pmu.matches(0));
	assert_string_equal(ppc970_pmu.name, "ppc970");
	assert_ptr_equal(ppc970_pmu.events, p970_events);
	assert_int_equal(ppc970_pmu.n_events, p970_event_count);
	assert_int_equal(ppc970_pmu.counters, 8);
	assert_false(ppc970_pmu.architected);
}

/* A short message buffer is cut, never overrun. */
static void test_message_truncated(void **state)
{
	(void)state;
	char small[12];
	struct pmu_assignment c;
	uint32_t g[] = { code("PM_LARX_LSU0"), code("PM_INST_DISP") };
	memset(small, 'x', sizeof small);
	assert_int_equal(p970_assign(g, 2, &c, small, sizeof small), P970_EBUS);
	assert_string_equal(small, "PM_LARX_LSU");
	assert_int_equal(p970_assign(g, 2, &c, NULL, 0), P970_EBUS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cycles_instructions),
		cmocka_unit_test(test_larx_instructions),
		cmocka_unit_test(test_larx_on_pmc3_refused),
		cmocka_unit_test(test_nine_events_refused),
		cmocka_unit_test(test_ttm0_conflict_refused),
		cmocka_unit_test(test_isu_moves_to_ttm1),
		cmocka_unit_test(test_bus_byte_conflict_refused),
		cmocka_unit_test(test_same_counter_refused),
		cmocka_unit_test(test_half_overflow_refused),
		cmocka_unit_test(test_bad_codes_refused),
		cmocka_unit_test(test_empty_group),
		cmocka_unit_test(test_ibm_pm_pe_bench4),
		cmocka_unit_test(test_ibm_pm_hpmcount1),
		cmocka_unit_test(test_ibm_pm_mark1),
		cmocka_unit_test(test_ibm_pm_isource),
		cmocka_unit_test(test_ibm_pm_basic),
		cmocka_unit_test(test_ibm_pm_tlb),
		cmocka_unit_test(test_table_consistent),
		cmocka_unit_test(test_overflow_control),
		cmocka_unit_test(test_probe_selects),
		cmocka_unit_test(test_matches),
		cmocka_unit_test(test_message_truncated),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

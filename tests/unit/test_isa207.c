/* The ISA 2.07 backend (common/monitor/isa207_pmu.c): the counter assigner for what QEMU counts, its probe
 * selects, and its place as the architected fallback. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/isa207_pmu.h"

static char why[256];
static struct pmu_assignment c;

/* PMC5 instructions and PMC6 cycles need no select; further events go to PMC1-4 with ISA 2.07
 * selects in MMCR1 bytes (PMC1 <<24 ... PMC4 <<0). */
static void test_own_counters_first(void **state)
{
	(void)state;
	uint32_t a[] = { ISA207_INSTRUCTIONS, ISA207_CYCLES };
	assert_int_equal(isa207_assign(a, 2, &c, why, sizeof why), PMU_OK);
	assert_string_equal(why, "");
	assert_int_equal(c.pmc_of[0], 5);
	assert_int_equal(c.pmc_of[1], 6);
	assert_int_equal(c.mmcr0, 0);
	assert_int_equal(c.mmcr1, 0);
	assert_int_equal(c.mmcra, 0);

	uint32_t b[] = { ISA207_INSTRUCTIONS, ISA207_INSTRUCTIONS, ISA207_CYCLES, ISA207_CYCLES };
	assert_int_equal(isa207_assign(b, 4, &c, why, sizeof why), PMU_OK);
	int pmc[] = { 5, 1, 6, 2 };
	for (int i = 0; i < 4; i++)
		assert_int_equal(c.pmc_of[i], pmc[i]);
	assert_int_equal(c.mmcr1, 0x021E0000);      /* 0x02<<24 | 0x1E<<16 */
	assert_int_equal(c.mmcr0, 0);
}

/* Pinned events take their counters before the free ones choose. */
static void test_pins(void **state)
{
	(void)state;
	/* PMC5/6 unused: FC56 (0x10) keeps them from counting and overflowing. */
	uint32_t d[] = { PMU_PIN(ISA207_CYCLES, 3) };
	assert_int_equal(isa207_assign(d, 1, &c, why, sizeof why), PMU_OK);
	assert_int_equal(c.pmc_of[0], 3);
	assert_int_equal(c.mmcr0, MMCR0_FC56);
	assert_int_equal(c.mmcr1, 0x1E00);

	/* The pinned cycles event is placed first although listed last: the free instructions
	 * event then takes PMC5, the free cycles event PMC6 is taken, so it gets PMC1. */
	uint32_t p[] = { ISA207_INSTRUCTIONS, ISA207_CYCLES, PMU_PIN(ISA207_CYCLES, 6) };
	assert_int_equal(isa207_assign(p, 3, &c, why, sizeof why), PMU_OK);
	assert_int_equal(c.pmc_of[0], 5);
	assert_int_equal(c.pmc_of[1], 1);
	assert_int_equal(c.pmc_of[2], 6);
	assert_int_equal(c.mmcr1, 0x1E000000);

	uint32_t e[] = { PMU_PIN(ISA207_INSTRUCTIONS, 6) };
	assert_int_equal(isa207_assign(e, 1, &c, why, sizeof why), PMU_EPMC);
	assert_string_equal(why,
		"instructions (ISA 2.07) can only be counted on PMC1, 2, 3, 4 or 5 under QEMU");
	uint32_t f[] = { PMU_PIN(ISA207_CYCLES, 7) };
	assert_int_equal(isa207_assign(f, 1, &c, why, sizeof why), PMU_EPMC);
	assert_string_equal(why,
		"cycles (ISA 2.07) can only be counted on PMC1, 2, 3, 4 or 6 under QEMU");
	uint32_t twice[] = { PMU_PIN(ISA207_CYCLES, 2), PMU_PIN(ISA207_INSTRUCTIONS, 2) };
	assert_int_equal(isa207_assign(twice, 2, &c, why, sizeof why), PMU_EPMC);
	assert_string_equal(why, "two events need PMC2");
}

static void test_refusals(void **state)
{
	(void)state;
	uint32_t g[7] = { ISA207_CYCLES };
	assert_int_equal(isa207_assign(g, 7, &c, why, sizeof why), PMU_ETOOMANY);
	assert_string_equal(why, "too many events: QEMU counts on 6 counters (PMC1-6)");
	uint32_t h[] = { 0x7 };      /* the 970's cycles code is not an ISA 2.07 select */
	assert_int_equal(isa207_assign(h, 1, &c, why, sizeof why), PMU_EBADCODE);
	assert_string_equal(why,
		"0x7 is not an event QEMU counts (only 0x02 instructions and 0x1e cycles)");
	uint32_t high[] = { ISA207_CYCLES | 1u << 20 };
	assert_int_equal(isa207_assign(high, 1, &c, why, sizeof why), PMU_EBADCODE);
	/* Five cycles events: PMC6 and PMC1-4; a sixth has nowhere to go. */
	uint32_t k[6] = { ISA207_CYCLES, ISA207_CYCLES, ISA207_CYCLES, ISA207_CYCLES,
		ISA207_CYCLES, ISA207_CYCLES };
	assert_int_equal(isa207_assign(k, 5, &c, why, sizeof why), PMU_OK);
	assert_int_equal(isa207_assign(k, 6, &c, why, sizeof why), PMU_EPMC);
	assert_string_equal(why,
		"no free counter for cycles (ISA 2.07): QEMU counts cycles only on PMC1-4 and 6");
	/* No message buffer: the same answers, nothing written. */
	assert_int_equal(isa207_assign(k, 6, &c, NULL, 0), PMU_EPMC);
	assert_int_equal(isa207_assign(NULL, 1, &c, NULL, 0), PMU_EBADCODE);
	assert_int_equal(isa207_assign(k, -1, &c, why, sizeof why), PMU_EBADCODE);
	/* A short buffer is cut, never overrun. */
	char small[8];
	memset(small, 'x', sizeof small);
	assert_int_equal(isa207_assign(k, 6, &c, small, sizeof small), PMU_EPMC);
	assert_string_equal(small, "no free");
	/* An empty group is fine and leaves PMC5/6 frozen. */
	assert_int_equal(isa207_assign(NULL, 0, &c, why, sizeof why), PMU_OK);
	assert_int_equal(c.mmcr0, MMCR0_FC56);
}

/* The probe counts with selects on PMC1-4 and none on PMC5/6 (their events are fixed). */
static void test_probe_selects(void **state)
{
	(void)state;
	struct pmu_regs r;
	isa207_pmu.probe_select(1, PROBE_INSTRUCTIONS, &r);
	assert_int_equal(r.mmcr0, 0);
	assert_int_equal(r.mmcr1, 0x02000000);
	isa207_pmu.probe_select(4, PROBE_CYCLES, &r);
	assert_int_equal(r.mmcr1, 0x1E);
	for (int pmc = 5; pmc <= 8; pmc++) {
		isa207_pmu.probe_select(pmc, PROBE_CYCLES, &r);
		assert_int_equal(r.mmcr0, 0);
		assert_int_equal(r.mmcr1, 0);
		assert_int_equal(r.mmcra, 0);
	}
}

/* The architected fallback: every processor, two generic events, six counters. */
static void test_backend(void **state)
{
	(void)state;
	const struct pmu_backend *b = &isa207_pmu;
	assert_string_equal(b->name, "isa207-arch");
	assert_string_equal(b->selects, "ISA 2.07");
	assert_true(b->architected);
	assert_int_equal(b->counters, 6);
	assert_true(b->matches(0x00390202));
	assert_true(b->matches(0x004B0201));
	assert_true(b->matches(0));
	assert_int_equal(b->n_events, 2);
	assert_int_equal(pmu_generic_event(b, EV_GENERIC_INST)->code, ISA207_INSTRUCTIONS);
	assert_int_equal(pmu_generic_event(b, EV_GENERIC_CYC)->code, ISA207_CYCLES);
	assert_string_equal(pmu_generic_event(b, EV_GENERIC_INST)->name, "PM_INST_CMPL");
	assert_string_equal(pmu_generic_event(b, EV_GENERIC_CYC)->name, "PM_CYC");
	/* Overflow control is the Book3S one. */
	const struct pmu_regs sel = { MMCR0_FC56, 0x02000000, 0 };
	struct pmu_regs r = b->program(&sel, PMCS(1), PMU_COUNT_KERNEL | PMU_COUNT_USER);
	assert_int_equal(r.mmcr0, MMCR0_FC56 | MMCR0_PMXE | MMCR0_PMC1CE);
	assert_int_equal(r.mmcr1, 0x02000000);
	assert_int_equal(b->preload(1000), 0x7FFFFC18);
	assert_int_equal(pmu_freeze(b, 0x10), 0x80000010);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_counters_first),
		cmocka_unit_test(test_pins),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_probe_selects),
		cmocka_unit_test(test_backend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

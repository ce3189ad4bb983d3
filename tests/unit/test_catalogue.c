/* Event catalogue: lookup and iteration, and the status each event gets from boot-probe
 * results shaped like QEMU's (only ISA 2.07 instructions and cycles count; PMC6 cycles never
 * interrupt) and like real 970 silicon (every 970 select counts and interrupts): its basis
 * (measured, assumed, software, not counted) and whether one mode only is honoured; and the
 * probe's cells from real counter deltas, QEMU's with and without -icount (fixed counters told
 * apart, or left to the backend's table when cycles equal instructions). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/pmu_event.h"
#include "common/monitor/ppc970_pmu.h"
#include "probe_shapes.h"

static struct catalogue cat;

static int setup(void **state)
{
	(void)state;
	return catalogue_init(&cat, p970_events, p970_event_count);
}

static const struct event_status *status_of(const char *name)
{
	int i = catalogue_find(&cat, name);
	assert_true(i >= 0);
	return catalogue_status(&cat, (size_t)i);
}

static void test_lookup_and_iteration(void **state)
{
	(void)state;
	size_t n = catalogue_count(&cat);
	assert_int_equal(n, p970_event_count + SW_EVENT_COUNT);
	for (size_t i = 0; i < n; i++) {
		const struct event_desc *d = catalogue_desc(&cat, i);
		assert_non_null(d);
		assert_non_null(d->name);
		assert_non_null(d->description);
		assert_int_equal(d->source, i < p970_event_count ? EVSRC_HW : EVSRC_SW);
		assert_int_equal(catalogue_find(&cat, d->name), (int)i);
		for (size_t j = 0; j < i; j++)
			assert_false(name_equal(catalogue_desc(&cat, j)->name, d->name));
	}
	assert_null(catalogue_desc(&cat, n));
	assert_null(catalogue_status(&cat, n));

	assert_int_equal(catalogue_find(&cat, "pm_larx_lsu0"), catalogue_find(&cat, "PM_LARX_LSU0"));
	assert_true(catalogue_find(&cat, "Sw_Cpu_Clock") >= (int)p970_event_count);
	assert_int_equal(catalogue_find(&cat, "PM_LARX"), -1);
	assert_int_equal(catalogue_find(&cat, "PM_LARX_LSU00"), -1);
	assert_int_equal(catalogue_find(&cat, ""), -1);

	for (int e = 0; e < SW_EVENT_COUNT; e++) {
		const struct event_desc *d = sw_event_desc((enum sw_event)e);
		assert_int_equal(d->code, (uint32_t)e);
		assert_ptr_equal(catalogue_desc(&cat, p970_event_count + (size_t)e), d);
	}
	assert_null(sw_event_desc(SW_EVENT_COUNT));
	assert_string_equal(sw_event_desc(SW_HPT_MISS)->name, "SW_HPT_MISS");
}

static void test_before_probe(void **state)
{
	(void)state;
	const struct event_status *s = status_of("PM_INST_CMPL");
	assert_false(s->counts_here);
	assert_string_equal(s->why_not, "not probed yet");
	s = status_of("SW_CONTEXT_SWITCH");
	assert_true(s->counts_here);
	assert_true(s->samples_here);
	assert_null(s->why_not);
}

static void test_qemu(void **state)
{
	(void)state;
	struct catalogue_probe p;
	qemu_probe(&p);
	catalogue_apply_probe(&cat, &p);

	const struct event_status *s = status_of("PM_INST_CMPL");
	assert_true(s->counts_here);
	assert_true(s->samples_here);
	assert_null(s->why_not);
	assert_int_equal(s->encoding, EVENC_ARCH);
	assert_int_equal(s->count_pmcs, 0x1f);
	assert_int_equal(s->sample_pmcs, 0x1f);

	s = status_of("PM_CYC");
	assert_true(s->counts_here);
	assert_false(s->samples_here);
	assert_int_equal(s->encoding, EVENC_ARCH);
	assert_int_equal(s->count_pmcs, 0x2f);
	assert_int_equal(s->sample_pmcs, 0);
	assert_string_equal(s->why_not, "counts, but no counter's overflow interrupted in the boot "
		"probe; sample by time with SW_CPU_CLOCK");

	assert_int_equal(status_of("PM_INST_CMPL")->basis, BASIS_MEASURED);
	assert_int_equal(status_of("PM_CYC")->basis, BASIS_MEASURED);
	assert_false(status_of("PM_INST_CMPL")->modes_filtered);   /* QEMU ignores FCS */
	assert_int_equal(status_of("SW_SYSCALL")->basis, BASIS_SOFTWARE);
	assert_false(status_of("SW_SYSCALL")->modes_filtered);

	s = status_of("PM_LARX_LSU0");
	assert_false(s->counts_here);
	assert_false(s->samples_here);
	assert_int_equal(s->basis, BASIS_NOT_COUNTED);
	assert_int_equal(s->encoding, EVENC_NONE);
	assert_string_equal(s->why_not, "970 event selects counted nothing in the boot probe; only "
		"the ISA 2.07 instructions and cycles events count on this machine");

	/* Every other hardware event is refused the same way; software events are untouched. */
	for (size_t i = 0; i < catalogue_count(&cat); i++) {
		const struct event_desc *d = catalogue_desc(&cat, i);
		s = catalogue_status(&cat, i);
		if (d->source == EVSRC_SW) {
			assert_true(s->counts_here && s->samples_here);
			assert_null(s->why_not);
		} else if (!(d->flags & (EV_GENERIC_INST | EV_GENERIC_CYC))) {
			assert_false(s->counts_here);
			assert_non_null(s->why_not);
		}
	}
}

static void test_silicon(void **state)
{
	(void)state;
	struct catalogue_probe p;
	silicon_probe(&p);
	catalogue_apply_probe(&cat, &p);

	const struct event_status *s = status_of("PM_INST_CMPL");
	assert_true(s->counts_here && s->samples_here);
	assert_int_equal(s->encoding, EVENC_NATIVE);
	assert_int_equal(s->count_pmcs, 0xff);

	assert_int_equal(s->basis, BASIS_MEASURED);
	assert_true(s->modes_filtered);

	/* Not itself probed: believed, and said so. */
	s = status_of("PM_LARX_LSU0");
	assert_true(s->counts_here && s->samples_here);
	assert_int_equal(s->basis, BASIS_ASSUMED);
	assert_string_equal(event_basis_name(s->basis), "assumed");
	assert_true(s->modes_filtered);
	assert_null(s->why_not);
	assert_int_equal(s->encoding, EVENC_NATIVE);
	assert_int_equal(s->count_pmcs, PMCS_1256);
	assert_int_equal(s->sample_pmcs, PMCS_1256);

	s = status_of("PM_LD_MISS_L1");
	assert_int_equal(s->count_pmcs, PMCS(3));
	assert_int_equal(s->sample_pmcs, PMCS(3));
}

/* Counting works but the probe never tried an overflow: no sampling claimed. */
static void test_interrupt_not_tried(void **state)
{
	(void)state;
	struct catalogue_probe p;
	silicon_probe(&p);
	fill(p.native, PMCS_ANY, PROBE_INSTRUCTIONS, true, -1);
	fill(p.native, PMCS_ANY, PROBE_CYCLES, true, -1);
	catalogue_apply_probe(&cat, &p);
	const struct event_status *s = status_of("PM_BR_ISSUED");
	assert_true(s->counts_here);
	assert_false(s->samples_here);
	assert_string_equal(s->why_not, "counts, but the boot probe did not try its overflow interrupt");

	/* Interrupts only on PMC1: a PMC3/4/7/8 event counts but cannot sample there. */
	fill(p.native, PMCS(1), PROBE_INSTRUCTIONS, true, 1);
	fill(p.native, 0xfe, PROBE_INSTRUCTIONS, true, 0);
	catalogue_apply_probe(&cat, &p);
	s = status_of("PM_BR_ISSUED");
	assert_true(s->counts_here);
	assert_false(s->samples_here);
	assert_int_equal(s->sample_pmcs, 0);
	s = status_of("PM_LARX_LSU0");
	assert_true(s->samples_here);
	assert_int_equal(s->sample_pmcs, PMCS(1));
}

static void test_nothing_counts(void **state)
{
	(void)state;
	struct catalogue_probe p;
	empty_probe(&p);
	catalogue_apply_probe(&cat, &p);
	const struct event_status *s = status_of("PM_CYC");
	assert_false(s->counts_here);
	assert_false(s->samples_here);
	assert_string_equal(s->why_not, "no counter counted it in the boot probe");
	assert_true(status_of("SW_CPU_CLOCK")->samples_here);
}

/* Counter deltas over the 40000-instruction loop as QEMU 10 gave them (pmu_probe.sh's boots):
 * columns native inst, native cyc, arch inst, arch cyc. */
static const uint32_t qemu_deltas[8][4] = {
	{ 0, 0, 40004, 28253 }, { 0, 0, 40004, 10977 }, { 0, 0, 40004, 10826 },
	{ 0, 0, 40004, 10866 }, { 0, 0, 40006, 40006 }, { 0, 0, 10836, 10806 },
	{ 0, 0, 0, 0 }, { 0, 0, 0, 0 },
};
static const uint32_t icount_deltas[8][4] = {     /* -icount shift=0: a cycle per instruction */
	{ 0, 0, 40004, 40006 }, { 0, 0, 40004, 40006 }, { 0, 0, 40004, 40006 },
	{ 0, 0, 40004, 40006 }, { 0, 0, 40006, 40006 }, { 0, 0, 40006, 40006 },
	{ 0, 0, 0, 0 }, { 0, 0, 0, 0 },
};

static void probe_from(struct catalogue_probe *p, const uint32_t d[8][4])
{
	uint32_t native[8][PROBE_EVENT_COUNT], arch[8][PROBE_EVENT_COUNT];
	empty_probe(p);
	for (int q = 0; q < 8; q++) {
		native[q][PROBE_INSTRUCTIONS] = d[q][0];
		native[q][PROBE_CYCLES] = d[q][1];
		arch[q][PROBE_INSTRUCTIONS] = d[q][2];
		arch[q][PROBE_CYCLES] = d[q][3];
	}
	catalogue_probe_counts(p, native, arch, 40000);
}

static uint8_t counting(const struct probe_cell cells[][PROBE_EVENT_COUNT], int ev)
{
	uint8_t m = 0;
	for (int q = 0; q < 8; q++)
		m |= (uint8_t)(cells[q][ev].counts << q);
	return m;
}

static void test_probe_deltas(void **state)
{
	(void)state;
	struct catalogue_probe p;
	/* Without -icount: PMC5 counts the loop's instructions with either select (it ignores
	 * the select): an instruction counter, not a cycle counter; PMC6 counts cycles only. */
	probe_from(&p, qemu_deltas);
	assert_false(p.cycles_are_instructions);
	assert_int_equal(counting(p.arch, PROBE_INSTRUCTIONS), 0x1f);
	assert_int_equal(counting(p.arch, PROBE_CYCLES), 0x2f);
	assert_int_equal(counting(p.native, PROBE_INSTRUCTIONS), 0);
	catalogue_apply_probe(&cat, &p);
	assert_int_equal(status_of("PM_INST_CMPL")->count_pmcs, 0x1f);
	assert_int_equal(status_of("PM_CYC")->count_pmcs, 0x2f);   /* was 0x3f: PMC5 taken for cycles */

	/* Under -icount every counter counts the loop with either select: the probe cannot tell
	 * PMC6 (cycles) from an instruction counter, says so, and the backend's table decides. */
	probe_from(&p, icount_deltas);
	assert_true(p.cycles_are_instructions);
	catalogue_apply_probe(&cat, &p);
	assert_int_equal(status_of("PM_INST_CMPL")->count_pmcs, 0x1f);   /* was 0x3f: PMC6 */
	assert_int_equal(status_of("PM_CYC")->count_pmcs, 0x2f);
	assert_int_equal(status_of("PM_INST_CMPL")->basis, BASIS_MEASURED);
}

/* An emulator implementing the 970's own selects but counting a cycle per instruction is not
 * the real PMU: instructions and cycles are measured, its other events not believed. */
static void test_native_selects_but_emulated(void **state)
{
	(void)state;
	struct catalogue_probe p;
	uint32_t native[8][PROBE_EVENT_COUNT], arch[8][PROBE_EVENT_COUNT];
	memset(arch, 0, sizeof arch);
	for (int q = 0; q < 8; q++)
		native[q][PROBE_INSTRUCTIONS] = native[q][PROBE_CYCLES] = 40004;
	empty_probe(&p);
	catalogue_probe_counts(&p, native, arch, 40000);
	assert_true(p.cycles_are_instructions);
	catalogue_apply_probe(&cat, &p);
	assert_int_equal(status_of("PM_INST_CMPL")->basis, BASIS_MEASURED);
	const struct event_status *s = status_of("PM_LARX_LSU0");
	assert_false(s->counts_here);
	assert_int_equal(s->basis, BASIS_NOT_COUNTED);
	assert_non_null(strstr(s->why_not, "one cycle per instruction"));

	/* The same selects with cycles told apart: the real thing, its events assumed. */
	for (int q = 0; q < 8; q++)
		native[q][PROBE_CYCLES] = 15000;
	catalogue_probe_counts(&p, native, arch, 40000);
	assert_false(p.cycles_are_instructions);
	catalogue_apply_probe(&cat, &p);
	assert_int_equal(status_of("PM_LARX_LSU0")->basis, BASIS_ASSUMED);
}

static void test_table_too_big(void **state)
{
	(void)state;
	struct catalogue c;
	static struct event_desc many[CATALOGUE_MAX];
	assert_int_equal(catalogue_init(&c, many, CATALOGUE_MAX - SW_EVENT_COUNT + 1), -1);
	assert_int_equal(catalogue_init(&c, many, CATALOGUE_MAX - SW_EVENT_COUNT), 0);
	assert_int_equal(catalogue_count(&c), CATALOGUE_MAX);
}

static void test_name_equal(void **state)
{
	(void)state;
	assert_true(name_equal("PM_CYC", "pm_cyc"));
	assert_true(name_equal("", ""));
	assert_false(name_equal("PM_CYC", "PM_CY"));
	assert_false(name_equal("PM_CY", "PM_CYC"));
	assert_false(name_equal("PM_CYC", "PM_CYD"));
	assert_false(name_equal("a[", "A{"));   /* only letters fold */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_lookup_and_iteration, setup),
		cmocka_unit_test_setup(test_before_probe, setup),
		cmocka_unit_test_setup(test_qemu, setup),
		cmocka_unit_test_setup(test_silicon, setup),
		cmocka_unit_test_setup(test_interrupt_not_tried, setup),
		cmocka_unit_test_setup(test_nothing_counts, setup),
		cmocka_unit_test_setup(test_probe_deltas, setup),
		cmocka_unit_test_setup(test_native_selects_but_emulated, setup),
		cmocka_unit_test(test_table_too_big),
		cmocka_unit_test(test_name_equal),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

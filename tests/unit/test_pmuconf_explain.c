/* Explaining configurations (gui/client/pmuconf_explain.c): counters in words, and a group
 * that does not fit narrowed to the events that collide, in the 970 constraint checker's own
 * sentence (the viewer's configuration utility shows these). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "client/pmuconf_explain.h"

static const struct pmu_backend *p970;

static int setup(void **state)
{
	(void)state;
	p970 = pmu_backend_for_pvr(0x00390202);   /* a 970 (QEMU's pseries model) */
	return p970 && !p970->architected ? 0 : -1;
}

static uint32_t code(const char *name)
{
	for (size_t i = 0; i < p970->n_events; i++)
		if (!strcmp(p970->events[i].name, name))
			return p970->events[i].code;
	fail_msg("no event %s", name);
	return 0;
}

static void test_counters_in_words(void **state)
{
	(void)state;
	char buf[32];
	kov_pmcs_text(PMCS_1256, buf, sizeof buf);
	assert_string_equal(buf, "PMC 1,2,5,6");
	kov_pmcs_text(PMCS(3), buf, sizeof buf);
	assert_string_equal(buf, "PMC 3");
	kov_pmcs_text(PMCS_ANY, buf, sizeof buf);
	assert_string_equal(buf, "any PMC");
	kov_pmcs_text(0, buf, sizeof buf);
	assert_string_equal(buf, "");
	kov_pmcs_text(PMCS_3478, buf, 7);   /* cut, still a string */
	assert_string_equal(buf, "PMC 3,");
}

/* A group that fits: the backend's own placement, nothing to explain. */
static void test_fit_is_the_backends(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_LD_MISS_L1"), code("PM_INST_CMPL"), code("PM_CYC") };
	int pmc_of[3], a, b, c;
	char why[256];
	assert_int_equal(kov_pmu_fit(p970, g, 3, pmc_of, why, sizeof why), PMU_OK);
	struct pmu_assignment direct;
	assert_int_equal(p970->assign(g, 3, &direct, NULL, 0), PMU_OK);
	for (int i = 0; i < 3; i++)
		assert_int_equal(pmc_of[i], direct.pmc_of[i]);
	assert_int_equal(pmc_of[0], 3);   /* PM_LD_MISS_L1 has only PMC3 */
	assert_int_equal(kov_pmu_conflict(p970, g, 3, &a, &b, &c, why, sizeof why), 0);
}

/* In a larger group, the pair that collides, with the checker's sentence for the pair. */
static void test_conflict_narrowed_to_the_pair(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_INST_CMPL"), code("PM_LD_MISS_L1"), code("PM_CYC"),
			 code("PM_STOP_COMPLETION") };
	int a, b, c;
	char why[256], direct[256];
	assert_int_equal(kov_pmu_conflict(p970, g, 4, &a, &b, &c, why, sizeof why), 2);
	assert_int_equal(a, 1);
	assert_int_equal(b, 3);
	assert_int_equal(c, -1);
	assert_string_equal(why, "PM_LD_MISS_L1 and PM_STOP_COMPLETION both need PMC3");
	uint32_t pair[] = { g[1], g[3] };
	struct pmu_assignment x;
	p970->assign(pair, 2, &x, direct, sizeof direct);
	assert_string_equal(why, direct);
	uint32_t bus[] = { code("PM_CYC"), code("PM_LARX_LSU0"), code("PM_INST_DISP") };
	assert_int_equal(kov_pmu_conflict(p970, bus, 3, &a, &b, &c, why, sizeof why), 2);
	assert_string_equal(why, "PM_LARX_LSU0 and PM_INST_DISP both need event-bus byte 2 "
			    "(units LSU0 and ISU)");
}

/* Five events for four counters: every pair and triple fits, so the reason is the group's. */
static void test_group_reason_when_no_small_set_collides(void **state)
{
	(void)state;
	uint32_t g[] = { code("PM_LARX_LSU0"), code("PM_STCX_FAIL"), code("PM_STCX_PASS"),
			 code("PM_DTLB_MISS"), code("PM_ITLB_MISS") };
	int a, b, c;
	char why[256];
	assert_int_equal(kov_pmu_conflict(p970, g, 5, &a, &b, &c, why, sizeof why), 5);
	assert_int_equal(a, -1);
	assert_string_equal(why, "too many events for PMC1, 2, 5 and 6: PM_LARX_LSU0, PM_STCX_FAIL, "
			    "PM_STCX_PASS, PM_DTLB_MISS and PM_ITLB_MISS can only be counted there");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counters_in_words),
		cmocka_unit_test(test_fit_is_the_backends),
		cmocka_unit_test(test_conflict_narrowed_to_the_pair),
		cmocka_unit_test(test_group_reason_when_no_small_set_collides),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

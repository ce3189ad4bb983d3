/* Monitoring configurations into counter programming (common/monitor/km_plan.c): what QEMU's PMU and
 * 970 silicon accept, the instructions and cycles added to every group, pinning of sampled
 * events to interrupting counters, and every refusal with its sentence. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/km_plan.h"
#include "common/monitor/ppc970_pmu.h"
#include "probe_shapes.h"

static struct catalogue qemu, silicon;
static struct km_plan plan;
static struct km_config applied;
static char why[512];

static int setup(void **state)
{
	(void)state;
	struct catalogue_probe p;
	catalogue_init(&qemu, p970_events, p970_event_count);
	qemu_probe(&p);
	catalogue_apply_probe(&qemu, &p);
	catalogue_init(&silicon, p970_events, p970_event_count);
	silicon_probe(&p);
	catalogue_apply_probe(&silicon, &p);
	return 0;
}

static uint16_t ev(const struct catalogue *c, const char *name)
{
	int i = catalogue_find(c, name);
	assert_true(i >= 0);
	return (uint16_t)i;
}

/* A configuration of one group named "g" with the given events and thresholds. */
static struct km_config one_group(const struct catalogue *c, const char **names,
	const uint64_t *thresholds, int n)
{
	struct km_config cfg = { .n_groups = 1, .unit = KM_UNIT_MICROSECONDS, .slice = 10000,
				 .flags = KM_CFG_KERNEL | KM_CFG_USER };
	strcpy(cfg.group[0].name, "g");
	cfg.group[0].share = 100;
	cfg.group[0].n_events = (uint32_t)n;
	for (int i = 0; i < n; i++) {
		cfg.group[0].event[i] = ev(c, names[i]);
		cfg.group[0].threshold[i] = thresholds ? thresholds[i] : 0;
	}
	return cfg;
}

static int build(const struct catalogue *c, const struct km_config *cfg)
{
	memset(&plan, 0xa5, sizeof plan);
	return km_plan_build(c, cfg, &plan, &applied, why, sizeof why);
}

static void refused_with(const struct catalogue *c, const struct km_config *cfg, const char *text)
{
	assert_int_equal(build(c, cfg), -1);
	if (!strstr(why, text))
		fail_msg("expected \"%s\" in \"%s\"", text, why);
}

/* QEMU: instructions sampled on PMC5 (its own counter), cycles added on PMC6; MMCR1 stays
 * clear because PMC5/6 need no select, MMCR0 keeps FC56 clear. */
static void test_qemu_instructions_sampled(void **state)
{
	(void)state;
	const char *names[] = { "PM_INST_CMPL" };
	uint64_t thr[] = { 100000 };
	struct km_config cfg = one_group(&qemu, names, thr, 1);
	assert_int_equal(build(&qemu, &cfg), 0);
	const struct km_plan_group *g = &plan.group[0];
	assert_int_equal(plan.n_groups, 1);
	assert_int_equal(g->n, 2);
	assert_int_equal(g->ev[0].pmc, 5);
	assert_int_equal(g->ev[0].threshold, 100000);
	assert_int_equal(g->ev[1].event, ev(&qemu, "PM_CYC"));
	assert_int_equal(g->ev[1].pmc, 6);
	assert_int_equal(g->ev[1].added, 1);
	assert_int_equal(g->used_pmcs, PMCS(5) | PMCS(6));
	assert_int_equal(g->sample_pmcs, PMCS(5));
	assert_int_equal(g->inst_pmc, 5);
	assert_int_equal(g->cyc_pmc, 6);
	assert_int_equal(g->ev_of_pmc[4], 0);
	assert_int_equal(g->ev_of_pmc[5], 1);
	assert_int_equal(g->mmcr1, 0);
	assert_int_equal(g->mmcr0 & MMCR0_FC56, 0);
	/* The applied configuration shows the added event. */
	assert_int_equal(applied.group[0].n_events, 2);
	assert_int_equal(applied.group[0].event[1], ev(&qemu, "PM_CYC"));
	assert_int_equal(applied.group[0].threshold[1], 0);
}

/* Software events take no counter; instructions and cycles are still added. */
static void test_software_events(void **state)
{
	(void)state;
	const char *names[] = { "SW_SYSCALL", "SW_HPT_MISS" };
	uint64_t thr[] = { 1, 0 };
	struct km_config cfg = one_group(&qemu, names, thr, 2);
	assert_int_equal(build(&qemu, &cfg), 0);
	const struct km_plan_group *g = &plan.group[0];
	assert_int_equal(g->n, 4);
	assert_int_equal(g->ev[0].pmc, 0);
	assert_int_equal(g->ev_of_sw[SW_SYSCALL], 0);
	assert_int_equal(g->ev_of_sw[SW_HPT_MISS], 1);
	assert_int_equal(g->ev_of_sw[SW_CONTEXT_SWITCH], -1);
	assert_int_equal(g->inst_pmc, 5);
	assert_int_equal(g->cyc_pmc, 6);
	assert_int_equal(g->sample_pmcs, 0);
}

/* QEMU counts nothing but instructions and cycles: the refusal says why, from the catalogue. */
static void test_qemu_refuses_what_does_not_count(void **state)
{
	(void)state;
	const char *names[] = { "PM_LARX_LSU0" };
	struct km_config cfg = one_group(&qemu, names, 0, 1);
	refused_with(&qemu, &cfg, "group g: PM_LARX_LSU0 does not count on this machine: 970 event "
		"selects counted nothing");
	/* Cycles count on QEMU but their overflow never interrupted in the probe. */
	const char *cyc[] = { "PM_CYC" };
	uint64_t thr[] = { 1000000 };
	cfg = one_group(&qemu, cyc, thr, 1);
	refused_with(&qemu, &cfg, "PM_CYC cannot raise samples here");
}

/* Silicon: the 970 checker's register values, and its explanation carried through. */
static void test_silicon_groups(void **state)
{
	(void)state;
	const char *names[] = { "PM_LARX_LSU0", "PM_STCX_PASS", "PM_STCX_FAIL" };
	uint64_t thr[] = { 100000, 0, 0 };
	struct km_config cfg = one_group(&silicon, names, thr, 3);
	assert_int_equal(build(&silicon, &cfg), 0);
	const struct km_plan_group *g = &plan.group[0];
	assert_int_equal(g->n, 5);   /* + instructions and cycles */
	uint8_t pmcs = 0;
	for (uint32_t e = 0; e < g->n; e++) {
		assert_true(g->ev[e].pmc >= 1 && g->ev[e].pmc <= 8);
		assert_false(pmcs & PMCS(g->ev[e].pmc));
		pmcs |= (uint8_t)PMCS(g->ev[e].pmc);
		assert_int_equal(g->ev_of_pmc[g->ev[e].pmc - 1], (int8_t)e);
	}
	assert_int_equal(pmcs, g->used_pmcs);
	assert_true(PMCS(g->ev[0].pmc) & PMCS_1256);   /* larx only reaches PMC1, 2, 5, 6 */
	/* The same registers as the 970 checker gives for the same codes. */
	uint32_t codes[5];
	for (uint32_t e = 0; e < g->n; e++)
		codes[e] = catalogue_desc(&silicon, g->ev[e].event)->code;
	struct pmu_assignment p;
	assert_int_equal(p970_assign(codes, 5, &p, 0, 0), P970_OK);
	assert_int_equal(g->mmcr0, p.mmcr0);
	assert_int_equal(g->mmcr1, p.mmcr1);
	assert_int_equal(g->mmcra, p.mmcra);

	/* Five events on byte lanes that reach only PMC1/2/5/6: the checker says so. */
	const char *crowded[] = { "PM_LARX_LSU0", "PM_STCX_PASS", "PM_STCX_FAIL", "PM_ITLB_MISS",
				  "PM_DTLB_MISS" };
	cfg = one_group(&silicon, crowded, 0, 5);
	refused_with(&silicon, &cfg, "group g: ");
	assert_true(strstr(why, "PMC") != NULL);
}

/* Instructions and cycles are left out (not refused) where the group has no room. */
static void test_silicon_full_group_gets_no_extras(void **state)
{
	(void)state;
	const char *names[] = { "PM_LARX_LSU0", "PM_STCX_PASS", "PM_STCX_FAIL", "PM_ITLB_MISS" };
	struct km_config cfg = one_group(&silicon, names, 0, 4);
	assert_int_equal(build(&silicon, &cfg), 0);
	const struct km_plan_group *g = &plan.group[0];
	assert_true(g->n >= 4 && g->n <= 6);
	for (uint32_t e = 4; e < g->n; e++)
		assert_int_equal(g->ev[e].added, 1);
}

static void test_header_refusals(void **state)
{
	(void)state;
	const char *names[] = { "PM_INST_CMPL" };
	struct km_config cfg = one_group(&qemu, names, 0, 1);
	struct km_config bad = cfg;
	bad.group[0].share = 60;
	refused_with(&qemu, &bad, "add up to 60%, not 100%");
	bad = cfg;
	bad.flags = 0;
	refused_with(&qemu, &bad, "count the kernel, user programs or both");
	bad = cfg;
	bad.flags |= KM_CFG_CALLCHAIN;
	refused_with(&qemu, &bad, "call chains of 0 frames: 1 to 32");
	bad.chain_depth = 33;
	refused_with(&qemu, &bad, "call chains of 33 frames: 1 to 32");
	bad.flags &= ~KM_CFG_CALLCHAIN;
	refused_with(&qemu, &bad, "a chain depth without call chains");
	bad = cfg;
	bad.group[0].chain_depth = 40;
	refused_with(&qemu, &bad, "call chains of 40 frames: at most 32");
	bad = cfg;   /* chains for every group, at the configuration's depth */
	bad.flags |= KM_CFG_CALLCHAIN;
	bad.chain_depth = 32;
	assert_int_equal(build(&qemu, &bad), 0);
	assert_int_equal(plan.group[0].chain_depth, 32);
	assert_int_equal(applied.group[0].chain_depth, 32);
	bad = cfg;   /* or one group alone, at its own */
	bad.group[0].chain_depth = 5;
	assert_int_equal(build(&qemu, &bad), 0);
	assert_int_equal(plan.group[0].chain_depth, 5);
	bad = cfg;
	bad.flags |= 0x20;
	refused_with(&qemu, &bad, "unknown flags 0x23");
	bad = cfg;   /* the comparison switches are accepted and kept in the applied configuration */
	bad.flags |= KM_CFG_FIXED_PERIOD | KM_CFG_GENERAL_PATH;
	assert_int_equal(build(&qemu, &bad), 0);
	assert_int_equal(applied.flags, KM_CFG_KERNEL | KM_CFG_USER | KM_CFG_FIXED_PERIOD |
			 KM_CFG_GENERAL_PATH);
	bad = cfg;
	bad.slice = 0;
	refused_with(&qemu, &bad, "slice length");
	bad = cfg;
	bad.unit = 9;
	refused_with(&qemu, &bad, "slice unit 9");
	bad = cfg;
	bad.group[0].n_events = 2;
	bad.group[0].event[1] = bad.group[0].event[0];
	refused_with(&qemu, &bad, "lists PM_INST_CMPL twice");
	bad = cfg;
	bad.group[0].event[0] = 999;
	refused_with(&qemu, &bad, "event 999 is not in the catalogue");
	bad = cfg;
	bad.n_groups = 2;
	bad.group[0].share = 50;
	bad.group[1] = bad.group[0];
	refused_with(&qemu, &bad, "two groups are named g");
	bad = cfg;
	memset(bad.group[0].name, 'x', sizeof bad.group[0].name);
	refused_with(&qemu, &bad, "group 1: a name of 1 to 31 characters");
	bad = cfg;
	bad.n_groups = KM_MAX_GROUPS + 1;
	refused_with(&qemu, &bad, "at most 16");
	/* No groups clears: accepted. */
	bad = cfg;
	bad.n_groups = 0;
	assert_int_equal(build(&qemu, &bad), 0);
	assert_int_equal(plan.n_groups, 0);
}

/* Two groups at 50/50, as the multiplexing test runs them. */
static void test_two_groups(void **state)
{
	(void)state;
	struct km_config cfg = { .n_groups = 2, .unit = KM_UNIT_INSTRUCTIONS, .slice = 1000000,
				 .flags = KM_CFG_USER };
	strcpy(cfg.group[0].name, "a");
	strcpy(cfg.group[1].name, "b");
	cfg.group[0].share = cfg.group[1].share = 50;
	cfg.group[0].n_events = cfg.group[1].n_events = 1;
	cfg.group[0].event[0] = ev(&qemu, "PM_INST_CMPL");
	cfg.group[1].event[0] = ev(&qemu, "SW_CONTEXT_SWITCH");
	assert_int_equal(build(&qemu, &cfg), 0);
	assert_int_equal(plan.n_groups, 2);
	assert_int_equal(plan.group[0].n, 2);
	assert_int_equal(plan.group[1].n, 3);
	assert_int_equal(plan.group[1].inst_pmc, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_qemu_instructions_sampled),
		cmocka_unit_test(test_software_events),
		cmocka_unit_test(test_qemu_refuses_what_does_not_count),
		cmocka_unit_test(test_silicon_groups),
		cmocka_unit_test(test_silicon_full_group_gets_no_extras),
		cmocka_unit_test(test_header_refusals),
		cmocka_unit_test(test_two_groups),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

/* The PMU backend registry (common/monitor/pmu_backends.c) and what the generic code makes of it: which
 * backend a processor gets, which one the catalogue reports as in use after the boot probe,
 * and that every registered backend keeps the interface's promises (a conformance check a new
 * backend is held to as soon as it is listed). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/pmu_backend.h"
#include "common/monitor/km_plan.h"
#include "probe_shapes.h"

static const struct pmu_backend *by_name(const char *name)
{
	for (size_t i = 0; i < pmu_backend_count(); i++)
		if (strcmp(pmu_backend_at(i)->name, name) == 0)
			return pmu_backend_at(i);
	fail_msg("no backend %s", name);
	return NULL;
}

/* One group of one event, sampled every `threshold` (0: counted only). */
static struct km_config one_event(int event, uint64_t threshold)
{
	struct km_config cfg = { .n_groups = 1, .unit = KM_UNIT_MICROSECONDS, .slice = 10000,
				 .flags = KM_CFG_KERNEL | KM_CFG_USER };
	strcpy(cfg.group[0].name, "g");
	cfg.group[0].share = 100;
	cfg.group[0].n_events = 1;
	cfg.group[0].event[0] = (uint16_t)event;
	cfg.group[0].threshold[0] = threshold;
	return cfg;
}

/* A 970 gets the 970 backend; anything else the architected one, which is the last listed. */
static void test_selection(void **state)
{
	(void)state;
	const struct pmu_backend *p970 = by_name("ppc970"), *arch = by_name("isa207-arch");
	assert_true(pmu_backend_count() >= 2);
	assert_null(pmu_backend_at(pmu_backend_count()));
	assert_ptr_equal(pmu_backend_for_pvr(0x00390202), p970);    /* pseries -cpu 970 */
	assert_ptr_equal(pmu_backend_for_pvr(0x003C0300), p970);    /* mac99 -cpu 970fx */
	assert_ptr_equal(pmu_backend_for_pvr(0x004B0201), arch);    /* POWER8 */
	assert_ptr_equal(pmu_backend_for_pvr(0xFFFFFFFF), arch);
	assert_ptr_equal(pmu_backend_architected(), arch);
	assert_ptr_equal(pmu_backend_at(pmu_backend_count() - 1), arch);
	assert_ptr_equal(pmu_backend_of_events(p970->events), p970);
	assert_ptr_equal(pmu_backend_of_events(arch->events), arch);
	assert_null(pmu_backend_of_events(sw_event_desc(SW_SYSCALL)));
}

/* Every backend: a unique name, a select label, 1-8 counters, events with the generic pair,
 * each event countable alone on a counter it lists, probe selects for every counter, and the
 * Book3S overflow arithmetic the sampler relies on. */
static void test_conformance(void **state)
{
	(void)state;
	int architected = 0;
	for (size_t i = 0; i < pmu_backend_count(); i++) {
		const struct pmu_backend *b = pmu_backend_at(i);
		char why[256];
		assert_non_null(b->name);
		assert_non_null(b->selects);
		for (size_t j = 0; j < i; j++)
			assert_true(strcmp(pmu_backend_at(j)->name, b->name) != 0);
		assert_true(b->counters >= 1 && b->counters <= NUM_PMCS);
		assert_non_null(b->matches);
		assert_non_null(b->probe_select);
		assert_non_null(b->assign);
		assert_non_null(b->program);
		assert_non_null(b->preload);
		assert_non_null(pmu_generic_event(b, EV_GENERIC_INST));
		assert_non_null(pmu_generic_event(b, EV_GENERIC_CYC));
		assert_true(b->n_events >= 2 && b->n_events <= CATALOGUE_MAX - SW_EVENT_COUNT);
		for (size_t e = 0; e < b->n_events; e++) {
			struct pmu_assignment a;
			const struct event_desc *d = &b->events[e];
			assert_int_equal(d->source, EVSRC_HW);
			assert_int_equal(b->assign(&d->code, 1, &a, why, sizeof why), PMU_OK);
			assert_true(d->pmcs & PMCS(a.pmc_of[0]));
			assert_true(a.pmc_of[0] <= b->counters);
		}
		for (int pmc = 1; pmc <= NUM_PMCS; pmc++) {
			struct pmu_regs r = { 1, 1, 1 };
			b->probe_select(pmc, PROBE_CYCLES, &r);    /* fills every register */
			assert_true(r.mmcra != 1 || r.mmcr0 != 1 || r.mmcr1 != 1);
		}
		uint32_t v = b->preload(1234);
		assert_false(pmu_overflowed(b, v + 1233));
		assert_true(pmu_overflowed(b, v + 1234));
		assert_int_equal(pmu_unfreeze(b, pmu_freeze(b, 0)), 0);
		assert_true(pmu_freeze(b, 0) != 0);
		assert_int_equal(pmu_disarm(b, pmu_rearm(b, 0)), 0);
		architected += b->architected;
		if (b->architected)
			assert_true(b->matches(0) && b->matches(0x12345678));
	}
	assert_int_equal(architected, 1);
}

/* The name reported to clients follows what counted in the probe. */
static void test_in_use(void **state)
{
	(void)state;
	static struct catalogue cat;
	struct catalogue_probe p;
	const struct pmu_backend *p970 = by_name("ppc970"), *arch = by_name("isa207-arch");

	assert_int_equal(catalogue_init_pmu(&cat, p970, arch), 0);
	assert_null(catalogue_pmu_in_use(&cat));              /* not probed: nothing counts */
	qemu_probe(&p);
	catalogue_apply_probe(&cat, &p);
	assert_ptr_equal(catalogue_pmu_in_use(&cat), arch);   /* QEMU: only ISA 2.07 selects */
	silicon_probe(&p);
	catalogue_apply_probe(&cat, &p);
	assert_ptr_equal(catalogue_pmu_in_use(&cat), p970);   /* a real 970 */
	empty_probe(&p);
	catalogue_apply_probe(&cat, &p);
	assert_null(catalogue_pmu_in_use(&cat));

	/* The labels of the sentences come from the backends. */
	assert_string_equal(catalogue_selects(&cat, EVENC_NATIVE), "970");
	assert_string_equal(catalogue_selects(&cat, EVENC_ARCH), "ISA 2.07");
	assert_ptr_equal(catalogue_backend(&cat, EVENC_NATIVE), p970);
	assert_ptr_equal(catalogue_backend(&cat, EVENC_ARCH), arch);
	assert_null(catalogue_backend(&cat, EVENC_NONE));
}

/* A processor no backend describes: the architected backend is both the catalogue's own and
 * the fallback; its events count natively and a configuration plans through it. */
static void test_unknown_processor(void **state)
{
	(void)state;
	static struct catalogue cat;
	struct catalogue_probe p;
	const struct pmu_backend *b = pmu_backend_for_pvr(0x004B0201);
	assert_int_equal(catalogue_init_pmu(&cat, b, pmu_backend_architected()), 0);
	assert_int_equal(catalogue_count(&cat), b->n_events + SW_EVENT_COUNT);
	empty_probe(&p);
	for (int pmc = 1; pmc <= 4; pmc++) {
		p.native[pmc - 1][PROBE_INSTRUCTIONS] = (struct probe_cell){ true, 1 };
		p.native[pmc - 1][PROBE_CYCLES] = (struct probe_cell){ true, -1 };
	}
	catalogue_apply_probe(&cat, &p);
	assert_ptr_equal(catalogue_pmu_in_use(&cat), b);
	int inst = catalogue_find(&cat, "PM_INST_CMPL");
	assert_true(inst >= 0);
	assert_int_equal(catalogue_status(&cat, (size_t)inst)->encoding, EVENC_NATIVE);

	static struct km_config cfg, applied;
	static struct km_plan plan;
	char why[256];
	cfg = one_event(inst, 100000);
	assert_int_equal(km_plan_build(&cat, &cfg, &plan, &applied, why, sizeof why), 0);
	assert_ptr_equal(plan.group[0].pmu, b);
	assert_int_equal(plan.group[0].n, 2);                  /* cycles added */
	assert_int_equal(plan.group[0].sample_pmcs, PMCS(1));  /* PMC5 did not interrupt: pinned */
	assert_int_equal(plan.group[0].inst_pmc, 1);
}

/* A group of software events alone gets the backend in use, and none where nothing counts. */
static void test_software_group_backend(void **state)
{
	(void)state;
	static struct catalogue cat;
	static struct km_config cfg, applied;
	static struct km_plan plan;
	struct catalogue_probe p;
	char why[256];
	assert_int_equal(catalogue_init(&cat, by_name("ppc970")->events,
		by_name("ppc970")->n_events), 0);
	cfg = one_event(catalogue_find(&cat, "SW_SYSCALL"), 0);
	empty_probe(&p);
	catalogue_apply_probe(&cat, &p);
	assert_int_equal(km_plan_build(&cat, &cfg, &plan, &applied, why, sizeof why), 0);
	assert_null(plan.group[0].pmu);
	assert_int_equal(plan.group[0].n, 1);
	qemu_probe(&p);
	catalogue_apply_probe(&cat, &p);
	assert_int_equal(km_plan_build(&cat, &cfg, &plan, &applied, why, sizeof why), 0);
	assert_ptr_equal(plan.group[0].pmu, by_name("isa207-arch"));
	/* A table no backend owns has no backend to program it: nothing is guessed. */
	static const struct event_desc stray[2];
	assert_int_equal(catalogue_init(&cat, stray, 2), 0);
	assert_null(cat.native);
	assert_ptr_equal(cat.arch, by_name("isa207-arch"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selection),
		cmocka_unit_test(test_conformance),
		cmocka_unit_test(test_in_use),
		cmocka_unit_test(test_unknown_processor),
		cmocka_unit_test(test_software_group_backend),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* kovctl top's rankings (gui/client/ranking.c): one key per metric, the formulas' keys of
 * metrics.c with the events their formulas name, the older spellings accepted as aliases,
 * refusals where an event cannot sample, and ipc ranked by IPC, not by cycle samples. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "client/ranking.h"

static char none[] = "", not_here[] = "970 event selects counted nothing in the boot probe";
static char desc[] = "an event";
#define HW(nm, fl, why) { PROTO_SRC_HW, fl, 0, nm, desc, why }
#define SW(nm) { PROTO_SRC_SW, PROTO_EV_COUNTS_HERE | PROTO_EV_SAMPLES_HERE, 0, nm, desc, none }
#define ALL (PROTO_EV_COUNTS_HERE | PROTO_EV_SAMPLES_HERE)
static struct kov_event g5[] = {   /* a real 970: everything samples */
	HW("PM_CYC", ALL, none), HW("PM_INST_CMPL", ALL, none), SW("SW_HPT_MISS"), SW("SW_SLB_MISS"),
	HW("PM_BR_ISSUED", ALL, none), HW("PM_BR_MPRED_CR", ALL, none), HW("PM_BR_MPRED_TA", ALL, none),
	HW("PM_STCX_PASS", ALL, none), HW("PM_STCX_FAIL", ALL, none), HW("PM_DTLB_MISS", ALL, none),
};
static struct kov_event qemu[] = {   /* QEMU: the architected events and software ones */
	HW("PM_CYC", ALL, none), HW("PM_INST_CMPL", ALL, none), SW("SW_HPT_MISS"), SW("SW_SLB_MISS"),
	HW("PM_BR_ISSUED", 0, not_here), HW("PM_BR_MPRED_CR", 0, not_here),
	HW("PM_BR_MPRED_TA", 0, not_here), HW("PM_STCX_PASS", 0, not_here),
	HW("PM_STCX_FAIL", 0, not_here), HW("PM_DTLB_MISS", 0, not_here),
};
#define N_G5 (sizeof g5 / sizeof g5[0])
#define N_QEMU (sizeof qemu / sizeof qemu[0])

static bool is_one_of(const char *name, const char *const *list, int n)
{
	for (int k = 0; k < n; k++)
		if (list[k] && !strcmp(list[k], name))
			return true;
	return false;
}

/* Every key that rests on a formula carries the formula's key, and samples the formula's
 * events: its numerator's (a ratio: numerator's then denominator's, exactly). */
static void test_keys_rank_by_their_formula(void **state)
{
	(void)state;
	int with_formula = 0;
	for (size_t i = 0; kov_rank_at(i); i++) {
		const struct kov_rank_metric *m = kov_rank_at(i);
		assert_ptr_equal(kov_rank_find(m->key), m);
		if (m->formula < 0)
			continue;
		with_formula++;
		const struct kov_metric_def *d = kov_metric_def((enum kov_metric)m->formula);
		assert_string_equal(m->key, d->key);
		struct kov_rank_plan p;
		char why[256];
		/* SW_HPT_MISS and SW_SLB_MISS sample on a target whose PM_DTLB_MISS does not. */
		assert_int_equal(kov_rank_plan(m->key, m->prefer ? qemu : g5, m->prefer ? N_QEMU : N_G5,
					       &p, why, sizeof why), KOV_RANK_OK);
		assert_ptr_equal(p.m, m);
		assert_string_equal(p.key, d->key);
		for (int k = 0; k < p.n_num; k++)
			assert_true(is_one_of(p.events[k], d->num, KOV_METRIC_EVENTS));
		if (m->kind != KOV_RANK_RATIO) {
			assert_int_equal(p.n_num, p.n);
			continue;
		}
		int k = 0;
		for (int j = 0; j < KOV_METRIC_EVENTS && d->num[j]; j++, k++)
			assert_string_equal(p.events[k], d->num[j]);
		assert_int_equal(p.n_num, k);
		for (int j = 0; j < KOV_METRIC_EVENTS && d->den[j]; j++, k++)
			assert_string_equal(p.events[k], d->den[j]);
		assert_int_equal(p.n, k);
	}
	assert_int_equal(with_formula, KOV_METRICS);   /* ipc, mmu, branchmiss, stcx */
	assert_int_equal(kov_rank_find("ipc")->kind, KOV_RANK_RATIO);
}

/* The older spellings still work and name the one key. */
static void test_aliases(void **state)
{
	(void)state;
	assert_ptr_equal(kov_rank_find("lockacq"), kov_rank_find("stcx"));
	assert_ptr_equal(kov_rank_find("tlbmiss"), kov_rank_find("mmu"));
	struct kov_rank_plan p;
	char why[256];
	assert_int_equal(kov_rank_plan("tlbmiss", g5, N_G5, &p, why, sizeof why), KOV_RANK_OK);
	assert_string_equal(p.key, "mmu");
	assert_int_equal(kov_rank_plan("lockacq", qemu, N_QEMU, &p, why, sizeof why), KOV_RANK_CANNOT);
	assert_non_null(strstr(why, "per-object stcx needs samples of PM_STCX_PASS, and here "
				    "PM_STCX_PASS: 970 event selects"));
	for (size_t i = 0; kov_rank_at(i); i++)   /* no alias is itself a key */
		assert_true(!kov_rank_at(i)->alias || kov_rank_find(kov_rank_at(i)->alias) == kov_rank_at(i));
}

static void test_plans(void **state)
{
	(void)state;
	struct kov_rank_plan p;
	char why[256];
	/* mmu: the hardware TLB miss event where it samples, else the software misses at 1. */
	assert_int_equal(kov_rank_plan("mmu", g5, N_G5, &p, why, sizeof why), KOV_RANK_OK);
	assert_int_equal(p.n, 1);
	assert_string_equal(p.events[0], "PM_DTLB_MISS");
	assert_int_equal(p.threshold[0], 100000);
	assert_int_equal(kov_rank_plan("mmu", qemu, N_QEMU, &p, why, sizeof why), KOV_RANK_OK);
	assert_int_equal(p.n, 2);
	assert_string_equal(p.events[1], "SW_SLB_MISS");
	assert_int_equal(p.threshold[1], 1);
	assert_int_equal(p.index[1], 3);
	/* ipc samples both events at one threshold; it counts on a target where both sample. */
	assert_int_equal(kov_rank_plan("ipc", qemu, N_QEMU, &p, why, sizeof why), KOV_RANK_OK);
	assert_int_equal(p.n, 2);
	assert_int_equal(kov_rank_side(&p, 1), 0);    /* PM_INST_CMPL: numerator */
	assert_int_equal(kov_rank_side(&p, 0), 1);    /* PM_CYC: denominator */
	assert_int_equal(kov_rank_side(&p, 2), -1);
	assert_int_equal(p.threshold[0], p.threshold[1]);
	/* An event name: its samples, software events at 10. */
	assert_int_equal(kov_rank_plan("pm_inst_cmpl", g5, N_G5, &p, why, sizeof why), KOV_RANK_OK);
	assert_null(p.m);
	assert_string_equal(p.events[0], "PM_INST_CMPL");
	assert_int_equal(p.threshold[0], 100003);
	assert_int_equal(kov_rank_plan("SW_HPT_MISS", g5, N_G5, &p, why, sizeof why), KOV_RANK_OK);
	assert_int_equal(p.threshold[0], 10);
	assert_int_equal(kov_rank_plan("no_such_event", g5, N_G5, &p, why, sizeof why), KOV_RANK_UNKNOWN);
	assert_int_equal(kov_rank_plan("branchmiss", qemu, N_QEMU, &p, why, sizeof why), KOV_RANK_CANNOT);
	assert_non_null(strstr(why, "per-object branchmiss needs samples of PM_BR_MPRED_CR"));
	/* Lock waits sample nothing. */
	assert_int_equal(kov_rank_plan("spinlock", qemu, N_QEMU, &p, why, sizeof why), KOV_RANK_OK);
	assert_int_equal(p.n, 0);
	assert_int_equal(p.m->lock_kind, PROTO_LOCK_SPIN);
	assert_int_equal(kov_rank_find("lockwait")->lock_kind, PROTO_LOCK_SLEEP);
}

/* ipc ranks objects by instructions / cycles: object 0 has the most cycle samples and the
 * lowest IPC, object 1 the fewest cycles and the highest, object 2 no cycles (no value). */
static void test_ipc_ranks_by_ipc(void **state)
{
	(void)state;
	struct kov_rank_plan p;
	char why[256];
	assert_int_equal(kov_rank_plan("ipc", g5, N_G5, &p, why, sizeof why), KOV_RANK_OK);
	struct kov_top_row rows[] = {
		{ 0, 1, { 100000, 400000 } },   /* IPC 0.25 */
		{ 1, 1, { 300000, 100000 } },   /* IPC 3 */
		{ 2, 1, { 500000, 0 } },        /* no value */
		{ 3, 1, { 200000, 200000 } },   /* IPC 1 */
	};
	kov_rank_sort(&p, rows, 4);
	assert_int_equal(rows[0].item, 1);
	assert_int_equal(rows[1].item, 3);
	assert_int_equal(rows[2].item, 0);
	assert_int_equal(rows[3].item, 2);
	double v;
	assert_true(kov_rank_ratio(&p, rows[0].v[0], rows[0].v[1], &v));
	assert_true(fabs(v - 3.0) < 1e-12);
	assert_true(kov_rank_ratio(&p, rows[2].v[0], rows[2].v[1], &v));
	assert_true(fabs(v - 0.25) < 1e-12);
	assert_false(kov_rank_ratio(&p, rows[3].v[0], rows[3].v[1], &v));
	/* A sample count ranking of the same rows puts the most samples first. */
	assert_int_equal(kov_rank_plan("PM_CYC", g5, N_G5, &p, why, sizeof why), KOV_RANK_OK);
	kov_rank_sort(&p, rows, 4);
	assert_int_equal(rows[0].item, 2);
	assert_int_equal(rows[1].item, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys_rank_by_their_formula),
		cmocka_unit_test(test_aliases),
		cmocka_unit_test(test_plans),
		cmocka_unit_test(test_ipc_ranks_by_ipc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

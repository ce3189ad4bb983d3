/* The derived metrics (gui/client/metrics.c) on synthetic interval streams: real
 * INTERVAL_COUNTS and LOCK_CONTENTION frames, encoded and parsed as they come off the wire,
 * with groups multiplexed the way the KM reports them. QEMU cannot count the branch and
 * store-conditional events, so these are the only place their figures are checked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <string.h>
#include "client/metrics.h"

enum { CYC, INST, HPT, SLB, BR, MPRED_CR, MPRED_TA, PASS, FAIL, N_EV };
static char none[] = "", not_here[] = "970 event selects counted nothing in the boot probe";
static char cyc_plain[] = "Processor cycles";
#define EV(nm, fl, why) { PROTO_SRC_HW, fl, 0, nm, cyc_plain, why }
static struct kov_event g5[N_EV] = {   /* a real 970: everything counts */
	EV("PM_CYC", PROTO_EV_COUNTS_HERE, none), EV("PM_INST_CMPL", PROTO_EV_COUNTS_HERE, none),
	EV("SW_HPT_MISS", PROTO_EV_COUNTS_HERE, none), EV("SW_SLB_MISS", PROTO_EV_COUNTS_HERE, none),
	EV("PM_BR_ISSUED", PROTO_EV_COUNTS_HERE, none), EV("PM_BR_MPRED_CR", PROTO_EV_COUNTS_HERE, none),
	EV("PM_BR_MPRED_TA", PROTO_EV_COUNTS_HERE, none), EV("PM_STCX_PASS", PROTO_EV_COUNTS_HERE, none),
	EV("PM_STCX_FAIL", PROTO_EV_COUNTS_HERE, none),
};
static struct kov_event qemu[N_EV] = {   /* QEMU: the architected events and software ones */
	EV("PM_CYC", PROTO_EV_COUNTS_HERE, none), EV("PM_INST_CMPL", PROTO_EV_COUNTS_HERE, none),
	EV("SW_HPT_MISS", PROTO_EV_COUNTS_HERE, none), EV("SW_SLB_MISS", PROTO_EV_COUNTS_HERE, none),
	EV("PM_BR_ISSUED", 0, not_here), EV("PM_BR_MPRED_CR", 0, not_here),
	EV("PM_BR_MPRED_TA", 0, not_here), EV("PM_STCX_PASS", 0, not_here),
	EV("PM_STCX_FAIL", 0, not_here),
};

static struct kov_counts counts;
static struct kov_metric_set set;

/* One interval's records (cpu, group, event, raw, enabled, running) through the wire. */
static void add_interval(const struct proto_count *r, size_t n)
{
	static uint8_t buf[PROTO_MAX_FRAME];
	struct proto_builder b;
	struct proto_counts_head h = { 1, 1000, 2000 }, back;
	proto_begin_interval_counts(&b, buf, sizeof buf, 0, 0, &h);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(proto_add_count(&b, &r[i]), 0);
	int len = proto_finish(&b);
	assert_true(len > 0);
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(buf, (size_t)len, &f), len);
	assert_true(kov_counts_add_frame(&counts, &f, &back));
	assert_int_equal(back.config_id, 1);
}

static int fresh(void **state)
{
	(void)state;
	kov_counts_clear(&counts);
	kov_metric_set_init(&set, g5, N_EV);
	return 0;
}

static void test_find_event(void **state)
{
	(void)state;
	assert_int_equal(kov_find_event(g5, N_EV, "PM_BR_ISSUED"), BR);
	assert_int_equal(kov_find_event(g5, N_EV, "pm_stcx_fail"), FAIL);
	assert_int_equal(kov_find_event(g5, N_EV, "PM_STCX"), -1);
	assert_int_equal(kov_find_event(NULL, 0, "PM_CYC"), -1);
}

/* The case the viewer got wrong: the software MMU events in a group on the PMU 40% of the
 * time, instructions in both groups. Per 1000 instructions of the same time it is 0.15; the
 * misses over the instructions of both groups would say 0.06. */
static void test_mmu_pairs_the_same_group(void **state)
{
	(void)state;
	double mmu_all = 0, inst_all = 0;
	for (int iv = 0; iv < 3; iv++) {
		struct proto_count r[10];
		size_t n = 0;
		for (uint16_t cpu = 0; cpu < 2; cpu++) {
			r[n++] = (struct proto_count){ cpu, 0, INST, 400000, 1000, 400 };
			r[n++] = (struct proto_count){ cpu, 0, HPT, 40, 1000, 400 };
			r[n++] = (struct proto_count){ cpu, 0, SLB, 20, 1000, 400 };
			r[n++] = (struct proto_count){ cpu, 1, INST, 600000, 1000, 600 };
			r[n++] = (struct proto_count){ cpu, 1, CYC, 1200000, 1000, 600 };
			mmu_all += 60;
			inst_all += 1000000;
		}
		add_interval(r, n);
	}
	struct kov_ratio m = kov_metric_compute(&set, KOV_METRIC_MMU, &counts);
	assert_int_equal(m.how, KOV_SAME_GROUP);
	assert_true(fabs(m.value - 0.15) < 1e-9);
	double wrong = 1000.0 * mmu_all / inst_all;
	assert_true(fabs(wrong - 0.06) < 1e-9);
	assert_true(fabs(m.value - wrong) > 0.05);
	/* IPC: only group 1 has both. */
	struct kov_ratio ipc = kov_metric_compute(&set, KOV_METRIC_IPC, &counts);
	assert_int_equal(ipc.how, KOV_SAME_GROUP);
	assert_true(fabs(ipc.value - 0.5) < 1e-9);
	assert_true(fabs(ipc.num - 3 * 2 * 600000.0) < 1e-6);
}

/* No group holds both: each is scaled by its own enabled/running. Instructions are in two
 * groups (as the KM adds them): pooled, not summed per group, or they would count twice. */
static void test_mmu_scaled_across_groups(void **state)
{
	(void)state;
	/* Over the interval: 1,000,000 instructions and 100 misses, 0.1 per 1000. */
	const struct proto_count r[] = {
		{ 0, 0, INST, 300000, 1000, 300 },
		{ 0, 2, INST, 200000, 1000, 200 },
		{ 0, 1, HPT, 20, 1000, 250 },
		{ 0, 1, SLB, 5, 1000, 250 },
	};
	add_interval(r, 4);
	struct kov_ratio m = kov_metric_compute(&set, KOV_METRIC_MMU, &counts);
	assert_int_equal(m.how, KOV_SCALED);
	assert_true(fabs(m.den - 1e6) < 1e-6);
	assert_true(fabs(m.num - 100) < 1e-9);
	assert_true(fabs(m.value - 0.1) < 1e-9);
	/* The raw misses over the raw instructions would say 0.05. */
	assert_true(fabs(1000.0 * 25 / 500000 - m.value) > 0.04);
}

/* Branch mispredictions: both kinds over the branches of the groups that counted all three;
 * a group with only one of them does not pair. */
static void test_branch_mispredictions(void **state)
{
	(void)state;
	const struct proto_count r[] = {
		{ 0, 0, BR, 10000, 1000, 500 }, { 0, 0, MPRED_CR, 300, 1000, 500 },
		{ 0, 0, MPRED_TA, 200, 1000, 500 }, { 0, 0, INST, 90000, 1000, 500 },
		{ 0, 1, MPRED_CR, 9999, 1000, 250 },
		{ 0, 2, BR, 30000, 1000, 250 }, { 0, 2, MPRED_CR, 900, 1000, 250 },
		{ 0, 2, MPRED_TA, 600, 1000, 250 },
	};
	add_interval(r, 8);
	struct kov_ratio b = kov_metric_compute(&set, KOV_METRIC_BRANCH, &counts);
	assert_int_equal(b.how, KOV_SAME_GROUP);
	assert_true(fabs(b.value - 5.0) < 1e-9);   /* (500 + 1500) / 40000 */
	assert_true(fabs(b.den - 40000) < 1e-9);
	/* Without the second half of the numerator counted, no figure: half of it would lie. */
	kov_counts_clear(&counts);
	const struct proto_count half[] = { { 0, 0, BR, 10000, 1000, 1000 }, { 0, 0, MPRED_CR, 300, 1000, 1000 } };
	add_interval(half, 2);
	assert_int_equal(kov_metric_compute(&set, KOV_METRIC_BRANCH, &counts).how, KOV_NOT_COUNTED);
}

static void test_stcx_success(void **state)
{
	(void)state;
	const struct proto_count together[] = {
		{ 0, 0, PASS, 900, 1000, 1000 }, { 0, 0, FAIL, 100, 1000, 1000 },
		{ 1, 0, PASS, 1800, 1000, 1000 }, { 1, 0, FAIL, 200, 1000, 1000 },
	};
	add_interval(together, 4);
	struct kov_ratio s = kov_metric_compute(&set, KOV_METRIC_STCX, &counts);
	assert_int_equal(s.how, KOV_SAME_GROUP);
	assert_true(fabs(s.value - 90.0) < 1e-9);
	assert_true(fabs(s.den - 3000) < 1e-9);
	/* In different groups, a quarter and three quarters of the time: scaled, still 90%. */
	kov_counts_clear(&counts);
	const struct proto_count apart[] = { { 0, 0, PASS, 225, 1000, 250 }, { 0, 1, FAIL, 75, 1000, 750 } };
	add_interval(apart, 2);
	s = kov_metric_compute(&set, KOV_METRIC_STCX, &counts);
	assert_int_equal(s.how, KOV_SCALED);
	assert_true(fabs(s.value - 90.0) < 1e-9);
	/* Raw over raw would say 75%. */
	assert_true(fabs(100.0 * 225 / 300 - s.value) > 10);
}

/* An event configured but never on the PMU (running 0), or absent: no value, never 0. */
static void test_not_counted(void **state)
{
	(void)state;
	const struct proto_count r[] = { { 0, 0, INST, 1000, 1000, 1000 }, { 0, 1, CYC, 0, 1000, 0 } };
	add_interval(r, 2);
	struct kov_ratio i = kov_metric_compute(&set, KOV_METRIC_IPC, &counts);
	assert_int_equal(i.how, KOV_NOT_COUNTED);
	assert_true(i.value == 0);
	assert_string_equal(kov_pairing_name(i.how), "not counted");
	assert_int_equal(kov_metric_compute(&set, KOV_METRIC_MMU, &counts).how, KOV_NOT_COUNTED);
	/* A catalogue without the events at all. */
	struct kov_metric_set empty;
	kov_metric_set_init(&empty, g5, 2);
	assert_int_equal(kov_metric_compute(&empty, KOV_METRIC_STCX, &counts).how, KOV_NOT_COUNTED);
}

static void test_countable(void **state)
{
	(void)state;
	char why[200];
	struct kov_metric_set q;
	kov_metric_set_init(&q, qemu, N_EV);
	assert_true(kov_metric_countable(&q, KOV_METRIC_IPC, qemu, N_EV, why, sizeof why));
	assert_true(kov_metric_countable(&q, KOV_METRIC_MMU, qemu, N_EV, why, sizeof why));
	assert_false(kov_metric_countable(&q, KOV_METRIC_BRANCH, qemu, N_EV, why, sizeof why));
	assert_string_equal(why, "PM_BR_MPRED_CR: 970 event selects counted nothing in the boot probe");
	assert_false(kov_metric_countable(&q, KOV_METRIC_STCX, qemu, N_EV, why, sizeof why));
	assert_non_null(strstr(why, "PM_STCX_PASS"));
	assert_true(kov_metric_countable(&set, KOV_METRIC_BRANCH, g5, N_EV, why, sizeof why));
	kov_metric_set_init(&q, qemu, 3);
	assert_false(kov_metric_countable(&q, KOV_METRIC_MMU, qemu, 3, why, sizeof why));
	assert_string_equal(why, "SW_SLB_MISS is not in its catalogue");
	/* The labels say what PM_STCX counts. */
	assert_non_null(strstr(kov_metric_def(KOV_METRIC_STCX)->method, "every other atomic update"));
}

static void test_cycles_emulated(void **state)
{
	(void)state;
	struct kov_target d = { 0 };
	strcpy(d.model, "IBM pSeries (emulated by qemu)");
	strcpy(d.pmu, "ppc970");
	assert_true(kov_cycles_emulated(&d, g5, N_EV));
	strcpy(d.model, "PowerMac7,3");
	assert_false(kov_cycles_emulated(&d, g5, N_EV));
	strcpy(d.pmu, "isa207-arch");
	assert_true(kov_cycles_emulated(&d, g5, N_EV));
	strcpy(d.pmu, "ppc970");
	static char said[] = "Processor cycles (emulated: QEMU's virtual time)";
	struct kov_event cat[2] = { g5[INST], g5[CYC] };
	cat[1].description = said;
	assert_true(kov_cycles_emulated(&d, cat, 2));
	assert_false(kov_cycles_emulated(NULL, g5, N_EV));
	assert_non_null(strstr(kov_ipc_label(true), "emulated cycle"));
	assert_string_equal(kov_ipc_label(false), "instructions per cycle");
	assert_string_equal(kov_metric_title(KOV_METRIC_IPC, true), "Instructions per emulated cycle");
	assert_string_equal(kov_metric_title(KOV_METRIC_IPC, false), "Instructions per cycle");
	assert_string_equal(kov_metric_title(KOV_METRIC_MMU, true), "MMU misses");
}

/* ---- lock statistics ------------------------------------------------------------------- */

static uint8_t lock_buf[4][4096];
static struct proto_frame lock_frame(int slot, uint16_t type, uint64_t start, uint64_t end,
				     const struct proto_lock *l, size_t n)
{
	struct proto_builder b;
	struct proto_interval h = { start, end };
	if (type == PROTO_LOCK_CONTENTION)
		proto_begin_lock_contention(&b, lock_buf[slot], sizeof lock_buf[slot], 0, 0, &h);
	else
		proto_begin_lock_stats(&b, lock_buf[slot], sizeof lock_buf[slot], 0, 0, &h);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(type == PROTO_LOCK_CONTENTION ? proto_add_lock_contention(&b, &l[i]) :
				 proto_add_lock(&b, &l[i]), 0);
	int len = proto_finish(&b);
	assert_true(len > 0);
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(lock_buf[slot], (size_t)len, &f), len);
	return f;
}

static struct proto_lock lock(uint64_t addr, uint16_t kind, uint16_t flags, uint64_t acq,
			      uint64_t cont, uint64_t wait)
{
	struct proto_lock l;
	memset(&l, 0, sizeof l);
	l.lock = addr;
	l.pid = 7;
	l.kind = kind;
	l.flags = flags;
	l.acquisitions = acq;
	l.contentions = cont;
	l.wait_total = wait;
	l.wait_max = l.wait_min = cont ? wait / cont : 0;
	l.qlen_samples = cont;
	return l;
}

/* One interval in two frames, then an empty report of the next: the wait of the first is
 * the sum over both frames; shares of 4 CPUs' time over 1000 ticks. */
static void test_lock_meter_intervals(void **state)
{
	(void)state;
	struct kov_lock_meter m = { 0 };
	struct kov_lock_interval iv;
	struct proto_lock a[] = { lock(0x100, PROTO_LOCK_SPIN, 0, 4, 4, 100),
				  lock(0x200, PROTO_LOCK_SLEEP, 0, 1, 1, 50) };
	struct proto_lock b[] = { lock(0x300, PROTO_LOCK_SPIN, 0, 3, 3, 300) };
	struct proto_frame f1 = lock_frame(0, PROTO_LOCK_CONTENTION, 5000, 6000, a, 2);
	struct proto_frame f2 = lock_frame(1, PROTO_LOCK_CONTENTION, 5000, 6000, b, 1);
	struct proto_frame f3 = lock_frame(2, PROTO_LOCK_CONTENTION, 6000, 6500, NULL, 0);
	assert_false(kov_lock_meter_add(&m, &f1, &iv));
	assert_false(kov_lock_meter_add(&m, &f2, &iv));
	assert_true(kov_lock_meter_add(&m, &f3, &iv));
	assert_int_equal(iv.start, 5000);
	assert_int_equal(iv.wait[PROTO_LOCK_SPIN], 400);
	assert_int_equal(iv.wait[PROTO_LOCK_SLEEP], 50);
	assert_int_equal(iv.contentions[PROTO_LOCK_SPIN], 7);
	assert_int_equal(iv.records, 3);
	assert_true(fabs(kov_lock_wait_share(&iv, PROTO_LOCK_SPIN, 4) - 10.0) < 1e-9);
	assert_true(fabs(kov_lock_wait_ms_per_s(&iv, PROTO_LOCK_SPIN) - 400.0) < 1e-9);
	assert_true(fabs(kov_lock_wait_share(&iv, PROTO_LOCK_SLEEP, 1) - 5.0) < 1e-9);
	/* The empty interval: no contention is a zero, not a missing point. */
	assert_true(kov_lock_meter_flush(&m, &iv));
	assert_int_equal(iv.start, 6000);
	assert_true(kov_lock_wait_share(&iv, PROTO_LOCK_SPIN, 4) == 0);
	assert_false(kov_lock_meter_flush(&m, &iv));
	/* A degenerate interval has no share. */
	iv.end = iv.start;
	assert_true(kov_lock_wait_share(&iv, PROTO_LOCK_SPIN, 4) < 0);
	assert_true(kov_lock_wait_ms_per_s(&iv, PROTO_LOCK_SPIN) < 0);
	/* Not a lock frame: ignored. */
	struct proto_frame other = f1;
	other.type = PROTO_INTERVAL_COUNTS;
	assert_false(kov_lock_meter_add(&m, &other, &iv));
	assert_false(kov_lock_meter_flush(&m, &iv));
}

/* First-try acquisitions need every acquisition counted: records without PROTO_LOCK_FULL
 * count only the contended ones and do not enter. */
static void test_first_try_from_full_counting(void **state)
{
	(void)state;
	struct kov_lock_meter m = { 0 };
	struct kov_lock_interval iv;
	double pct;
	struct proto_lock partial[] = { lock(0x100, PROTO_LOCK_SPIN, 0, 5, 5, 50) };
	struct proto_frame f = lock_frame(0, PROTO_LOCK_CONTENTION, 0, 100, partial, 1);
	kov_lock_meter_add(&m, &f, &iv);
	assert_true(kov_lock_meter_flush(&m, &iv));
	assert_false(kov_lock_first_try(&iv, &pct));
	struct proto_lock full[] = { lock(0x100, PROTO_LOCK_SPIN, PROTO_LOCK_FULL, 100, 10, 500),
				     lock(0x200, PROTO_LOCK_SLEEP, PROTO_LOCK_FULL, 100, 30, 900),
				     lock(0x300, PROTO_LOCK_SPIN, 0, 7, 7, 70) };
	f = lock_frame(1, PROTO_LOCK_CONTENTION, 100, 200, full, 3);
	kov_lock_meter_add(&m, &f, &iv);
	assert_true(kov_lock_meter_flush(&m, &iv));
	assert_true(kov_lock_first_try(&iv, &pct));
	assert_true(fabs(pct - 80.0) < 1e-9);   /* (200 - 40) / 200 */
	/* A 1.1 target's LOCK_STATS frames carry no flags: their wait counts, their
	 * acquisitions cannot be told complete and stay out. */
	struct proto_lock old[] = { lock(0x400, PROTO_LOCK_SLEEP, PROTO_LOCK_FULL, 10, 1, 20) };
	f = lock_frame(2, PROTO_LOCK_STATS, 200, 300, old, 1);
	kov_lock_meter_add(&m, &f, &iv);
	assert_true(kov_lock_meter_flush(&m, &iv));
	assert_int_equal(iv.wait[PROTO_LOCK_SLEEP], 20);
	assert_false(kov_lock_first_try(&iv, &pct));
}

static void test_shares_and_spin_code(void **state)
{
	(void)state;
	assert_true(fabs(kov_share(1, 4) - 25.0) < 1e-12);
	assert_true(kov_share(5, 0) == 0);
	assert_true(fabs(kov_wait_share(512, 1024, 4) - 12.5) < 1e-12);
	assert_true(kov_wait_share(0, 1024, 4) == 0);     /* no contention: a 0 */
	assert_true(kov_wait_share(512, 0, 4) < 0);       /* an empty span: no value */
	assert_true(kov_wait_share(512, 1024, 0) < 0);
	assert_true(fabs(kov_ticks_to_s(1536000000, 512000000) - 3.0) < 1e-12);
	assert_true(kov_ticks_to_s(1536000000, 0) == 0);
	assert_true(kov_is_spin_wait("spin_lock_contended", 19));
	assert_true(kov_is_spin_wait(".spin_lock_contended", 20));
	assert_true(kov_is_spin_wait("spin_lock_contended+junk", 19));
	assert_false(kov_is_spin_wait("spin_lock", 9));
	assert_false(kov_is_spin_wait("spin_trylock", 12));
	assert_false(kov_is_spin_wait("spin_lock_contended2", 20));
	assert_false(kov_is_spin_wait("", 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_find_event, fresh),
		cmocka_unit_test_setup(test_mmu_pairs_the_same_group, fresh),
		cmocka_unit_test_setup(test_mmu_scaled_across_groups, fresh),
		cmocka_unit_test_setup(test_branch_mispredictions, fresh),
		cmocka_unit_test_setup(test_stcx_success, fresh),
		cmocka_unit_test_setup(test_not_counted, fresh),
		cmocka_unit_test_setup(test_countable, fresh),
		cmocka_unit_test_setup(test_cycles_emulated, fresh),
		cmocka_unit_test_setup(test_lock_meter_intervals, fresh),
		cmocka_unit_test_setup(test_first_try_from_full_counting, fresh),
		cmocka_unit_test_setup(test_shares_and_spin_code, fresh),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Names of sampled objects after they are gone, and the folding of gone objects of exited
 * processes (gui/client/objname.c), on scans built from real SCAN_* frames: pagestorm's
 * children come and go between two scans. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include "client/objname.h"
#include "scan_fixture.h"

#define K KOV_KERNEL_COID_BASE

static const struct proto_process first_procs[] = {
	{ 0, 0, 0, PROTO_PS_RUNNING, PROTO_STR("kernel") },
	{ 2, 0, 1, PROTO_PS_RUNNING, PROTO_STR("pagestorm") },
	{ 57, 2, 1, PROTO_PS_RUNNING, PROTO_STR("pagestorm") },
	{ 58, 2, 1, PROTO_PS_RUNNING, PROTO_STR("pagestorm") },
};

/* Scan a: the PM (the kernel's), pid 57's Process and two Regions, pid 58's Region, a Region
 * of pid 2 and a user object of pid 2. Scan b, later: pids 57 and 58 have exited and pid 2
 * lost its Region. */
static struct kov_scan a, b;

static int scans(void **state)
{
	(void)state;
	const struct proto_object objs[] = {
		fx_obj(0, K + 0x20, 0, "PM", NULL, 0),
		fx_obj(2, K + 0x110, 3, "Region", NULL, 0),
		fx_obj(2, 0xD0000020ull, 1, "TreeNode", NULL, 0),
		fx_obj(57, K + 0x500, 34, "Process", NULL, 0),
		fx_obj(57, K + 0x540, 34, "Region", NULL, 0),
		fx_obj(57, K + 0x560, 34, "Region", NULL, 0),
		fx_obj(58, K + 0x660, 9, "Region", NULL, 0),
	};
	fx_scan(&a, 100, first_procs, 4, objs, 7);
	const struct proto_object later[] = { objs[0], objs[2] };
	fx_scan(&b, 200, first_procs, 2, later, 2);
	return 0;
}

static int free_scans(void **state)
{
	(void)state;
	kov_scan_free(&a);
	kov_scan_free(&b);
	return 0;
}

static void test_names_survive_the_object(void **state)
{
	(void)state;
	struct kov_objname pm = { 0 }, reg = { 0 }, own = { 0 }, user = { 0 }, never = { 0 };
	/* Samples name kernel objects under pid 0, whatever process lists them. */
	kov_objname_update(&pm, &a, 0, K + 0x20, 0);
	kov_objname_update(&reg, &a, 0, K + 0x540, 34);
	kov_objname_update(&own, &a, 0, K + 0x110, 3);
	kov_objname_update(&user, &a, 2, 0xD0000020ull, 1);
	kov_objname_update(&never, &a, 0, K + 0x900, 1);
	assert_string_equal(reg.cls, "Region");
	assert_string_equal(reg.proc, "pagestorm");
	assert_int_equal(reg.proc_pid, 57);
	assert_false(reg.gone);
	assert_string_equal(pm.proc, "kernel");
	assert_string_equal(never.cls, "");
	kov_objname_update(&pm, &b, 0, K + 0x20, 0);
	kov_objname_update(&reg, &b, 0, K + 0x540, 34);
	kov_objname_update(&own, &b, 0, K + 0x110, 3);
	kov_objname_update(&user, &b, 2, 0xD0000020ull, 1);
	kov_objname_update(&never, &b, 0, K + 0x900, 1);
	/* Gone: class and process as last seen; whether the process went too. */
	assert_true(reg.gone && reg.proc_gone);
	assert_string_equal(reg.cls, "Region");
	assert_int_equal(reg.proc_pid, 57);
	assert_true(own.gone && !own.proc_gone);
	assert_false(pm.gone);
	assert_false(user.gone);
	assert_string_equal(user.cls, "TreeNode");
	assert_string_equal(never.cls, "");
	assert_false(never.gone);
}

static void test_gone_objects_fold_by_class_and_program(void **state)
{
	(void)state;
	struct { uint32_t pid; uint64_t coid; uint32_t gen; uint64_t hits, samples; } obs[] = {
		{ 0, K + 0x20, 0, 50, 900 },       /* PM, live */
		{ 0, K + 0x540, 34, 3, 10 },       /* Region of 57, exited */
		{ 0, K + 0x560, 34, 2, 8 },        /* Region of 57, exited */
		{ 0, K + 0x660, 9, 4, 4 },         /* Region of 58, exited */
		{ 0, K + 0x500, 34, 1, 6 },        /* Process of 57, exited */
		{ 0, K + 0x110, 3, 7, 7 },         /* Region of 2, gone, pid 2 lives */
		{ 0, K + 0x900, 1, 1, 1 },         /* never in a scan */
		{ 0, K + 0x910, 1, 2, 2 },         /* never in a scan */
		{ 9, 0xD0000040ull, 1, 1, 1 },     /* never in a scan, pid 9's own space */
	};
	enum { N = sizeof obs / sizeof obs[0] };
	struct kov_objname names[N];
	struct kov_top_item items[N];
	memset(names, 0, sizeof names);
	for (size_t i = 0; i < N; i++) {
		kov_objname_update(&names[i], &a, obs[i].pid, obs[i].coid, obs[i].gen);
		kov_objname_update(&names[i], &b, obs[i].pid, obs[i].coid, obs[i].gen);
		items[i] = (struct kov_top_item){ &names[i], obs[i].pid, { obs[i].hits, obs[i].samples } };
	}
	struct kov_top_row rows[N];
	size_t n = kov_top_fold(items, N, rows);
	assert_int_equal(n, 6);
	kov_top_sort(rows, n);
	char cls[128], proc[128];
	const char *want[][2] = {
		{ "PM", "kernel" },
		{ "Region (gone, 3 objects)", "pagestorm (exited)" },
		{ "Region (gone)", "pagestorm pid 2" },
		{ "(gone before a scan, 2 objects)", "kernel" },
		{ "Process (gone)", "pagestorm (exited)" },
		{ "(gone before a scan)", "pid 9" },
	};
	uint64_t hits[] = { 50, 9, 7, 3, 1, 1 }, objects[] = { 1, 3, 1, 2, 1, 1 };
	for (size_t r = 0; r < n; r++) {
		kov_top_names(items, &rows[r], true, cls, sizeof cls, proc, sizeof proc);
		assert_string_equal(cls, want[r][0]);
		assert_string_equal(proc, want[r][1]);
		assert_int_equal(rows[r].v[0], hits[r]);
		assert_int_equal(rows[r].objects, objects[r]);
	}
	assert_int_equal(rows[1].v[1], 22);   /* samples summed too */
}

static void test_live_object_names_its_process(void **state)
{
	(void)state;
	struct kov_objname nm = { 0 };
	kov_objname_update(&nm, &a, 0, K + 0x540, 34);
	struct kov_top_item it = { &nm, 0, { 1, 1 } };
	struct kov_top_row r;
	assert_int_equal(kov_top_fold(&it, 1, &r), 1);
	char cls[128], proc[128];
	kov_top_names(&it, &r, true, cls, sizeof cls, proc, sizeof proc);
	assert_string_equal(cls, "Region");
	assert_string_equal(proc, "pagestorm pid 57");
	kov_top_names(&it, &r, false, cls, sizeof cls, proc, sizeof proc);
	assert_string_equal(proc, "pagestorm");
	assert_int_equal(kov_scan_process(&a, 57)->ppid, 2);
	assert_null(kov_scan_process(&b, 57));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_names_survive_the_object),
		cmocka_unit_test(test_gone_objects_fold_by_class_and_program),
		cmocka_unit_test(test_live_object_names_its_process),
	};
	return cmocka_run_group_tests(tests, scans, free_scans);
}

/* mem_limit_cut: the 2 GiB cut mac99 applies to the device tree's memory (a G5 with more than
 * 2 GiB, which QEMU's mac99 cannot be, lists its RAM in regions below and above 4 GiB). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/lib/mem_limit.h"

#define GiB (1ull << 30)

static void below_the_limit_is_kept(void **state)
{
	(void)state;
	uint64_t size = 512ull << 20;
	assert_int_equal(mem_limit_cut(0, &size, 2 * GiB), 0);
	assert_int_equal(size, 512ull << 20);
	size = 2 * GiB;   /* ends exactly at the limit */
	assert_int_equal(mem_limit_cut(0, &size, 2 * GiB), 0);
	assert_int_equal(size, 2 * GiB);
}

static void a_region_across_the_limit_is_cut_there(void **state)
{
	(void)state;
	uint64_t size = 4 * GiB;
	assert_int_equal(mem_limit_cut(0, &size, 2 * GiB), 2 * GiB);
	assert_int_equal(size, 2 * GiB);
	size = 2 * GiB;
	assert_int_equal(mem_limit_cut(1 * GiB, &size, 2 * GiB), 1 * GiB);
	assert_int_equal(size, 1 * GiB);
}

static void a_region_above_is_dropped(void **state)
{
	(void)state;
	uint64_t size = 6 * GiB;   /* RAM the bridge maps above 4 GiB */
	assert_int_equal(mem_limit_cut(4 * GiB, &size, 2 * GiB), 6 * GiB);
	assert_int_equal(size, 0);
	size = 1;
	assert_int_equal(mem_limit_cut(2 * GiB, &size, 2 * GiB), 1);
	assert_int_equal(size, 0);
}

static void no_limit_keeps_everything(void **state)
{
	(void)state;
	uint64_t size = 64 * GiB;
	assert_int_equal(mem_limit_cut(4 * GiB, &size, 0), 0);
	assert_int_equal(size, 64 * GiB);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(below_the_limit_is_kept),
		cmocka_unit_test(a_region_across_the_limit_is_cut_there),
		cmocka_unit_test(a_region_above_is_dropped),
		cmocka_unit_test(no_limit_keeps_everything),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

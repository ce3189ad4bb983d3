/* Kernel command-line parsing: whole-word keys, values, numbers and malformed input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "kernel/lib/bootargs.h"

static void test_str(void **state)
{
	(void)state;
	char v[16];
	assert_int_equal(bootarg_str("hz=1000 fault=illegal", "fault", v, sizeof v), 1);
	assert_string_equal(v, "illegal");
	assert_int_equal(bootarg_str("  halt  hz=5", "halt", v, sizeof v), 1);
	assert_string_equal(v, "");
	assert_int_equal(bootarg_str("hz=1000", "h", v, sizeof v), 0);       /* whole words only */
	assert_int_equal(bootarg_str("xhz=1 hz=2", "hz", v, sizeof v), 1);
	assert_string_equal(v, "2");
	assert_int_equal(bootarg_str("", "hz", v, sizeof v), 0);
	assert_int_equal(bootarg_str(NULL, "hz", v, sizeof v), 0);
	assert_int_equal(bootarg_str("run=averyveryverylongprogramname", "run", v, 8), 1);
	assert_string_equal(v, "averyve");                                    /* truncated */
	assert_int_equal(bootarg_str("a=1\tb=2", "b", v, sizeof v), 1);
	assert_string_equal(v, "2");
}

static void test_u64(void **state)
{
	(void)state;
	uint64_t v = 0;
	assert_int_equal(bootarg_u64("hz=1000", "hz", &v), 1);
	assert_int_equal(v, 1000);
	assert_int_equal(bootarg_u64("mask=0xFf", "mask", &v), 1);
	assert_int_equal(v, 255);
	assert_int_equal(bootarg_u64("hz=18446744073709551615", "hz", &v), 1);
	assert_true(v == UINT64_MAX);
	v = 7;
	assert_int_equal(bootarg_u64("hz=18446744073709551616", "hz", &v), -1);   /* overflow */
	assert_int_equal(bootarg_u64("hz=banana", "hz", &v), -1);
	assert_int_equal(bootarg_u64("hz=", "hz", &v), -1);
	assert_int_equal(bootarg_u64("hz", "hz", &v), -1);
	assert_int_equal(bootarg_u64("hz=0x", "hz", &v), -1);
	assert_int_equal(bootarg_u64("hz=12a", "hz", &v), -1);
	assert_int_equal(bootarg_u64("other=1", "hz", &v), 0);
	assert_int_equal(v, 7);                          /* untouched on failure */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_str),
		cmocka_unit_test(test_u64),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* civil_time: dates checked against the host's gmtime/timegm over a wide range, the Mac
 * epoch's offset, and the refusal of impossible dates. */
#define _DEFAULT_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include "common/lib/civil_time.h"

static void matches_gmtime(void **state)
{
	(void)state;
	for (int64_t s = -4102444800LL; s < 7258118400LL; s += 86400 * 7 + 3607) {
		time_t tt = (time_t)s;
		struct tm tm;
		assert_non_null(gmtime_r(&tt, &tm));
		struct civil_time c = civil_from_unix(s);
		assert_int_equal(c.year, tm.tm_year + 1900);
		assert_int_equal(c.month, tm.tm_mon + 1);
		assert_int_equal(c.day, tm.tm_mday);
		assert_int_equal(c.hour, tm.tm_hour);
		assert_int_equal(c.minute, tm.tm_min);
		assert_int_equal(c.second, tm.tm_sec);
		int64_t back = 0;
		assert_true(civil_to_unix(&c, &back));
		assert_int_equal(back, s);
	}
}

static void mac_epoch(void **state)
{
	(void)state;
	struct civil_time c = civil_from_unix(-(int64_t)MAC_EPOCH_TO_UNIX);
	char buf[24];
	assert_string_equal(civil_format(&c, buf, sizeof buf), "1904-01-01 00:00:00");
	c = civil_from_unix(1795919411);   /* what QEMU's PMU said on 2026-11-29 */
	assert_string_equal(civil_format(&c, buf, sizeof buf), "2026-11-29 02:30:11");
}

static void refuses_impossible_dates(void **state)
{
	(void)state;
	int64_t s = 42;
	struct civil_time bad[] = {
		{ 2026, 2, 29, 0, 0, 0 }, { 2026, 13, 1, 0, 0, 0 }, { 2026, 0, 1, 0, 0, 0 },
		{ 2026, 4, 31, 0, 0, 0 }, { 2026, 1, 0, 0, 0, 0 }, { 2026, 1, 1, 24, 0, 0 },
		{ 2026, 1, 1, 0, 60, 0 }, { 2026, 1, 1, 0, 0, 60 }, { 1900, 2, 29, 0, 0, 0 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		assert_false(civil_to_unix(&bad[i], &s));
	assert_int_equal(s, 42);
	struct civil_time leap = { 2000, 2, 29, 12, 0, 0 };
	assert_true(civil_to_unix(&leap, &s));
	assert_int_equal(s, 951825600);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(matches_gmtime),
		cmocka_unit_test(mac_epoch),
		cmocka_unit_test(refuses_impossible_dates),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* kovctl's own code that needs no target: the JSON writer (structure, escaping of any bytes
 * into valid JSON and UTF-8) and the command-line parser (every command, strict numbers and
 * addresses, missing values, unknown options and commands). kovctl's files are not linked
 * into the unit tests, so the two it needs are compiled in here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/json.c"
#include "kovctl/opts.c"

/* ---- JSON ------------------------------------------------------------------------------- */

static char *mem;
static size_t mem_len;

static struct json *open_json(bool pretty)
{
	static struct json j;
	FILE *f = open_memstream(&mem, &mem_len);
	assert_non_null(f);
	json_init(&j, f, pretty);
	return &j;
}

static const char *close_json(struct json *j)
{
	fclose(j->out);
	return mem;
}

static void test_json_structure(void **state)
{
	(void)state;
	struct json *j = open_json(false);
	json_begin_object(j);
	json_kv_str(j, "name", "kmalloc");
	json_kv_u64(j, "n", 18446744073709551615ull);
	json_kv_hex(j, "addr", 0xc000000000012345ull);
	json_kv_coid(j, "coid", 0xd0000050ull);
	json_kv_bool(j, "yes", true);
	json_kv_double(j, "us", 12.5);
	json_key(j, "list");
	json_begin_array(j);
	json_i64(j, -3);
	json_null(j);
	json_begin_object(j);
	json_end_object(j);
	json_begin_array(j);
	json_end_array(j);
	json_str(j, NULL);
	json_end_array(j);
	json_end_object(j);
	assert_string_equal(close_json(j),
	                    "{\"name\":\"kmalloc\",\"n\":18446744073709551615,"
	                    "\"addr\":\"0xc000000000012345\",\"coid\":\"0xd0000050\",\"yes\":true,\"us\":12.5,"
	                    "\"list\":[-3,null,{},[],null]}");
	free(mem);
}

static void test_json_pretty(void **state)
{
	(void)state;
	struct json *j = open_json(true);
	json_begin_object(j);
	json_kv_u64(j, "a", 1);
	json_key(j, "b");
	json_begin_array(j);
	json_u64(j, 2);
	json_u64(j, 3);
	json_end_array(j);
	json_key(j, "c");
	json_begin_array(j);
	json_end_array(j);
	json_end_object(j);
	json_end(j);
	assert_string_equal(close_json(j),
	                    "{\n  \"a\": 1,\n  \"b\": [\n    2,\n    3\n  ],\n  \"c\": []\n}\n");
	free(mem);
}

static const char *escaped(const char *s, size_t n)
{
	FILE *f = open_memstream(&mem, &mem_len);
	json_write_string(f, s, n);
	fclose(f);
	return mem;
}

#define R "\xef\xbf\xbd"

static void test_json_escaping(void **state)
{
	(void)state;
	static const struct { const char *in; size_t n; const char *out; } cases[] = {
		{ "plain", 5, "\"plain\"" },
		{ "q\"b\\s/", 6, "\"q\\\"b\\\\s/\"" },
		{ "\b\f\n\r\t", 5, "\"\\b\\f\\n\\r\\t\"" },
		{ "\x01\x1f\x7f", 3, "\"\\u0001\\u001F\x7f\"" },
		{ "nul\0x", 5, "\"nul\\u0000x\"" },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		/* U+FFFD (EF BF BD) for every byte that does not start a valid sequence */
		{ "bad\xff", 4, "\"bad" R "\"" },
		{ "cut\xe2\x82", 5, "\"cut" R R "\"" },         /* truncated sequence */
		{ "over\xc0\xaf", 6, "\"over" R R "\"" },      /* overlong '/' */
		{ "sur\xed\xa0\x80", 6, "\"sur" R R R "\"" }, /* UTF-16 surrogate */
		{ "big\xf4\x90\x80\x80", 7, "\"big" R R R R "\"" }, /* > U+10FFFF */
		{ "", 0, "\"\"" },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		assert_string_equal(escaped(cases[i].in, cases[i].n), cases[i].out);
		free(mem);
	}
}

static void test_json_non_finite(void **state)
{
	(void)state;
	struct json *j = open_json(false);
	json_begin_array(j);
	json_double(j, 1.0 / 0.0);
	json_double(j, 0.0 / 0.0);
	json_double(j, 0.25);
	json_double(j, 3.0);          /* a real stays a real */
	json_double(j, 1.0 / 3.0);    /* 15 significant digits */
	json_end_array(j);
	assert_string_equal(close_json(j), "[null,null,0.25,3.0,0.333333333333333]");
	free(mem);
}

/* ---- options ---------------------------------------------------------------------------- */

static struct kovctl_opts o;
static char err[512];

/* Parses a space-separated command line (words have no spaces). */
static int parse(const char *line)
{
	static char buf[1024];
	char *argv[64] = { "kovctl" };
	int argc = 1;
	snprintf(buf, sizeof buf, "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
		argv[argc++] = t;
	err[0] = 0;
	return kovctl_parse(argc, argv, &o, err, sizeof err);
}

static void expect_error(const char *line, const char *msg)
{
	if (parse(line) != -1)
		fail_msg("'%s' parsed", line);
	if (strcmp(err, msg))
		fail_msg("'%s': got '%s', want '%s'", line, err, msg);
}

static void test_opts_commands(void **state)
{
	(void)state;
	assert_int_equal(parse("--target 127.0.0.1:7242 info"), 0);
	assert_int_equal(o.cmd, CMD_INFO);
	assert_string_equal(o.host, "127.0.0.1");
	assert_string_equal(o.port, "7242");
	assert_int_equal(o.timeout_ms, 10000);
	assert_false(o.json);
	assert_null(o.token);

	assert_int_equal(parse("scan --target=localhost:1 --pid 3 --class Process --json"), 0);
	assert_int_equal(o.cmd, CMD_SCAN);
	assert_true(o.has_pid);
	assert_int_equal(o.pid, 3);
	assert_string_equal(o.class_name, "Process");
	assert_true(o.json);
	assert_string_equal(o.host, "localhost");

	assert_int_equal(parse("--target [::1]:80 --token s3cret --timeout 0.5 symbols "
	                       "c000000000012345 0x10 --pid 0 0XABC"), 0);
	assert_string_equal(o.host, "::1");
	assert_string_equal(o.token, "s3cret");
	assert_int_equal(o.timeout_ms, 500);
	assert_int_equal(o.n_addrs, 3);
	assert_true(o.addrs[0] == 0xc000000000012345ull);
	assert_true(o.addrs[1] == 0x10);
	assert_true(o.addrs[2] == 0xabc);

	assert_int_equal(parse("--target h:1 watch"), 0);
	assert_true(o.seconds == 0);
	assert_int_equal(parse("--target h:1 watch --seconds 2.5"), 0);
	assert_true(o.seconds == 2.5);
	assert_int_equal(parse("--target h:1 ping"), 0);
	assert_int_equal(o.count, 10);
	assert_int_equal(parse("--target h:1 ping --count=1000"), 0);
	assert_int_equal(o.count, 1000);
	assert_int_equal(parse("--target h:1 status"), 0);
	assert_int_equal(o.cmd, CMD_STATUS);
	assert_int_equal(parse("--target h:1 stream"), 0);
	assert_true(o.seconds == 5);
	assert_int_equal(o.depth, 4);
	assert_int_equal(parse("--target h:1 stream --seconds 3 --depth 8"), 0);
	assert_true(o.seconds == 3);
	assert_int_equal(o.depth, 8);
	assert_int_equal(parse("--target h:1 --token t poweroff"), 0);
	assert_int_equal(o.cmd, CMD_POWEROFF);
	assert_int_equal(parse("reboot --target h:1"), 0);
	assert_int_equal(o.cmd, CMD_REBOOT);
	assert_int_equal(parse("info --help"), 0);
	assert_true(o.help);
	assert_int_equal(parse("-h"), 0);
	assert_true(o.help);
}

static void test_opts_errors(void **state)
{
	(void)state;
	expect_error("info", "--target needs HOST:PORT");
	expect_error("--target", "--target needs HOST:PORT");
	expect_error("--target 127.0.0.1 info", "--target needs HOST:PORT, not 127.0.0.1");
	expect_error("--target :7242 info", "--target needs HOST:PORT, not :7242");
	expect_error("--target h:0 info", "--target needs HOST:PORT, not h:0");
	expect_error("--target h:65536 info", "--target needs HOST:PORT, not h:65536");
	expect_error("--target h:12x info", "--target needs HOST:PORT, not h:12x");
	expect_error("--target ::1:80 info", "--target needs HOST:PORT, not ::1:80");
	expect_error("--target h:1", "no command given (try --help)");
	expect_error("--target h:1 foo", "unknown command 'foo' (try --help)");
	expect_error("--target h:1 --frob info", "unknown option '--frob' (try --help)");
	expect_error("--target h:1 info --pid 3", "unknown option '--pid' for info (try --help)");
	expect_error("--target h:1 ping --seconds 3", "unknown option '--seconds' for ping (try --help)");
	expect_error("--target h:1 scan --pid", "--pid needs a value");
	expect_error("--target h:1 scan --pid -1", "--pid needs a process id, not '-1'");
	expect_error("--target h:1 scan --pid 12abc", "--pid needs a process id, not '12abc'");
	expect_error("--target h:1 scan --pid 4294967295", "--pid needs a process id, not '4294967295'");
	expect_error("--target h:1 scan --class=", "--class needs a class name");
	expect_error("--target h:1 ping --count 0", "--count needs a number from 1 to 1000000, not '0'");
	expect_error("--target h:1 ping --count 99999999999999999999999",
	             "--count needs a number from 1 to 1000000, not '99999999999999999999999'");
	expect_error("--target h:1 watch --seconds nan",
	             "--seconds needs a number of seconds (0 < N <= 86400), not 'nan'");
	expect_error("--target h:1 watch --seconds 0",
	             "--seconds needs a number of seconds (0 < N <= 86400), not '0'");
	expect_error("--target h:1 --timeout -1 info",
	             "--timeout needs a number of seconds (0 < SEC <= 3600), not '-1'");
	expect_error("--target h:1 stream --depth 65", "--depth needs a number from 1 to 64, not '65'");
	expect_error("--target h:1 symbols", "symbols needs at least one hex address");
	expect_error("--target h:1 symbols 0xg", "'0xg' is not a hex address");
	expect_error("--target h:1 symbols 12345678901234567", "'12345678901234567' is not a hex address");
	expect_error("--target h:1 symbols 0x", "'0x' is not a hex address");
	expect_error("--target h:1 status extra", "status takes no argument 'extra' (try --help)");
	expect_error("--target h:1 throttle --limit 0", "--limit needs a share of the CPUs' time in "
	             "percent (0.01 to 100, as 10 or 2.5) or 'off', not '0'");
	expect_error("--target h:1 throttle --limit 100.01", "--limit needs a share of the CPUs' "
	             "time in percent (0.01 to 100, as 10 or 2.5) or 'off', not '100.01'");
	expect_error("--target h:1 throttle --limit 5%", "--limit needs a share of the CPUs' time "
	             "in percent (0.01 to 100, as 10 or 2.5) or 'off', not '5%'");
	expect_error("--target h:1 --token 01234567890123456789012345678901234567890123456789"
	             "012345678901234 info", "--token is longer than 64 bytes");
}

static void test_usage_names_every_command(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		char want[32];
		snprintf(want, sizeof want, "  %s", cmds[i].name);
		assert_non_null(strstr(kovctl_usage, want));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_json_structure),
		cmocka_unit_test(test_json_pretty),
		cmocka_unit_test(test_json_escaping),
		cmocka_unit_test(test_json_non_finite),
		cmocka_unit_test(test_opts_commands),
		cmocka_unit_test(test_opts_errors),
		cmocka_unit_test(test_usage_names_every_command),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

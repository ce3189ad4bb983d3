/* PMU configuration files (gui/client/pmuconf.c): a full file, defaults, a round trip through
 * the writer, and every mistake reported with its line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "client/pmuconf.h"

static struct kov_pmuconf conf, again;
static char err[256];

static int parse(const char *text)
{
	err[0] = 0;
	return kov_pmuconf_parse(text, strlen(text), &conf, err, sizeof err);
}

static void test_full_file(void **state)
{
	(void)state;
	const char *text =
		"# two groups\n"
		"slice 2000000 instructions   # per slice\n"
		"count user\n"
		"\n"
		"group spin 60\n"
		"  PM_INST_CMPL 100000\n"
		"  PM_CYC\n"
		"group sys 40\n"
		"\tSW_SYSCALL 0\r\n"
		"\tSW_HPT_MISS 1000\n";
	assert_int_equal(parse(text), 0);
	const struct proto_pmu_config *c = &conf.cfg;
	assert_int_equal(c->unit, PROTO_UNIT_INSTRUCTIONS);
	assert_int_equal(c->slice, 2000000);
	assert_int_equal(c->flags, PROTO_CFG_USER);
	assert_int_equal(c->n_groups, 2);
	assert_string_equal(c->groups[0].name.s, "spin");
	assert_int_equal(c->groups[0].share, 60);
	assert_int_equal(c->groups[0].n_events, 2);
	assert_string_equal(c->groups[0].events[0].name.s, "PM_INST_CMPL");
	assert_int_equal(c->groups[0].events[0].threshold, 100000);
	assert_int_equal(c->groups[0].events[1].threshold, 0);
	assert_string_equal(c->groups[1].events[1].name.s, "SW_HPT_MISS");
	assert_int_equal(c->groups[1].events[1].name.len, 11);
	assert_int_equal(c->groups[1].events[1].threshold, 1000);

	/* Written out and read back: the same configuration. */
	char buf[4096];
	int n = kov_pmuconf_format(c, buf, sizeof buf);
	assert_true(n > 0 && (size_t)n < sizeof buf);
	assert_int_equal(kov_pmuconf_parse(buf, (size_t)n, &again, err, sizeof err), 0);
	assert_int_equal(again.cfg.n_groups, 2);
	assert_int_equal(again.cfg.unit, c->unit);
	assert_int_equal(again.cfg.slice, c->slice);
	assert_int_equal(again.cfg.flags, c->flags);
	for (unsigned g = 0; g < 2; g++) {
		assert_string_equal(again.cfg.groups[g].name.s, c->groups[g].name.s);
		assert_int_equal(again.cfg.groups[g].n_events, c->groups[g].n_events);
		for (unsigned e = 0; e < c->groups[g].n_events; e++) {
			assert_string_equal(again.cfg.groups[g].events[e].name.s, c->groups[g].events[e].name.s);
			assert_int_equal(again.cfg.groups[g].events[e].threshold, c->groups[g].events[e].threshold);
		}
	}
	/* A short buffer: the length it needs. */
	assert_int_equal(kov_pmuconf_format(c, buf, 10), n);
}

static void test_defaults(void **state)
{
	(void)state;
	assert_int_equal(parse("group all 100\nPM_INST_CMPL"), 0);
	assert_int_equal(conf.cfg.unit, PROTO_UNIT_MICROSECONDS);
	assert_int_equal(conf.cfg.slice, 10000);
	assert_int_equal(conf.cfg.flags, PROTO_CFG_KERNEL | PROTO_CFG_USER);
	assert_int_equal(conf.cfg.chain_depth, 0);
}

static void refused(const char *text, const char *expect)
{
	assert_int_equal(parse(text), -1);
	if (!strstr(err, expect))
		fail_msg("expected \"%s\" in \"%s\"", expect, err);
}

/* Call chains: asked for with their depth, kept by count, written back, bounded. */
static void test_chains(void **state)
{
	(void)state;
	assert_int_equal(parse("chains 32\ncount user\ngroup all 100\nPM_INST_CMPL 1000"), 0);
	assert_int_equal(conf.cfg.flags, PROTO_CFG_USER | PROTO_CFG_CALLCHAIN);
	assert_int_equal(conf.cfg.chain_depth, 32);
	char buf[512];
	assert_true(kov_pmuconf_format(&conf.cfg, buf, sizeof buf) > 0);
	assert_non_null(strstr(buf, "\nchains 32\n"));
	assert_int_equal(parse(buf), 0);
	assert_int_equal(conf.cfg.chain_depth, 32);
	refused("chains 33\ngroup all 100\nPM_CYC\n", "line 1: chains takes the frames each sample keeps, 1 to 32");
	refused("chains 0\ngroup all 100\nPM_CYC\n", "chains takes");
	refused("chains\ngroup all 100\nPM_CYC\n", "chains takes");
}

static void test_mistakes(void **state)
{
	(void)state;
	refused("", "no group");
	refused("group a 50\nPM_CYC\n", "add up to 50%, not 100%");
	refused("PM_CYC\n", "line 1: 'PM_CYC' is not slice, count, chains or group");
	refused("group a 100\nPM_CYC x\n", "line 2: threshold 'x' is not a number");
	refused("group a 100\nPM_CYC -5\n", "line 2: threshold '-5'");
	refused("group a 100\nPM_CYC 1 2\n", "line 2: an event line is");
	refused("group a 0\nPM_CYC\n", "line 1: share '0'");
	refused("group a 101\n", "share '101'");
	refused("group a\n", "group needs a name and a share");
	refused("group a 50\nPM_CYC\ngroup a 50\nPM_CYC\n", "line 3: a second group named 'a'");
	refused("group a 100\n", "group a has no events");
	refused("group a 100\nPM_CYC\nPM_CYC\n", "line 3: PM_CYC is twice in group a");
	refused("slice 10 ms\ngroup a 100\nPM_CYC\n", "line 1: unknown slice unit 'ms'");
	refused("slice 0 us\n", "slice needs a length above 0");
	refused("count kernel\ncount user\n", "line 2: count takes");
	refused("count nobody\n", "'nobody' is neither kernel nor user");
	refused("group abcdefghijklmnopqrstuvwxyz0123456 100\n", "longer than 31 characters");
	char many[2048] = "";
	for (int g = 0; g < 17; g++)
		snprintf(many + strlen(many), sizeof many - strlen(many), "group g%d 1\nPM_CYC\n", g);
	refused(many, "more than 16 groups");
	char nul[] = "group a 100\nPM_\0CYC\n";
	assert_int_equal(kov_pmuconf_parse(nul, sizeof nul - 1, &conf, err, sizeof err), -1);
	assert_non_null(strstr(err, "line 2: contains a NUL byte"));
	char longline[700];
	memset(longline, 'x', sizeof longline - 1);
	longline[sizeof longline - 1] = 0;
	refused(longline, "line 1: longer than");
}

/* JSON: the same configuration as the text file, and mistakes with their lines. */
static void test_json(void **state)
{
	(void)state;
	const char *json =
		"{\n"
		"  \"slice\": { \"length\": 2000000, \"unit\": \"instructions\" },\n"
		"  \"count\": [\"user\"],\n"
		"  \"groups\": [\n"
		"    { \"name\": \"spin\", \"share\": 60,\n"
		"      \"events\": [ { \"name\": \"PM_INST_CMPL\", \"threshold\": 100000 }, \"PM_CYC\" ] },\n"
		"    { \"name\": \"sys\", \"share\": 40, \"events\": [ \"SW_SYSCALL\",\n"
		"      { \"name\": \"SW_HPT_MISS\", \"threshold\": 1000 } ] }\n"
		"  ]\n"
		"}\n";
	assert_int_equal(parse(json), 0);
	const struct proto_pmu_config *c = &conf.cfg;
	assert_int_equal(c->unit, PROTO_UNIT_INSTRUCTIONS);
	assert_int_equal(c->slice, 2000000);
	assert_int_equal(c->flags, PROTO_CFG_USER);
	assert_int_equal(c->n_groups, 2);
	assert_string_equal(c->groups[0].name.s, "spin");
	assert_int_equal(c->groups[0].share, 60);
	assert_int_equal(c->groups[0].n_events, 2);
	assert_int_equal(c->groups[0].events[0].threshold, 100000);
	assert_string_equal(c->groups[0].events[1].name.s, "PM_CYC");
	assert_int_equal(c->groups[0].events[1].threshold, 0);
	assert_string_equal(c->groups[1].events[1].name.s, "SW_HPT_MISS");
	assert_int_equal(c->groups[1].events[1].threshold, 1000);

	assert_int_equal(c->chain_depth, 0);
	/* Call chains: "chains": N, 1 to 32. */
	assert_int_equal(parse("{ \"chains\": 32, \"groups\": [ { \"name\": \"a\", \"share\": 100, "
			       "\"events\": [\"PM_CYC\"] } ] }"), 0);
	assert_int_equal(c->flags, PROTO_CFG_KERNEL | PROTO_CFG_USER | PROTO_CFG_CALLCHAIN);
	assert_int_equal(c->chain_depth, 32);
	refused("{\n\"chains\": 33 }", "line 2: chains: the frames each sample keeps, 1 to 32");
	refused("{ \"chains\": \"deep\" }", "expected a whole number");
	refused("{ \"groups\": [] }", "no group");
	refused("{\n\"groups\": [\n{ \"name\": \"a\", \"share\": 50, \"events\": [\"X\"] } ] }",
		"add up to 50%");
	refused("{\n\n  \"slices\": 3 }", "line 3: unknown field \"slices\"");
	refused("{ \"slice\": { \"length\": 1.5 } }", "line 1: expected a whole number");
	refused("{ \"slice\": { \"unit\": \"ms\" } }", "unknown slice unit 'ms'");
	refused("{\n\"groups\": [ { \"name\": \"a\", \"share\": 100,\n\"events\": [ \"X\", \"X\" ] } ] }",
		"line 3: X is twice in a group");
	refused("{ \"groups\": [ { \"name\": \"a\", \"share\": 100 } ] }", "needs a name, a share and events");
	refused("{ \"groups\": [ { \"name\": \"a\", \"share\": 100, \"events\": [\"X\"] }",
		"line 1, column 60: ']' expected near end of file");
	refused("{ \"count\": [\"nobody\"] }", "neither kernel nor user");
	refused("{ \"groups\": [ { \"name\": \"a\", \"share\": 100, \"events\": [\"X\"] } ] } extra",
		"text after the configuration");
	refused("{ \"slice\": { \"length\": 99999999999999999999999 } }", "too big integer");
	refused("{ \"groups\": [ { \"name\": \"a\\q\" } ] }", "invalid escape");
}

/* Malformed JSON: jansson's reason with the line and column; and the schema's mistakes on
 * the line of the member or element at fault, however the text is laid out. */
static void test_json_lines(void **state)
{
	(void)state;
	refused("{\n  \"slice\": { \"length\": 100 }\n  \"count\": [\"user\"]\n}",
		"line 3, column 9: '}' expected near '\"count\"'");
	refused("{\n\"groups\": [\n  { \"name\": \"a\",\n    \"share\": 100,, } ] }",
		"line 4, column 18: string or '}' expected near ','");
	refused("{\n  \"count\": [\"user\"],\n  \"count\": [\"kernel\"]\n}",
		"line 3, column 9: duplicate object key near '\"count\"'");
	refused("{ \"groups\": [ { \"name\": \"a\n\" } ] }", "line 1, column ");
	refused("{", "line 1, column 1: string or '}' expected near end of file");
	refused("{\n\"groups\": [\n  { \"name\": \"a\", \"share\": 100, \"events\": [\"X\"] },\n"
		"  { \"name\": \"b\",\n    \"colour\": 3 } ] }", "line 5: unknown group field \"colour\"");
	refused("{\n\"groups\": [\n  { \"name\": \"a\",\n    \"share\":\n      \"most\",\n"
		"    \"events\": [\"X\"] } ] }", "line 5: expected a whole number");
	refused("{\n\"groups\": [\n  { \"name\": \"a\", \"share\": 100,\n    \"events\": [\n"
		"      \"X\",\n      { \"threshold\": 5 } ] } ] }", "line 6: an event without a name");
	refused("{\n\"groups\": [\n  { \"name\": \"a\", \"share\": 100,\n    \"events\": [\n"
		"      \"X\",\n      { \"name\": \"Y\", \"threshold\": -5 } ] } ] }",
		"line 6: expected a whole number");
	refused("{ \"groups\": [ { \"name\": \"a\\u0001\", \"share\": 100, \"events\": [\"X\"] } ] }",
		"line 1: a string with a control character");
	refused("{\n\"groups\": [\n  { \"name\": \"a\", \"share\": 100, \"events\": [\"X\"] },\n"
		"  { \"name\": \"a\", \"share\": 100, \"events\": [\"Y\"] } ] }",
		"line 4: a second group named 'a'");
	refused("{\n\"slice\": {\n\"unit\": \"us\",\n\"length\": 0 } }",
		"line 4: the slice length must be above 0");
	/* kov_pmuconf_parse reads a text that does not start with '{' as the text format. */
	assert_int_equal(kov_pmuconf_parse_json("[ 1, 2 ]", 8, &conf, err, sizeof err), -1);
	assert_string_equal(err, "line 1: expected an object");
	refused("{ \"groups\": { \"name\": \"a\" } }", "line 1: expected an array");
	refused("{ \"groups\": [ 3 ] }", "line 1: expected an object");
	refused("{\n\"groups\": [ { \"name\": \"a\", \"share\": 100,\n\"events\": [ true ] } ] }",
		"line 3: an event is a name or an object");
	refused("{\n\n\"count\": [] , \"groups\": [ { \"name\": \"a\", \"share\": 100, "
		"\"events\": [\"X\"] } ] }", "line 3: count: kernel, user or both");
	char nul[] = "{\n\"groups\": [\0] }";
	assert_int_equal(kov_pmuconf_parse(nul, sizeof nul - 1, &conf, err, sizeof err), -1);
	assert_string_equal(err, "line 2: contains a NUL byte");
	/* Keys and values spread over lines, strings holding braces and colons: still the right
	 * line. */
	refused("{\n\"groups\"\n:\n[\n{\n\"name\"\n:\n\"{a:}\"\n,\n\"share\"\n:\n100\n,\n"
		"\"events\"\n:\n[\n\"X\"\n,\n\"X\"\n]\n}\n]\n}\n", "line 19: X is twice in a group");
}

/* Found by fuzz_pmuconf: JSON names the text format cannot write back (kovctl and the viewer
 * save configurations as text) are refused with the reason. */
static void test_json_names_the_text_can_carry(void **state)
{
	(void)state;
	assert_int_equal(parse("{\"groups\":[{\"name\":\"#in\",\"share\":100,\"events\":[\"PM_CYC\"]}]}"), -1);
	assert_non_null(strstr(err, "group name '#in'"));
	assert_int_equal(parse("{\"groups\":[{\"name\":\"a b\",\"share\":100,\"events\":[\"PM_CYC\"]}]}"), -1);
	assert_non_null(strstr(err, "white space"));
	assert_int_equal(parse("{\"groups\":[{\"name\":\"g\",\"share\":100,\"events\":[\"slice\"]}]}"), -1);
	assert_non_null(strstr(err, "event name 'slice'"));
	/* The same for the directive chains added since (found by fuzz_pmuconf again). */
	assert_int_equal(parse("{\"groups\":[{\"name\":\"g\",\"share\":100,\"events\":[\"chains\"]}]}"), -1);
	assert_non_null(strstr(err, "event name 'chains'"));
	assert_int_equal(parse("{\"groups\":[{\"name\":\"slice\",\"share\":100,\"events\":[\"PM_CYC\"]}]}"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_file),
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_chains),
		cmocka_unit_test(test_mistakes),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_json_names_the_text_can_carry),
		cmocka_unit_test(test_json_lines),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

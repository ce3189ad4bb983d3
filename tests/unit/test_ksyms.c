/* ksyms (the in-kernel lookup) and mksyms (the table builder), tested together: tables are
 * built from canned `nm -n --synthetic` text by the same code the mksyms tool runs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include "common/lib/bytes.h"
#include "common/syms/ksyms.h"
#include "mksyms_lib.h"

/* Shaped like the linked ELFv1 kernel: code entries ".name" in .text, their descriptors
 * "name" in .opd, data after, plus what must be dropped. Out of order on purpose in places;
 * nm -n sorts, but mksyms must not depend on it. */
static const char kernel_nm[] =
	"                 U undefined_thing\n"
	"                 w weak_undefined\n"
	"0000000000000000 A abs_zero\n"
	"c000000000000000 T _start\n"
	"c000000000000000 t .Lstart_local\n"
	"c000000000000100 t $x\n"
	"c000000000000100 T .system_reset\n"
	"c000000000001000 T .kmain\n"
	"c000000000001080 t .helper\n"
	"c0000000000010c0 W .weak_hook\n"
	"c000000000001100 T .kprintf\n"
	"c000000000002000 d local_first\n"
	"c000000000002000 D global_second\n"
	"c000000000002000 D global_third\n"
	"c000000000003000 D kmain\n"
	"c000000000003018 d helper\n"
	"c000000000003030 W weak_hook\n"
	"c000000000003048 D kprintf\n"
	"c000000000003060 R version_string\r\n"
	"c000000000003100 N debug_thing\n"
	"c000000000004000 B percpu\n"
	"c000000000004100 b counter\n"
	"c000000000004200 V weak_object\n"
	"c000000000004300 G small_data\n"
	"c000000000004308 S small_bss\n"
	"c000000000004400 C common_thing\n"
	"c000000000004500 u unique_global\n"
	"\n"
	"c000000000005000 B _end\n"
	"c000000000000200 T .late_in_input";

struct expect {
	uint64_t addr;
	const char *name;
	uint32_t size;
};

static const struct expect kernel_syms[] = {
	{ 0xc000000000000000, "_start", 0x100 },
	{ 0xc000000000000100, "system_reset", 0x100 },
	{ 0xc000000000000200, "late_in_input", 0xe00 },
	{ 0xc000000000001000, "kmain", 0x80 },
	{ 0xc000000000001080, "helper", 0x40 },
	{ 0xc0000000000010c0, "weak_hook", 0x40 },
	{ 0xc000000000001100, "kprintf", 0xf00 },
	{ 0xc000000000002000, "global_second", 0x1060 },   /* descriptors at 0x3000.. dropped */
	{ 0xc000000000003060, "version_string", 0xfa0 },
	{ 0xc000000000004000, "percpu", 0x100 },
	{ 0xc000000000004100, "counter", 0x100 },
	{ 0xc000000000004200, "weak_object", 0x100 },
	{ 0xc000000000004300, "small_data", 0x8 },
	{ 0xc000000000004308, "small_bss", 0xcf8 },
	{ 0xc000000000005000, "_end", 0 },
};
#define KERNEL_COUNT (sizeof kernel_syms / sizeof *kernel_syms)

static unsigned char *build(const char *text, size_t *size)
{
	unsigned char *t = NULL;
	char err[128];
	if (mksyms_build(text, strlen(text), &t, size, err, sizeof err) != 0)
		fail_msg("mksyms_build: %s", err);
	assert_true(ksyms_valid(t, *size));
	return t;
}

static int build_err(const char *text, char *err, size_t n)
{
	unsigned char *t = (unsigned char *)"untouched";
	size_t size = 12345;
	int rc = mksyms_build(text, strlen(text), &t, &size, err, n);
	assert_string_equal((char *)t, "untouched");
	assert_int_equal(size, 12345);
	return rc;
}

static unsigned char *kernel_table;
static size_t kernel_size;

static int setup(void **state)
{
	(void)state;
	char err[128];
	if (mksyms_build(kernel_nm, sizeof kernel_nm - 1, &kernel_table, &kernel_size, err,
	                 sizeof err) != 0) {
		print_error("mksyms_build: %s\n", err);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(kernel_table);
	return 0;
}

static void table_layout(void **state)
{
	(void)state;
	const unsigned char *t = kernel_table;
	assert_true(ksyms_valid(t, kernel_size));
	assert_int_equal(be32_load(t), KSYMS_MAGIC);
	assert_int_equal(be32_load(t + 4), KERNEL_COUNT);
	assert_int_equal(be32_load(t + 12), 0);
	uint32_t strings_size = be32_load(t + 8);
	assert_int_equal(kernel_size, 16 + KERNEL_COUNT * 16 + strings_size);
	const char *strings = (const char *)t + 16 + KERNEL_COUNT * 16;
	for (size_t i = 0; i < KERNEL_COUNT; i++) {
		const unsigned char *e = t + 16 + i * 16;
		assert_int_equal(be64_load(e), kernel_syms[i].addr);
		assert_string_equal(strings + be32_load(e + 8), kernel_syms[i].name);
		assert_int_equal(be32_load(e + 12), kernel_syms[i].size);
	}
}

static void lookup_hits(void **state)
{
	(void)state;
	for (size_t i = 0; i < KERNEL_COUNT; i++) {
		const struct expect *s = &kernel_syms[i];
		uint64_t span = s->size ? s->size : KSYMS_LAST_SPAN;
		uint64_t probes[] = { s->addr, s->addr + 1, s->addr + span / 2, s->addr + span - 1 };
		for (size_t k = 0; k < 4; k++) {
			uint64_t start = 0;
			const char *name = ksyms_lookup(kernel_table, probes[k], &start);
			if (!name || strcmp(name, s->name) != 0 || start != s->addr)
				fail_msg("0x%llx: want %s, got %s", (unsigned long long)probes[k], s->name,
				         name ? name : "NULL");
		}
		/* One past the end is the next symbol, or nothing after the last. */
		const char *next = ksyms_lookup(kernel_table, s->addr + span, NULL);
		if (i + 1 < KERNEL_COUNT)
			assert_string_equal(next, kernel_syms[i + 1].name);
		else
			assert_null(next);
	}
	assert_null(ksyms_lookup(kernel_table, 0xbfffffffffffffff, NULL));   /* below the first */
	assert_null(ksyms_lookup(kernel_table, 0, NULL));
	assert_null(ksyms_lookup(kernel_table, UINT64_MAX, NULL));
	/* sym_addr is optional and left alone on a miss. */
	uint64_t start = 42;
	assert_null(ksyms_lookup(kernel_table, 1, &start));
	assert_int_equal(start, 42);
}

static void lookup_gap(void **state)
{
	(void)state;
	size_t size;
	unsigned char *t = build("0000000000001000 T .a\n0000000000002000 T .b\n"
	                         "0000000000003000 T .c\n", &size);
	/* Shrink a's size to 0x100: [0x1100, 0x2000) becomes a gap. */
	be32_store(t + 16 + 12, 0x100);
	assert_true(ksyms_valid(t, size));
	assert_string_equal(ksyms_lookup(t, 0x10ff, NULL), "a");
	assert_null(ksyms_lookup(t, 0x1100, NULL));
	assert_null(ksyms_lookup(t, 0x1fff, NULL));
	assert_string_equal(ksyms_lookup(t, 0x2000, NULL), "b");
	/* Size 0 before the last entry reaches the next symbol. */
	be32_store(t + 32 + 12, 0);
	assert_string_equal(ksyms_lookup(t, 0x2fff, NULL), "b");
	/* The last one reaches KSYMS_LAST_SPAN bytes. */
	assert_string_equal(ksyms_lookup(t, 0x3000 + KSYMS_LAST_SPAN - 1, NULL), "c");
	assert_null(ksyms_lookup(t, 0x3000 + KSYMS_LAST_SPAN, NULL));
	free(t);
}

static void format_names(void **state)
{
	(void)state;
	char buf[64];
	assert_int_equal(ksyms_format(kernel_table, 0xc000000000001000, buf, sizeof buf), 5);
	assert_string_equal(buf, "kmain");
	assert_int_equal(ksyms_format(kernel_table, 0xc00000000000101c, buf, sizeof buf), 10);
	assert_string_equal(buf, "kmain+0x1c");
	assert_int_equal(ksyms_format(kernel_table, 0xc000000000005fff, buf, sizeof buf), 10);
	assert_string_equal(buf, "_end+0xfff");
	assert_int_equal(ksyms_format(kernel_table, 0x1000, buf, sizeof buf), 1);
	assert_string_equal(buf, "?");
	/* snprintf semantics */
	memset(buf, 'Z', sizeof buf);
	assert_int_equal(ksyms_format(kernel_table, 0xc00000000000101c, buf, 6), 10);
	assert_string_equal(buf, "kmain");
	assert_int_equal(buf[6], 'Z');
	assert_int_equal(ksyms_format(kernel_table, 0xc00000000000101c, NULL, 0), 10);
}

static void address_by_name(void **state)
{
	(void)state;
	for (size_t i = 0; i < KERNEL_COUNT; i++)
		assert_int_equal(ksyms_addr(kernel_table, kernel_syms[i].name), kernel_syms[i].addr);
	assert_int_equal(ksyms_addr(kernel_table, "kmai"), 0);
	assert_int_equal(ksyms_addr(kernel_table, "kmainx"), 0);
	assert_int_equal(ksyms_addr(kernel_table, ".kmain"), 0);
	assert_int_equal(ksyms_addr(kernel_table, ""), 0);
	/* Dropped: shadowed at the same address, descriptors, locals, other types. */
	static const char *const dropped[] = { "local_first", "global_third", "undefined_thing",
	                                       "weak_undefined", "abs_zero", "Lstart_local",
	                                       ".Lstart_local", "$x", "x", "debug_thing",
	                                       "common_thing", "unique_global" };
	for (size_t i = 0; i < sizeof dropped / sizeof *dropped; i++)
		assert_int_equal(ksyms_addr(kernel_table, dropped[i]), 0);
}

static void empty_table(void **state)
{
	(void)state;
	size_t size;
	unsigned char *t = build("", &size);
	assert_int_equal(size, 16);
	assert_int_equal(be32_load(t + 4), 0);
	assert_null(ksyms_lookup(t, 0, NULL));
	assert_null(ksyms_lookup(t, 0xc000000000000000, NULL));
	char buf[8];
	assert_int_equal(ksyms_format(t, 0x1234, buf, sizeof buf), 1);
	assert_string_equal(buf, "?");
	assert_int_equal(ksyms_addr(t, "kmain"), 0);
	free(t);
	/* Only blank lines and dropped symbols. */
	t = build("\n\n                 U x\n0000000000000010 A y\n", &size);
	assert_int_equal(size, 16);
	free(t);
}

static void one_symbol(void **state)
{
	(void)state;
	size_t size;
	unsigned char *t = build("ffffffffffffff00 T .top", &size);   /* no final newline */
	assert_int_equal(be32_load(t + 4), 1);
	assert_int_equal(be32_load(t + 16 + 12), 0);
	assert_string_equal(ksyms_lookup(t, 0xffffffffffffff00, NULL), "top");
	assert_string_equal(ksyms_lookup(t, UINT64_MAX, NULL), "top");
	assert_null(ksyms_lookup(t, 0xfffffffffffffeff, NULL));
	free(t);
}

static void invalid_tables(void **state)
{
	(void)state;
	assert_false(ksyms_valid(NULL, 100));
	for (size_t n = 0; n < kernel_size; n++) {
		unsigned char *t = malloc(n ? n : 1);
		memcpy(t, kernel_table, n);
		if (ksyms_valid(t, n))
			fail_msg("valid in %zu of %zu bytes", n, kernel_size);
		free(t);
	}
	unsigned char *t = malloc(kernel_size);
	uint32_t strings_size = be32_load(kernel_table + 8);
	const size_t e1 = 16 + 16, last_e = 16 + (KERNEL_COUNT - 1) * 16;
	struct {
		size_t at;
		uint32_t value;
	} patches[] = {
		{ 0, 0x4d59534b },                        /* magic, byte-swapped */
		{ 4, KERNEL_COUNT + 1 },                  /* count beyond the data */
		{ 4, 0xffffffff },                        /* count * 16 overflows 32 bits */
		{ 8, strings_size + 1 },
		{ 8, strings_size - 1 },                  /* the last name loses its NUL */
		{ 12, 1 },                                /* reserved */
		{ e1 + 4, 0xc0000000 },                   /* address below the one before */
		{ e1 + 4, 0x00000000 },                   /* the same address as before */
		{ last_e + 8, strings_size },             /* name outside the strings */
		{ last_e + 8, 0xffffffff },
	};
	for (size_t i = 0; i < sizeof patches / sizeof *patches; i++) {
		memcpy(t, kernel_table, kernel_size);
		be32_store(t + patches[i].at, patches[i].value);
		if (ksyms_valid(t, kernel_size))
			fail_msg("patch %zu accepted", i);
	}
	/* A table with room to spare after it is fine. */
	unsigned char *big = calloc(1, kernel_size + 100);
	memcpy(big, kernel_table, kernel_size);
	assert_true(ksyms_valid(big, kernel_size + 100));
	free(big);
	free(t);
}

static void parse_errors(void **state)
{
	(void)state;
	char err[128];
	assert_int_equal(build_err("c000000000000000 T .ok\nnot a symbol line\n", err, sizeof err),
	                 -1);
	assert_non_null(strstr(err, "line 2"));
	assert_int_equal(build_err("c0000000000000000 T .x\n", err, sizeof err), -1);
	assert_non_null(strstr(err, "line 1: address longer than 16 hex digits"));
	static const char *const bad[] = {
		"c000000000000000 T\n",        /* no name */
		"c000000000000000 T \n",
		"c000000000000000 TT name\n",
		"c000000000000000  name\n",
		"c000000000000000\n",
		"c000000000000000 T  name\n",
		"c00000000000000g T name\n",
		"c000000000000000\tT\tname\n",
		"                 T name\n",   /* a defined type without an address */
		"name\n",
		"c000000000000000 T name\nfile.o:\n",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		if (build_err(bad[i], err, sizeof err) != -1)
			fail_msg("accepted \"%s\"", bad[i]);
		assert_non_null(strstr(err, "line "));
	}
	/* A NUL byte, which would cut a name short. */
	unsigned char *t;
	size_t size;
	assert_int_equal(mksyms_build("0000000000000010 T a\0b\n", 23, &t, &size, err, sizeof err),
	                 -1);
	assert_non_null(strstr(err, "NUL"));
	/* A short error buffer still gets a terminated message. */
	char tiny[6];
	assert_int_equal(build_err("junk\n", tiny, sizeof tiny), -1);
	assert_string_equal(tiny, "line ");
}

static void same_address_rules(void **state)
{
	(void)state;
	size_t size;
	/* A global wins over an earlier local; among equals the first in the input. */
	unsigned char *t = build("0000000000000100 b local\n0000000000000100 B first_global\n"
	                         "0000000000000100 B second_global\n0000000000000200 t only_local\n"
	                         "0000000000000200 t later_local\n", &size);
	assert_int_equal(be32_load(t + 4), 2);
	assert_string_equal(ksyms_lookup(t, 0x100, NULL), "first_global");
	assert_string_equal(ksyms_lookup(t, 0x200, NULL), "only_local");
	free(t);
	/* The code entry replaces its descriptor whatever the order, and a text symbol keeps its
	 * name when it has no dot. */
	t = build("0000000000009000 D f\n0000000000001000 T .f\n0000000000002000 T plain\n"
	          "0000000000003000 T ..dots\n0000000000004000 D .data_dot\n", &size);
	assert_int_equal(be32_load(t + 4), 4);
	assert_int_equal(ksyms_addr(t, "f"), 0x1000);
	assert_int_equal(ksyms_addr(t, "plain"), 0x2000);
	assert_int_equal(ksyms_addr(t, ".dots"), 0x3000);      /* one dot is stripped */
	assert_int_equal(ksyms_addr(t, ".data_dot"), 0x4000);  /* data keeps its name */
	uint64_t start;   /* nothing left at the descriptor's address */
	assert_string_equal(ksyms_lookup(t, 0x9000, &start), ".data_dot");
	assert_int_equal(start, 0x4000);
	free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table_layout),
		cmocka_unit_test(lookup_hits),
		cmocka_unit_test(lookup_gap),
		cmocka_unit_test(format_names),
		cmocka_unit_test(address_by_name),
		cmocka_unit_test(empty_table),
		cmocka_unit_test(one_symbol),
		cmocka_unit_test(invalid_tables),
		cmocka_unit_test(parse_errors),
		cmocka_unit_test(same_address_rules),
	};
	return cmocka_run_group_tests_name("ksyms", tests, setup, teardown);
}

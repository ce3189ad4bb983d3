/* ELF symbol tables for the DCI's symbol service (common/syms/elf_syms.c): built from real user
 * programs of this build (ELFv1 descriptors followed to code entries, checked against the
 * cross toolchain's view of the same file) and from corrupted copies, which must be refused or
 * survived, never crash and never yield an invalid table. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/syms/elf_syms.h"
#include "common/syms/ksyms.h"

struct blob {
	uint8_t *bytes;
	size_t size;
};

static long read_blob(void *ctx, uint64_t off, void *buf, size_t len)
{
	struct blob *b = ctx;
	if (off >= b->size)
		return 0;
	size_t n = b->size - off < len ? b->size - off : len;
	memcpy(buf, b->bytes + off, n);
	return (long)n;
}

static struct blob load(const char *name)
{
	char path[256];
	const char *top = getenv("KOV_TOP");
	snprintf(path, sizeof path, "%s/build/user/bin/%s", top ? top : ".", name);
	FILE *f = fopen(path, "rb");
	struct blob b = { 0, 0 };
	if (!f)
		return b;
	fseek(f, 0, SEEK_END);
	b.size = (size_t)ftell(f);
	fseek(f, 0, SEEK_SET);
	b.bytes = malloc(b.size);
	if (fread(b.bytes, 1, b.size, f) != b.size)
		b.size = 0;
	fclose(f);
	return b;
}

static uint8_t table[256 * 1024];

/* The code entry of `sym` as the cross nm sees it (".sym" in --synthetic output), 0 if none. */
static uint64_t nm_entry(const char *program, const char *sym)
{
	char cmd[512], line[256];
	const char *top = getenv("KOV_TOP");
	snprintf(cmd, sizeof cmd, "powerpc64-linux-gnu-nm --synthetic %s/build/user/bin/%s 2>/dev/null",
		 top ? top : ".", program);
	FILE *p = popen(cmd, "r");
	uint64_t addr = 0;
	while (p && fgets(line, sizeof line, p)) {
		unsigned long long a;
		char type, name[200];
		if (sscanf(line, "%llx %c %199s", &a, &type, name) == 3 && name[0] == '.' &&
		    strcmp(name + 1, sym) == 0)
			addr = a;
	}
	if (p)
		pclose(p);
	return addr;
}

static void real_program(void **state)
{
	(void)state;
	const char *programs[] = { "hello", "cotree", "dcid" };
	for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
		struct blob b = load(programs[i]);
		assert_non_null(b.bytes);
		long n = elf_syms_build(read_blob, &b, b.size, table, sizeof table);
		assert_true(n > KSYMS_HEADER_SIZE);
		assert_true(ksyms_valid(table, (size_t)n));
		uint64_t main_addr = ksyms_addr(table, "main");
		assert_int_not_equal(main_addr, 0);
		assert_int_equal(main_addr, nm_entry(programs[i], "main"));   /* the code, not .opd */
		uint64_t start = 0;
		assert_string_equal(ksyms_lookup(table, main_addr + 8, &start), "main");
		assert_int_equal(start, main_addr);
		uint64_t printf_addr = ksyms_addr(table, "printf");
		assert_int_equal(printf_addr, nm_entry(programs[i], "printf"));
		free(b.bytes);
	}
}

/* cotest defines three methods with CO_METHOD: their bodies' code entries are listed, each
 * covered by its symbol's extent; hello defines none. */
static void co_methods(void **state)
{
	(void)state;
	struct blob b = load("cotest");
	assert_non_null(b.bytes);
	uint64_t m[64];
	long n = elf_co_methods(read_blob, &b, b.size, m, 64);
	long t = elf_syms_build(read_blob, &b, b.size, table, sizeof table);
	assert_true(t > 0);
	const char *bodies[] = { "counter_add_body", "counter_value_body", "counter_mix_body" };
	for (size_t k = 0; k < 3; k++) {
		uint64_t entry = nm_entry("cotest", bodies[k]);
		assert_int_not_equal(entry, 0);
		bool listed = false;
		for (long i = 0; i < n; i++)
			listed |= m[i] == entry;
		assert_true(listed);
		uint64_t start, end;
		assert_true(ksyms_extent(table, entry + 4, &start, &end));
		assert_int_equal(start, entry);
		assert_true(end > start && end - start < 4096);
		assert_false(ksyms_extent(table, 0x100, &start, &end));
	}
	free(b.bytes);
	/* A runtime that defines no methods of its own lists only libc's (if any): all code. */
	b = load("hello");
	n = elf_co_methods(read_blob, &b, b.size, m, 64);
	assert_true(n >= 0);
	for (long i = 0; i < n; i++)
		assert_true(m[i] >= 0x10000000 && m[i] < 0x20000000);
	/* Corrupt headers are refused, not followed. */
	b.bytes[62] = 0xff;   /* shstrndx */
	b.bytes[63] = 0xff;
	assert_true(elf_co_methods(read_blob, &b, b.size, m, 64) < 0);
	free(b.bytes);
}

static void refusals(void **state)
{
	(void)state;
	struct blob b = load("hello");
	assert_non_null(b.bytes);
	struct blob t = { b.bytes, 40 };
	assert_int_equal(elf_syms_build(read_blob, &t, t.size, table, sizeof table), -ELF_SYMS_E_FORMAT);
	uint8_t *copy = malloc(b.size);
	struct blob c = { copy, b.size };

	memcpy(copy, b.bytes, b.size);
	copy[0] = 0x7e;
	assert_int_equal(elf_syms_build(read_blob, &c, c.size, table, sizeof table), -ELF_SYMS_E_FORMAT);

	memcpy(copy, b.bytes, b.size);
	copy[5] = 1;   /* little-endian */
	assert_int_equal(elf_syms_build(read_blob, &c, c.size, table, sizeof table), -ELF_SYMS_E_FORMAT);

	memcpy(copy, b.bytes, b.size);
	memset(copy + 40, 0x7f, 8);   /* section headers far beyond the file */
	assert_int_equal(elf_syms_build(read_blob, &c, c.size, table, sizeof table), -ELF_SYMS_E_BOUNDS);

	struct blob cut = { b.bytes, b.size / 2 };   /* section headers are at the end */
	long rc = elf_syms_build(read_blob, &cut, cut.size, table, sizeof table);
	assert_true(rc == -ELF_SYMS_E_BOUNDS || rc == -ELF_SYMS_E_READ);

	assert_int_equal(elf_syms_build(read_blob, &b, b.size, table, 64), -ELF_SYMS_E_NOSPACE);
	assert_string_equal(elf_syms_strerror(-ELF_SYMS_E_NO_SYMTAB), "the program has no symbol table");
	free(copy);
	free(b.bytes);
}

/* Random corruption of headers and tables: any answer but a crash or an invalid table. */
static void corrupted(void **state)
{
	(void)state;
	struct blob b = load("hello");
	assert_non_null(b.bytes);
	uint8_t *copy = malloc(b.size);
	struct blob c = { copy, b.size };
	srand(42);
	int refused = 0, built = 0;
	for (int round = 0; round < 400; round++) {
		memcpy(copy, b.bytes, b.size);
		int flips = 1 + rand() % 8;
		for (int k = 0; k < flips; k++) {
			/* Aim at the ELF header, the section headers and the symbol table area. */
			size_t where = rand() % 3 == 0 ? (size_t)rand() % 64
				     : b.size - 1 - (size_t)rand() % (b.size < 8192 ? b.size : 8192);
			copy[where] = (uint8_t)rand();
		}
		long n = elf_syms_build(read_blob, &c, c.size, table, sizeof table);
		if (n < 0) {
			refused++;
		} else {
			assert_true(ksyms_valid(table, (size_t)n));
			built++;
		}
	}
	assert_int_equal(refused + built, 400);
	free(copy);
	free(b.bytes);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_program),
		cmocka_unit_test(co_methods),
		cmocka_unit_test(refusals),
		cmocka_unit_test(corrupted),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}

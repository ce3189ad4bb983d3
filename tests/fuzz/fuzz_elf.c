/* libFuzzer target: the ELF symbol reader (common/syms/elf_syms.c) the daemon runs on programs of the
 * initial RAM disk, and the symbol-table reader (common/syms/ksyms.c) clients run on the
 * tables it makes. A table elf_syms_build returns must pass ksyms_valid, and every lookup in
 * it must stay inside it. */
#include <stdlib.h>
#include <string.h>
#include "common/syms/elf_syms.h"
#include "common/syms/ksyms.h"

struct file { const uint8_t *data; size_t size; };

static long read_at(void *ctx, uint64_t offset, void *buf, size_t len)
{
	const struct file *f = ctx;
	if (offset >= f->size)
		return 0;
	size_t n = f->size - offset < len ? f->size - offset : len;
	memcpy(buf, f->data + offset, n);
	return (long)n;
}

static void lookups(const void *table, size_t size)
{
	uint32_t n = ksyms_count(table);
	if ((uint64_t)n * KSYMS_ENTRY_SIZE > size)
		abort();
	for (uint32_t i = 0; i < n && i < 64; i++) {
		uint64_t start, end, at;
		if (!ksyms_at(table, i, &start, &end))
			continue;
		const char *name = ksyms_lookup(table, start, &at);
		if (!name || at != start)
			abort();
		ksyms_extent(table, start, &start, &end);
		char buf[96];
		ksyms_format(table, end - 1, buf, sizeof buf);
		ksyms_addr(table, name);
	}
	ksyms_lookup(table, 0, 0);
	ksyms_lookup(table, ~0ull, 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct file f = { data, size };
	static uint8_t table[256 * 1024];
	long n = elf_syms_build(read_at, &f, size, table, sizeof table);
	if (n > 0) {
		if ((size_t)n > sizeof table || !ksyms_valid(table, (size_t)n))
			abort();
		lookups(table, (size_t)n);
	} else if (!elf_syms_strerror(n)) {
		abort();
	}
	uint64_t methods[64];
	long m = elf_co_methods(read_at, &f, size, methods, 64);
	if (m > 64)
		abort();
	uint64_t vaddr, off, filesz;
	if (elf_exec_segment(read_at, &f, size, &vaddr, &off, &filesz) == 0 && off + filesz > size)
		abort();
	/* The same bytes as a symbol table received from a target. */
	uint8_t *copy = malloc(size ? size : 1);
	memcpy(copy, data, size);
	if (ksyms_valid(copy, size))
		lookups(copy, size);
	free(copy);
	return 0;
}

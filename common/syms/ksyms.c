#include "ksyms.h"
#include "common/lib/bytes.h"
#include "common/lib/format.h"
#include "common/lib/string.h"

static uint32_t count_of(const uint8_t *t)
{
	return be32_load(t + 4);
}

static const uint8_t *entry(const uint8_t *t, uint32_t i)
{
	return t + KSYMS_HEADER_SIZE + (size_t)i * KSYMS_ENTRY_SIZE;
}

static const char *name_of(const uint8_t *t, const uint8_t *e)
{
	return (const char *)entry(t, count_of(t)) + be32_load(e + 8);
}

bool ksyms_valid(const void *table, size_t max_size)
{
	const uint8_t *t = table;
	if (!t || max_size < KSYMS_HEADER_SIZE || be32_load(t) != KSYMS_MAGIC || be32_load(t + 12))
		return false;
	uint32_t count = count_of(t), strings_size = be32_load(t + 8);
	uint64_t need = KSYMS_HEADER_SIZE + (uint64_t)count * KSYMS_ENTRY_SIZE + strings_size;
	if (need > max_size)
		return false;
	const char *strings = (const char *)entry(t, count);
	/* A NUL at the very end bounds every name that starts inside the block. */
	if (count && (strings_size == 0 || strings[strings_size - 1] != 0))
		return false;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = entry(t, i);
		if (be32_load(e + 8) >= strings_size)
			return false;
		if (i > 0 && be64_load(e) <= be64_load(e - KSYMS_ENTRY_SIZE))
			return false;
	}
	return true;
}

/* Index of the first entry above addr (the one before it is the candidate for addr). */
static uint32_t first_above(const uint8_t *t, uint32_t count, uint64_t addr)
{
	uint32_t lo = 0, hi = count;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		if (be64_load(entry(t, mid)) <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const char *ksyms_lookup(const void *table, uint64_t addr, uint64_t *sym_addr)
{
	const uint8_t *t = table;
	uint32_t count = t ? count_of(t) : 0;
	uint32_t lo = first_above(t, count, addr);
	if (lo == 0)
		return NULL;
	const uint8_t *e = entry(t, lo - 1);
	uint64_t start = be64_load(e), size = be32_load(e + 12);
	if (size == 0 && lo == count)
		size = KSYMS_LAST_SPAN;
	if (size != 0 && addr - start >= size)
		return NULL;
	if (sym_addr)
		*sym_addr = start;
	return name_of(t, e);
}

uint32_t ksyms_count(const void *table)
{
	return table ? count_of(table) : 0;
}

bool ksyms_at(const void *table, uint32_t i, uint64_t *start, uint64_t *end)
{
	if (!table || i >= count_of(table))
		return false;
	return ksyms_extent(table, be64_load(entry(table, i)), start, end);
}

bool ksyms_extent(const void *table, uint64_t addr, uint64_t *start, uint64_t *end)
{
	const uint8_t *t = table;
	uint32_t count = t ? count_of(t) : 0;
	uint32_t lo = first_above(t, count, addr);
	if (lo == 0)
		return false;
	const uint8_t *e = entry(t, lo - 1);
	uint64_t s = be64_load(e), size = be32_load(e + 12);
	if (size == 0)
		size = lo < count ? be64_load(entry(t, lo)) - s : KSYMS_LAST_SPAN;
	if (addr - s >= size)
		return false;
	*start = s;
	*end = s + size;
	return true;
}

int ksyms_format(const void *table, uint64_t addr, char *buf, size_t n)
{
	uint64_t start;
	const char *name = ksyms_lookup(table, addr, &start);
	if (!name)
		return format_buf(buf, n, "?");
	if (addr == start)
		return format_buf(buf, n, "%s", name);
	return format_buf(buf, n, "%s+0x%llx", name, (unsigned long long)(addr - start));
}

uint64_t ksyms_addr(const void *table, const char *name)
{
	const uint8_t *t = table;
	uint32_t count = t ? count_of(t) : 0;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *e = entry(t, i);
		if (strcmp(name_of(t, e), name) == 0)
			return be64_load(e);
	}
	return 0;
}

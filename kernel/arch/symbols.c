#include "symbols.h"
#include "common/syms/ksyms.h"
#include "common/lib/bytes.h"

extern const char _ksyms_start[], _ksyms_end[];

static const void *table(void)
{
	size_t size = (size_t)(_ksyms_end - _ksyms_start);
	return ksyms_valid(_ksyms_start, size) ? _ksyms_start : 0;
}

const char *symbolize(uint64_t addr, char *buf, size_t n)
{
	const void *t = table();
	if (t)
		ksyms_format(t, addr, buf, n);
	else if (n > 1)
		buf[0] = '?', buf[1] = 0;
	return buf;
}

unsigned int symbol_count(void)
{
	const void *t = table();
	return t ? be32_load((const uint8_t *)t + 4) : 0;
}

const void *symbol_table(size_t *size)
{
	const uint8_t *t = table();
	if (!t)
		return 0;
	uint32_t count = (uint32_t)t[4] << 24 | (uint32_t)t[5] << 16 | (uint32_t)t[6] << 8 | t[7];
	uint32_t strings = (uint32_t)t[8] << 24 | (uint32_t)t[9] << 16 | (uint32_t)t[10] << 8 | t[11];
	*size = KSYMS_HEADER_SIZE + (size_t)count * KSYMS_ENTRY_SIZE + strings;
	return t;
}

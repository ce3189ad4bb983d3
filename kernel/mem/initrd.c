#include "initrd.h"
#include "common/lib/bytes.h"
#include "common/lib/string.h"

extern const uint8_t _initrd_start[], _initrd_end[];

#define HEADER 16
#define ENTRY 56
#define NAME 48

static uint32_t count(void)
{
	size_t size = (size_t)(_initrd_end - _initrd_start);
	if (size < HEADER || memcmp(_initrd_start, "KOVINITR", 8) != 0)
		return 0;
	uint32_t n = be32_load(_initrd_start + 8);
	return (uint64_t)HEADER + (uint64_t)n * ENTRY <= size ? n : 0;
}

const uint8_t *initrd_find(const char *name, uint32_t *size)
{
	size_t total = (size_t)(_initrd_end - _initrd_start);
	for (uint32_t i = 0; i < count(); i++) {
		const uint8_t *e = _initrd_start + HEADER + i * ENTRY;
		if (e[NAME - 1] != 0 || strcmp((const char *)e, name) != 0)
			continue;
		uint32_t off = be32_load(e + NAME), len = be32_load(e + NAME + 4);
		if ((uint64_t)off + len > total)
			return 0;
		*size = len;
		return _initrd_start + off;
	}
	return 0;
}

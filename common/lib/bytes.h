/* Big-endian loads and stores that go byte by byte, so they work at any alignment and on a
 * little-endian host as well as on the big-endian target. */
#ifndef KOV_BYTES_H
#define KOV_BYTES_H

#include <stdint.h>

static inline uint16_t be16_load(const void *p)
{
	const uint8_t *b = p;
	return (uint16_t)(b[0] << 8 | b[1]);
}

static inline uint32_t be32_load(const void *p)
{
	const uint8_t *b = p;
	return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline uint64_t be64_load(const void *p)
{
	const uint8_t *b = p;
	return (uint64_t)be32_load(b) << 32 | be32_load(b + 4);
}

static inline void be16_store(void *p, uint16_t v)
{
	uint8_t *b = p;
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

static inline void be32_store(void *p, uint32_t v)
{
	uint8_t *b = p;
	b[0] = (uint8_t)(v >> 24);
	b[1] = (uint8_t)(v >> 16);
	b[2] = (uint8_t)(v >> 8);
	b[3] = (uint8_t)v;
}

static inline void be64_store(void *p, uint64_t v)
{
	uint8_t *b = p;
	be32_store(b, (uint32_t)(v >> 32));
	be32_store(b + 4, (uint32_t)v);
}

#endif

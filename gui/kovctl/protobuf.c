/* Protocol buffers and gzip, the little pprof needs (gui/kovctl/protobuf.h). */
#include <stdlib.h>
#include <string.h>
#include "kovctl/protobuf.h"
#include "client/grow.h"

static void put(struct pb *b, const void *p, size_t n)
{
	if (b->oom)
		return;
	if (!kov_grow((void **)&b->buf, &b->cap, b->len + n, 1)) {
		b->oom = true;
		return;
	}
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

void pb_varint(struct pb *b, uint64_t v)
{
	uint8_t tmp[10];
	size_t n = 0;
	do {
		tmp[n] = (uint8_t)(v & 0x7f);
		v >>= 7;
		tmp[n++] |= v ? 0x80 : 0;
	} while (v);
	put(b, tmp, n);
}

void pb_uint(struct pb *b, uint32_t field, uint64_t v)
{
	pb_varint(b, (uint64_t)field << 3 | 0);
	pb_varint(b, v);
}

void pb_bytes(struct pb *b, uint32_t field, const void *data, size_t len)
{
	pb_varint(b, (uint64_t)field << 3 | 2);
	pb_varint(b, len);
	put(b, data, len);
}

void pb_free(struct pb *b)
{
	free(b->buf);
	memset(b, 0, sizeof *b);
}

static uint32_t crc32(const uint8_t *p, size_t n)
{
	uint32_t c = 0xffffffffu;
	for (size_t i = 0; i < n; i++) {
		c ^= p[i];
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xedb88320u : c >> 1;
	}
	return ~c;
}

static void le32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

bool gzip_stored(FILE *out, const uint8_t *data, size_t len)
{
	static const uint8_t head[10] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255 };
	fwrite(head, 1, sizeof head, out);
	size_t pos = 0;
	do {   /* stored blocks of at most 65535 bytes; the last has BFINAL */
		size_t n = len - pos > 65535 ? 65535 : len - pos;
		uint8_t bh[5] = { pos + n == len, (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)~n,
				  (uint8_t)(~n >> 8) };
		fwrite(bh, 1, sizeof bh, out);
		fwrite(data + pos, 1, n, out);
		pos += n;
	} while (pos < len);
	uint8_t tail[8];
	le32(tail, crc32(data, len));
	le32(tail + 4, (uint32_t)len);
	fwrite(tail, 1, sizeof tail, out);
	return !ferror(out);
}

/* Target-only: a hosted build uses the C library's versions of these (tests/unit/test_string.c
 * builds this file under other names). memcpy and memset move doublewords: the network stack
 * copies every byte it sends. */
#include <stdint.h>
#include "string.h"

/* The next 8 source bytes from two aligned doublewords, the first holding `shift` / 8 bytes
 * before them (1 to 7): aligned loads only, which every PowerPC takes without a trap. */
static inline uint64_t merged(uint64_t w0, uint64_t w1, unsigned shift)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	return w0 << shift | w1 >> (64 - shift);
#else
	return w0 >> shift | w1 << (64 - shift);
#endif
}

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (n >= 16) {
		while ((uintptr_t)d & 7) {
			*d++ = *s++;
			n--;
		}
		uint64_t *dw = (uint64_t *)d;
		unsigned off = (uintptr_t)s & 7;
		if (!off) {
			const uint64_t *sw = (const uint64_t *)s;
			for (; n >= 32; n -= 32, dw += 4, sw += 4) {
				uint64_t a = sw[0], b = sw[1], c = sw[2], e = sw[3];
				dw[0] = a;
				dw[1] = b;
				dw[2] = c;
				dw[3] = e;
			}
			for (; n >= 8; n -= 8)
				*dw++ = *sw++;
			s = (const unsigned char *)sw;
		} else {
			/* A source out of step with the destination (the network stack's frames
			 * are, by 2 bytes): doublewords merged from its aligned neighbours. Each
			 * load stays inside an aligned doubleword holding a byte to copy. */
			const uint64_t *sw = (const uint64_t *)(s - off);
			uint64_t w0 = *sw++;
			for (; n >= 8; n -= 8) {
				uint64_t w1 = *sw++;
				*dw++ = merged(w0, w1, off * 8);
				w0 = w1;
			}
			s = (const unsigned char *)sw - 8 + off;
		}
		d = (unsigned char *)dw;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	while (n && ((uintptr_t)d & 7)) {
		*d++ = (unsigned char)c;
		n--;
	}
	uint64_t v = (unsigned char)c * 0x0101010101010101ull;
	uint64_t *dw = (uint64_t *)d;
	for (; n >= 8; n -= 8)
		*dw++ = v;
	d = (unsigned char *)dw;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char x = (unsigned char)a[i], y = (unsigned char)b[i];
		if (x != y)
			return x < y ? -1 : 1;
		if (x == 0)
			break;
	}
	return 0;
}

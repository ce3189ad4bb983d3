/* The Internet checksum for lwIP (LWIP_CHKSUM), a word at a time: every byte the target sends
 * or receives is summed, and lwIP's portable version goes two bytes at a time. */
#include <stdint.h>
#include "lwip/opt.h"

typedef uint32_t __attribute__((may_alias)) word32;

u16_t kov_inet_chksum(const void *data, int len)
{
	const uint8_t *p = data;
	uint64_t sum = 0;
	if (!((uintptr_t)p & 1)) {
		while (len >= 2 && ((uintptr_t)p & 3)) {
			sum += (uint32_t)p[0] << 8 | p[1];
			p += 2;
			len -= 2;
		}
		const word32 *w = (const word32 *)p;
		for (; len >= 16; len -= 16, w += 4)
			sum += (uint64_t)w[0] + w[1] + w[2] + w[3];
		for (; len >= 4; len -= 4)
			sum += *w++;
		p = (const uint8_t *)w;
	}
	for (; len >= 2; len -= 2, p += 2)
		sum += (uint32_t)p[0] << 8 | p[1];
	if (len)
		sum += (uint32_t)p[0] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (u16_t)sum;
}

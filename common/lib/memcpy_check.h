/* A memcpy checked against a byte-by-byte copy: every pair of source and destination
 * alignments 0-15 and every length 0-80, the bytes around the destination untouched. Shared by
 * the host's test (tests/unit/test_string.c) and the target's (sim/workloads/memcpytest.c),
 * which between them reach both byte orders of common/lib/string.c's merged copy. */
#ifndef KOV_MEMCPY_CHECK_H
#define KOV_MEMCPY_CHECK_H

#include <stddef.h>
#include <stdbool.h>

/* The first case that went wrong: the call, and the byte (byte < 0: the wrong pointer back). */
struct memcpy_bad { unsigned dst_off, src_off, len; int byte; unsigned got, want; };

static inline bool memcpy_check(void *(*copy)(void *restrict, const void *restrict, size_t),
				struct memcpy_bad *bad)
{
	static _Alignas(8) unsigned char src[128], dst[128];
	for (unsigned i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 37 + 11);
	for (unsigned so = 0; so < 16; so++)
		for (unsigned dof = 0; dof < 16; dof++)
			for (unsigned n = 0; n <= 80; n++) {
				for (unsigned i = 0; i < sizeof dst; i++)
					dst[i] = 0xEE;
				*bad = (struct memcpy_bad){ dof, so, n, -1, 0, 0 };
				if (copy(dst + dof, src + so, n) != dst + dof)
					return false;
				for (unsigned i = 0; i < sizeof dst; i++) {
					unsigned char want = i >= dof && i < dof + n ? src[so + i - dof] : 0xEE;
					if (dst[i] != want) {
						*bad = (struct memcpy_bad){ dof, so, n, (int)i, dst[i], want };
						return false;
					}
				}
			}
	return true;
}

#endif

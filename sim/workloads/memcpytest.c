/* The target's memcpy (common/lib/string.c, the same code as the kernel's) on the big-endian
 * machine it runs on: every pair of source and destination alignments 0-15 and every length
 * 0-80 against a byte-by-byte copy, with the bytes around the destination untouched (the host
 * test, tests/unit/test_string.c, runs the little-endian branch only).
 * Usage: memcpytest   (prints "memcpytest: passed" or the first wrong byte) */
#include "workload.h"

/* Called through a volatile pointer: the library's memcpy, never the compiler's inline copy. */
static void *(*volatile copy)(void *restrict, const void *restrict, size_t) = memcpy;

int main(void)
{
	static _Alignas(8) unsigned char src[128], dst[128];
	for (unsigned i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 37 + 11);
	for (unsigned so = 0; so < 16; so++)
		for (unsigned dof = 0; dof < 16; dof++)
			for (unsigned n = 0; n <= 80; n++) {
				for (unsigned i = 0; i < sizeof dst; i++)
					dst[i] = 0xEE;
				if (copy(dst + dof, src + so, n) != dst + dof) {
					printf("memcpytest: memcpy(dst+%u, src+%u, %u) returned the wrong pointer\n",
					       dof, so, n);
					return 1;
				}
				for (unsigned i = 0; i < sizeof dst; i++) {
					unsigned char want = i >= dof && i < dof + n ? src[so + i - dof] : 0xEE;
					if (dst[i] != want) {
						printf("memcpytest: memcpy(dst+%u, src+%u, %u): byte %u is %#x, not %#x\n",
						       dof, so, n, i, dst[i], want);
						return 1;
					}
				}
			}
	printf("memcpytest: passed\n");
	return 0;
}

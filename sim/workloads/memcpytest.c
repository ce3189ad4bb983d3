/* The target's memcpy (common/lib/string.c, the same code as the kernel's) on the big-endian
 * machine it runs on (common/lib/memcpy_check.h; the host's test_string runs the little-endian
 * branch only).
 * Usage: memcpytest   (prints "memcpytest: passed" or the first wrong byte) */
#include "workload.h"
#include "../../common/lib/memcpy_check.h"

/* Called through a volatile pointer: the library's memcpy, never the compiler's inline copy. */
static void *(*volatile copy)(void *restrict, const void *restrict, size_t) = memcpy;

int main(void)
{
	struct memcpy_bad b;
	if (!memcpy_check(copy, &b)) {
		printf("memcpytest: memcpy(dst+%u, src+%u, %u): %s byte %d is %#x, not %#x\n", b.dst_off,
		       b.src_off, b.len, b.byte < 0 ? "returned the wrong pointer;" : "", b.byte, b.got,
		       b.want);
		return 1;
	}
	printf("memcpytest: passed\n");
	return 0;
}

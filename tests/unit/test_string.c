/* The target's memcpy (common/lib/string.c, built here under another name): every pair of
 * source and destination alignments and every length up to 80, against a byte-by-byte copy,
 * with the bytes around the destination untouched. The network stack's frames reach it with
 * the source 2 bytes out of step with the destination. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#define memcpy kov_memcpy
#define memmove kov_memmove
#define memset kov_memset
#define memcmp kov_memcmp
#define strlen kov_strlen
#define strnlen kov_strnlen
#define strcmp kov_strcmp
#define strncmp kov_strncmp
#include "common/lib/string.c"
#include "common/lib/memcpy_check.h"

static void test_memcpy_alignments(void **state)
{
	(void)state;
	struct memcpy_bad b;
	if (!memcpy_check(kov_memcpy, &b))
		fail_msg("memcpy(dst+%u, src+%u, %u): byte %d is %#x, not %#x (-1: the pointer returned)",
			 b.dst_off, b.src_off, b.len, b.byte, b.got, b.want);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_alignments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

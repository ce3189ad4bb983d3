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

static void test_memcpy_alignments(void **state)
{
	(void)state;
	_Alignas(8) unsigned char src[128], dst[128];
	for (unsigned i = 0; i < sizeof src; i++)
		src[i] = (unsigned char)(i * 37 + 11);
	for (unsigned so = 0; so < 16; so++)
		for (unsigned dof = 0; dof < 16; dof++)
			for (unsigned n = 0; n <= 80; n++) {
				for (unsigned i = 0; i < sizeof dst; i++)
					dst[i] = 0xEE;
				assert_ptr_equal(kov_memcpy(dst + dof, src + so, n), dst + dof);
				for (unsigned i = 0; i < sizeof dst; i++) {
					unsigned char want = i >= dof && i < dof + n ? src[so + i - dof] : 0xEE;
					if (dst[i] != want)
						fail_msg("memcpy(dst+%u, src+%u, %u): byte %u is %#x, not %#x",
							 dof, so, n, i, dst[i], want);
				}
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_memcpy_alignments),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

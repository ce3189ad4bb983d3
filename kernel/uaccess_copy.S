/* The only kernel code allowed to fault on user addresses it cannot resolve: on such a fault
 * the handler resumes at uaccess_failed, which returns -14 (-KOV_EFAULT). */
#include "asm.h"

	.text
	.globl uaccess_code_start
uaccess_code_start:

/* long uaccess_copy(void *dst, const void *src, uint64_t len): 0 or -14. */
FUNC(uaccess_copy)
	cmpdi	r5, 0
	beq	2f
	mtctr	r5
1:	lbz	r6, 0(r4)
	stb	r6, 0(r3)
	addi	r3, r3, 1
	addi	r4, r4, 1
	bdnz	1b
2:	li	r3, 0
	blr
ENDFUNC(uaccess_copy)

/* long uaccess_strncpy(char *dst, const char *src, uint64_t max): length, -14, or -22. */
FUNC(uaccess_strncpy)
	li	r7, 0
1:	cmpld	r7, r5
	bge	3f
	lbzx	r6, r4, r7
	stbx	r6, r3, r7
	cmpdi	r6, 0
	beq	2f
	addi	r7, r7, 1
	b	1b
2:	mr	r3, r7
	blr
3:	li	r3, -22
	blr
ENDFUNC(uaccess_strncpy)

	.globl uaccess_code_end
uaccess_code_end:

	.globl uaccess_failed
uaccess_failed:
	li	r3, -14
	blr

/* The only kernel code allowed to fault on user addresses it cannot resolve: on such a fault
 * the handler resumes at uaccess_failed, which returns -14 (-KOV_EFAULT). */
#include "asm.h"

	.text
	.globl uaccess_code_start
uaccess_code_start:

/* long uaccess_copy(void *dst, const void *src, uint64_t len): 0 or -14. Doublewords when
 * source and destination share their alignment (bulk socket data), bytes otherwise. */
FUNC(uaccess_copy)
	cmpdi	r5, 0
	beq	5f
	xor	r6, r3, r4
	andi.	r6, r6, 7
	bne	3f
1:	andi.	r6, r3, 7		/* bytes up to an 8-byte boundary */
	beq	2f
	lbz	r6, 0(r4)
	stb	r6, 0(r3)
	addi	r3, r3, 1
	addi	r4, r4, 1
	addic.	r5, r5, -1
	beq	5f
	b	1b
2:	srdi.	r6, r5, 5		/* 32-byte blocks */
	beq	7f
	mtctr	r6
6:	ld	r7, 0(r4)
	ld	r8, 8(r4)
	ld	r9, 16(r4)
	ld	r10, 24(r4)
	std	r7, 0(r3)
	std	r8, 8(r3)
	std	r9, 16(r3)
	std	r10, 24(r3)
	addi	r3, r3, 32
	addi	r4, r4, 32
	bdnz	6b
	andi.	r5, r5, 31
	beq	5f
7:	srdi.	r6, r5, 3		/* doublewords left */
	beq	3f
	mtctr	r6
8:	ld	r7, 0(r4)
	std	r7, 0(r3)
	addi	r3, r3, 8
	addi	r4, r4, 8
	bdnz	8b
	andi.	r5, r5, 7
	beq	5f
3:	mtctr	r5
4:	lbz	r6, 0(r4)
	stb	r6, 0(r3)
	addi	r3, r3, 1
	addi	r4, r4, 1
	bdnz	4b
5:	li	r3, 0
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

/* long uaccess_words32(uint32_t *dst, const uint32_t *src, uint64_t n): n >= 1 aligned words
 * (instructions); 0 or -14. For the monitor's stack walker (with uaccess_nofault set). */
FUNC(uaccess_words32)
	mtctr	r5
1:	lwz	r6, 0(r4)
	stw	r6, 0(r3)
	addi	r4, r4, 4
	addi	r3, r3, 4
	bdnz	1b
	li	r3, 0
	blr
ENDFUNC(uaccess_words32)

	.globl uaccess_code_end
uaccess_code_end:

	.globl uaccess_failed
uaccess_failed:
	li	r3, -14
	blr

/* void switch_context(struct context *from, struct context *to): saves the caller's
 * non-volatile state in *from and resumes *to (which returns from its own switch_context call,
 * or starts a new thread at the LR prepared for it). Layout: kernel/proc/thread.h, struct context. */
#include "asm.h"

#define CTX_R1  0
#define CTX_R2  8
#define CTX_LR  16
#define CTX_CR  24
#define CTX_GPR 32

	.text
FUNC(switch_context)
	std	r1, CTX_R1(r3)
	std	r2, CTX_R2(r3)
	mflr	r0
	std	r0, CTX_LR(r3)
	mfcr	r0
	std	r0, CTX_CR(r3)
	.irp n, 14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	std	r\n, CTX_GPR+(\n-14)*8(r3)
	.endr
	ld	r1, CTX_R1(r4)
	ld	r2, CTX_R2(r4)
	ld	r0, CTX_LR(r4)
	mtlr	r0
	ld	r0, CTX_CR(r4)
	mtcr	r0
	.irp n, 14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	r\n, CTX_GPR+(\n-14)*8(r4)
	.endr
	blr
ENDFUNC(switch_context)

/* First code of a new thread: switch_context "returns" here with r14 = the thread. */
	.globl thread_start_asm
thread_start_asm:
	mr	r3, r14
	li	r0, 0
	stdu	r0, -STACK_FRAME_MIN(r1)	/* ends back-chain walks */
	bl	thread_start
	nop
	b	.

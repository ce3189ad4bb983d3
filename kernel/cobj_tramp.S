/* The default method table of clustered objects: CO_MAX_METHODS function descriptors that all
 * enter co_miss_trampoline, each with its method index in the descriptor's environment word
 * (ELFv1 loads it into r11 on every call through a function pointer). */
#include "asm.h"

#define CO_MAX_METHODS 32
#define FRAME (STACK_FRAME_MIN + 8 * 8)

	.section .data.rel.ro, "aw"
	.align 3
co_miss_descriptors:
	.set i, 0
	.rept CO_MAX_METHODS
	.quad co_miss_trampoline, .TOC.@tocbase, i
	.set i, i + 1
	.endr

	.globl co_default_ops
co_default_ops:
	.set i, 0
	.rept CO_MAX_METHODS
	.quad co_miss_descriptors + 24 * i
	.set i, i + 1
	.endr

	.text
	.globl co_miss_trampoline
/* In: r3 = the missing LTT entry's miss_ops word (entry + 8), r4-r10 = the call's arguments,
 * r11 = method index, LR = the original caller. Installs this CPU's rep and tail-calls the
 * method with r3 = rep and r4-r10 as they were, so it returns straight to the caller. */
co_miss_trampoline:
	mflr	r0
	std	r0, 16(r1)
	stdu	r1, -FRAME(r1)
	std	r4, STACK_FRAME_MIN + 0(r1)
	std	r5, STACK_FRAME_MIN + 8(r1)
	std	r6, STACK_FRAME_MIN + 16(r1)
	std	r7, STACK_FRAME_MIN + 24(r1)
	std	r8, STACK_FRAME_MIN + 32(r1)
	std	r9, STACK_FRAME_MIN + 40(r1)
	std	r10, STACK_FRAME_MIN + 48(r1)
	std	r11, STACK_FRAME_MIN + 56(r1)
	subi	r3, r3, 8
	mr	r4, r11
	bl	co_handle_miss
	nop
	ld	r11, STACK_FRAME_MIN + 56(r1)
	ld	r4, STACK_FRAME_MIN + 0(r1)
	ld	r5, STACK_FRAME_MIN + 8(r1)
	ld	r6, STACK_FRAME_MIN + 16(r1)
	ld	r7, STACK_FRAME_MIN + 24(r1)
	ld	r8, STACK_FRAME_MIN + 32(r1)
	ld	r9, STACK_FRAME_MIN + 40(r1)
	ld	r10, STACK_FRAME_MIN + 48(r1)
	ld	r12, 0(r3)		/* rep->ops */
	sldi	r11, r11, 3
	ldx	r12, r12, r11		/* ops[method]: a function descriptor */
	addi	r1, r1, FRAME
	ld	r0, 16(r1)
	mtlr	r0
	ld	r0, 0(r12)
	ld	r2, 8(r12)
	ld	r11, 16(r12)
	mtctr	r0
	bctr
	.size co_miss_trampoline, . - co_miss_trampoline

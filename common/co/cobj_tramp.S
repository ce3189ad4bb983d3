/* The shared default method table of clustered objects: CO_MAX_METHODS function descriptors
 * whose environment word (which ELFv1 loads into r11 on every call through a function
 * pointer) is the method index, all entering co_miss_trampoline (empty LTT entries); and the
 * entry of counted reps' method tables, co_count_fast. */
#include "common/lib/elfv1_asm.h"
#include "kernel/abi/kov_instr.h"

#define CO_MAX_METHODS 32
#define FRAME (STACK_FRAME_MIN + 10 * 8)

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

/* The miss trampoline keeps the call's arguments (r3-r10) and the method index (r11) in a frame
 * while C decides where the call goes, then tail-call the method so that it returns straight
 * to the original caller (LR untouched). */
#define SAVE_CALL                                  \
	mflr	r0;                                \
	std	r0, 16(r1);                        \
	stdu	r1, -FRAME(r1);                    \
	std	r4, STACK_FRAME_MIN + 0(r1);       \
	std	r5, STACK_FRAME_MIN + 8(r1);       \
	std	r6, STACK_FRAME_MIN + 16(r1);      \
	std	r7, STACK_FRAME_MIN + 24(r1);      \
	std	r8, STACK_FRAME_MIN + 32(r1);      \
	std	r9, STACK_FRAME_MIN + 40(r1);      \
	std	r10, STACK_FRAME_MIN + 48(r1);     \
	std	r11, STACK_FRAME_MIN + 56(r1);     \
	std	r3, STACK_FRAME_MIN + 64(r1)

/* In: r12 = the method table to dispatch through, r3 = the rep. */
#define RESTORE_AND_DISPATCH                       \
	ld	r11, STACK_FRAME_MIN + 56(r1);     \
	ld	r4, STACK_FRAME_MIN + 0(r1);       \
	ld	r5, STACK_FRAME_MIN + 8(r1);       \
	ld	r6, STACK_FRAME_MIN + 16(r1);      \
	ld	r7, STACK_FRAME_MIN + 24(r1);      \
	ld	r8, STACK_FRAME_MIN + 32(r1);      \
	ld	r9, STACK_FRAME_MIN + 40(r1);      \
	ld	r10, STACK_FRAME_MIN + 48(r1);     \
	sldi	r11, r11, 3;                       \
	ldx	r12, r12, r11;                     \
	addi	r1, r1, FRAME;                     \
	ld	r0, 16(r1);                        \
	mtlr	r0;                                \
	ld	r0, 0(r12);                        \
	ld	r2, 8(r12);                        \
	ld	r11, 16(r12);                      \
	mtctr	r0;                                \
	bctr

	.text
	.globl co_miss_trampoline
/* In: r3 = the missing LTT entry's miss_ops word (entry + 8), r4-r10 = the call's arguments,
 * r11 = method index, LR = the original caller. co_handle_miss installs this CPU's rep and
 * returns it; the call goes on with r3 = rep through the rep's own method table. */
co_miss_trampoline:
	SAVE_CALL
	subi	r3, r3, 8
	mr	r4, r11
	bl	co_handle_miss
	nop
	ld	r12, 0(r3)		/* rep->ops */
	RESTORE_AND_DISPATCH
	.size co_miss_trampoline, . - co_miss_trampoline

/* Invocation counting (common/co/co_count.c): a counted rep's method table is its own, whose
 * descriptors all enter here with r11 = that method's cell { calls, real entry } and r2 the
 * real method's TOC (the descriptor carries it). Counts the call atomically (a shared rep is
 * called from every CPU) and jumps to the real method with the caller's arguments and LR
 * untouched: seven instructions. */
#if KOV_CALL_INSTR   /* compiled out: kernel/abi/kov_instr.h */
FUNC(co_count_fast)
1:	ldarx	r0, 0, r11
	addic	r0, r0, 1		/* not addi: with r0 that would mean 0 + 1 (CA is volatile) */
	stdcx.	r0, 0, r11
	bne-	1b
	ld	r0, 8(r11)		/* the real entry */
	mtctr	r0
	bctr
ENDFUNC(co_count_fast)
#endif

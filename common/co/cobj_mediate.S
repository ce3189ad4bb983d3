/* The hot-swap mediator's stub (common/co/cobj_swap.c): every method of an object being
 * swapped enters here, through the mediator's table, with r3 = the mediator, r4-r10 = the
 * call's arguments and r11 = the method's cell. Unlike the miss trampoline it keeps a frame
 * for the whole call: co_mediate_enter picks the rep (waiting in the block phase), the method
 * runs, and co_mediate_exit counts the call out. Methods take at most 7 arguments after the
 * rep, all in registers, and return one word: the frame hides nothing they need. The
 * method's CO_METHOD stub stores its rep in this frame's parameter save area, as in any
 * caller's, so the stack walkers see the call as an ordinary one. */
#include "common/lib/elfv1_asm.h"

#define ARGS	STACK_FRAME_MIN			/* r4-r10 */
#define CELL	(STACK_FRAME_MIN + 56)
#define TRACKED	(STACK_FRAME_MIN + 64)
#define RESULT	(STACK_FRAME_MIN + 72)
#define FRAME	(STACK_FRAME_MIN + 80)

	.text
FUNC(co_mediate)
	mflr	r0
	std	r0, 16(r1)
	stdu	r1, -FRAME(r1)
	std	r2, 40(r1)
	.irp n, 4, 5, 6, 7, 8, 9, 10
	std	r\n, ARGS + 8 * (\n - 4)(r1)
	.endr
	std	r11, CELL(r1)
	mr	r3, r11
	addi	r4, r1, TRACKED
	bl	co_mediate_enter
	nop
	ld	r2, 40(r1)
	ld	r11, CELL(r1)
	ld	r12, 8(r11)		/* the method's index */
	sldi	r12, r12, 3
	ld	r0, 0(r3)		/* the chosen rep's method table */
	ldx	r12, r12, r0		/* its descriptor for the method */
	.irp n, 4, 5, 6, 7, 8, 9, 10
	ld	r\n, ARGS + 8 * (\n - 4)(r1)
	.endr
	ld	r0, 0(r12)
	mtctr	r0
	ld	r2, 8(r12)
	ld	r11, 16(r12)
	bctrl
	ld	r2, 40(r1)
	std	r3, RESULT(r1)
	ld	r3, CELL(r1)
	ld	r4, TRACKED(r1)
	bl	co_mediate_exit
	nop
	ld	r3, RESULT(r1)
	addi	r1, r1, FRAME
	ld	r0, 16(r1)
	mtlr	r0
	blr
ENDFUNC(co_mediate)

/* PAPR hypervisor calls (pseries). */
#include "asm.h"

	.text
/* long hcall(uint64_t opcode, uint64_t a1, ..., uint64_t a6): r3 = opcode, r4-r9 = arguments;
 * returns the hypervisor's status in r3. */
FUNC(hcall)
	sc	1
	blr
ENDFUNC(hcall)

/* long hcall_cede(uint64_t *sp): H_CEDE with interrupts off on entry and on return, and its own
 * return address (hcall_cede_return); *sp = the stack pointer there. A CPU found halted at an
 * interrupt vector right after it, or caught by a reset in the entry of the interrupt taken
 * there, is resumed there (wake_guard.c). */
FUNC(hcall_cede)
	std	r1, 0(r3)
	li	r3, 0xE0		/* H_CEDE */
	sc	1
	/* H_CEDE returns with MSR[EE] on: an interrupt pending is taken here, at this address,
	 * and nowhere else, since interrupts go off again at once. */
	.globl hcall_cede_return
hcall_cede_return:
	li	r0, MSR_RI
	mtmsrd	r0, 1
	blr
ENDFUNC(hcall_cede)

/* long hcall8(uint64_t opcode, uint64_t a1, ..., uint64_t a8): r4-r11 = arguments; a8, the
 * ninth parameter, is in the caller's parameter save area (ELFv1: 112(r1)). */
FUNC(hcall8)
	ld	r11, 112(r1)
	sc	1
	blr
ENDFUNC(hcall8)

/* long hcall_out(uint64_t out[3], uint64_t opcode, uint64_t a1, uint64_t a2, uint64_t a3,
 *                uint64_t a4): as hcall, and stores the returned r4-r6 in out[]. */
FUNC(hcall_out)
	std	r3, -8(r1)		/* below the stack pointer: inside this leaf's protected zone */
	mr	r3, r4
	mr	r4, r5
	mr	r5, r6
	mr	r6, r7
	mr	r7, r8
	sc	1
	ld	r12, -8(r1)
	std	r4, 0(r12)
	std	r5, 8(r12)
	std	r6, 16(r12)
	blr
ENDFUNC(hcall_out)

/* Image header and exception vectors, placed at physical 0 (link address KERNEL_BASE).
 *
 * Every vector saves r9-r11 and CR into the per-CPU scratch area (SPRG0 points at it, SPRG1 holds
 * the interrupted r13) and branches to exc_common, which builds a struct trap_frame on the
 * current stack and calls exception_dispatch(). The boot CPU of the pseries machine is started at
 * 0x100 with SPRG0 still zero; that is how a cold boot is told from a system-reset interrupt. */
#include "asm.h"
#include "asm_offsets.h"

	.section .head.vectors, "ax"
	.globl _start
_start:
	b	of_entry		/* Open Firmware (OpenBIOS, Apple OF) jumps to the load base */

	.balign 8
	.globl kov_image_magic
kov_image_magic:
	.ascii	"KOV-IMG1"
	/* Set by start_64 (at physical 0x10): after it, a CPU reaching 0x100 with SPRG0 still zero
	 * is one that was never started, hit by an NMI, not the boot CPU. */
	.globl kov_booted
kov_booted:
	.long	0

#define VECTOR_STUB(num)                       \
	mtspr	SPRN_SPRG1, r13;               \
	mfspr	r13, SPRN_SPRG0;               \
	std	r9, PC_SCRATCH0(r13);          \
	std	r10, PC_SCRATCH1(r13);         \
	std	r11, PC_SCRATCH2(r13);         \
	mfcr	r9;                            \
	li	r10, num;                      \
	b	exc_common

	. = 0x100
	mtspr	SPRN_SPRG1, r13
	mfcr	r13
	mtspr	SPRN_SPRG2, r13
	mfspr	r13, SPRN_SPRG0
	cmpdi	r13, 0
	beq	reset_without_percpu	/* cold boot (r3 = FDT from QEMU) or an unstarted CPU */
	std	r9, PC_SCRATCH0(r13)
	mfspr	r9, SPRN_SPRG2
	mtcr	r9
	std	r10, PC_SCRATCH1(r13)
	std	r11, PC_SCRATCH2(r13)
	mfcr	r9
	li	r10, 0x100
	b	exc_common

	. = 0x200
	VECTOR_STUB(0x200)	/* machine check */
	. = 0x300
	VECTOR_STUB(0x300)	/* data storage */
	. = 0x380
	VECTOR_STUB(0x380)	/* data segment */
	. = 0x400
	VECTOR_STUB(0x400)	/* instruction storage */
	. = 0x480
	VECTOR_STUB(0x480)	/* instruction segment */
	. = 0x500
	VECTOR_STUB(0x500)	/* external */
	. = 0x600
	VECTOR_STUB(0x600)	/* alignment */
	. = 0x700
	VECTOR_STUB(0x700)	/* program */
	. = 0x800
	VECTOR_STUB(0x800)	/* floating-point unavailable */
	. = 0x900
	VECTOR_STUB(0x900)	/* decrementer */
	. = 0x980
	VECTOR_STUB(0x980)	/* hypervisor decrementer */
	. = 0xa00
	VECTOR_STUB(0xa00)
	. = 0xb00
	VECTOR_STUB(0xb00)
	. = 0xc00
	VECTOR_STUB(0xc00)	/* system call */
	. = 0xd00
	VECTOR_STUB(0xd00)	/* trace */
	. = 0xe00
	VECTOR_STUB(0xe00)
	. = 0xf00		/* performance monitor: at most 8 instructions before 0xf20 */
	mtspr	SPRN_SPRG1, r13
	mfspr	r13, SPRN_SPRG0
	std	r11, PC_SCRATCH2(r13)
	mfcr	r11
	std	r11, PC_SCRATCH1(r13)	/* CR: r9 and r10 stay as they were (SAVE_VOLATILE pmu=1) */
	b	pmu_common
	. = 0xf20
	VECTOR_STUB(0xf20)	/* vector (AltiVec) unavailable */
	. = 0x1300
	VECTOR_STUB(0x1300)	/* instruction address breakpoint */
	. = 0x1600
	VECTOR_STUB(0x1600)	/* 970: maintenance */
	. = 0x1700
	VECTOR_STUB(0x1700)	/* 970: VMX assist */
	. = 0x1800
	VECTOR_STUB(0x1800)	/* 970: thermal */
	. = 0x1900

/* Builds a trap frame on the kernel stack (entered from user mode) or below the interrupted
 * frame (from the kernel) holding what a C call may clobber: r0-r13, CR, LR, CTR, XER, SRR0/1,
 * and the vector. In: r13 = per-CPU area, r9 = CR, r10 = vector, scratch[0..2] = r9..r11,
 * SPRG1 = r13 of the interrupted code. Out: r1 = the frame (the trap frame STACK_FRAME_MIN
 * above it). pmu=1, the performance monitor's entry, which saves fewer registers through the
 * scratch area: r9 and r10 are the interrupted code's, scratch[1] = CR, scratch[2] = r11, and
 * the vector is not stored (nothing on that path reads it). */
.macro SAVE_VOLATILE pmu=0
	mfsrr1	r11
	andi.	r11, r11, MSR_PR	/* CR is already saved */
	mr	r11, r1
	beq	1f
	ld	r1, PC_KSTACK_TOP(r13)	/* from user mode: the thread's kernel stack */
	b	2f
1:	subi	r1, r1, STACK_RED_ZONE	/* from the kernel: below the interrupted frame */
2:	clrrdi	r1, r1, 4
	stdu	r11, -(STACK_FRAME_MIN + TF_SIZE)(r1)
	std	r0,  TF_GPR0+0*8+STACK_FRAME_MIN(r1)
	std	r11, TF_GPR0+1*8+STACK_FRAME_MIN(r1)
	.irp n, 2,3,4,5,6,7,8,12
	std	r\n, TF_GPR0+\n*8+STACK_FRAME_MIN(r1)
	.endr
	.if \pmu
	std	r9,  TF_GPR0+9*8+STACK_FRAME_MIN(r1)
	std	r10, TF_GPR0+10*8+STACK_FRAME_MIN(r1)
	ld	r11, PC_SCRATCH1(r13)
	std	r11, TF_CR+STACK_FRAME_MIN(r1)
	.else
	ld	r11, PC_SCRATCH0(r13)
	std	r11, TF_GPR0+9*8+STACK_FRAME_MIN(r1)
	ld	r11, PC_SCRATCH1(r13)
	std	r11, TF_GPR0+10*8+STACK_FRAME_MIN(r1)
	std	r9,  TF_CR+STACK_FRAME_MIN(r1)
	std	r10, TF_VECTOR+STACK_FRAME_MIN(r1)
	.endif
	ld	r11, PC_SCRATCH2(r13)
	std	r11, TF_GPR0+11*8+STACK_FRAME_MIN(r1)
	mfspr	r11, SPRN_SPRG1
	std	r11, TF_GPR0+13*8+STACK_FRAME_MIN(r1)
	mfsrr0	r11
	std	r11, TF_NIP+STACK_FRAME_MIN(r1)
	std	r11, 16(r1)		/* LR save slot: lets a back-chain walk see the interrupted PC */
	mfsrr1	r11
	std	r11, TF_MSR+STACK_FRAME_MIN(r1)
	mflr	r11
	std	r11, TF_LR+STACK_FRAME_MIN(r1)
	mfctr	r11
	std	r11, TF_CTR+STACK_FRAME_MIN(r1)
	mfxer	r11
	std	r11, TF_XER+STACK_FRAME_MIN(r1)
.endm

/* Returns to the state in the trap frame at r1 + STACK_FRAME_MIN: what SAVE_VOLATILE saved
 * (r14-r31 are the caller's to reload). Translation goes off first, so no miss can clobber
 * SRR0/SRR1 between loading them and rfid. */
/* clear_pow: return with MSR[POW] clear (never back into a nap, as exception_dispatch does). */
.macro RESTORE_VOLATILE_RFID clear_pow=0
	li	r11, 1
	rldicr	r11, r11, MSR_SF_BIT, 0
	ori	r11, r11, MSR_ME
	mtmsrd	r11
	isync
	/* Drop any reservation: a thread switched out between its lwarx and stwcx. must not
	 * have its stwcx. succeed after another thread on this CPU stored to the word. */
	addi	r11, r13, PC_SCRATCH0
	stdcx.	r0, 0, r11
	ld	r11, TF_CR+STACK_FRAME_MIN(r1)
	mtcr	r11
	ld	r11, TF_LR+STACK_FRAME_MIN(r1)
	mtlr	r11
	ld	r11, TF_CTR+STACK_FRAME_MIN(r1)
	mtctr	r11
	ld	r11, TF_XER+STACK_FRAME_MIN(r1)
	mtxer	r11
	ld	r11, TF_NIP+STACK_FRAME_MIN(r1)
	mtsrr0	r11
	ld	r11, TF_MSR+STACK_FRAME_MIN(r1)
	.if \clear_pow
	lis	r12, MSR_POW >> 16	/* r12 is loaded below */
	andc	r11, r11, r12
	.endif
	mtsrr1	r11
	.irp n, 0,2,3,4,5,6,7,8,9,10,12,13
	ld	r\n, TF_GPR0+\n*8+STACK_FRAME_MIN(r1)
	.endr
	ld	r11, TF_GPR0+11*8+STACK_FRAME_MIN(r1)
	ld	r1,  TF_GPR0+1*8+STACK_FRAME_MIN(r1)
	rfid
.endm

/* Shared tail of every vector but the performance monitor's: the whole register state (the
 * handler may switch threads). In as SAVE_VOLATILE's. */
exc_common:
	SAVE_VOLATILE
	.irp n, 14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	std	r\n, TF_GPR0+\n*8+STACK_FRAME_MIN(r1)
	.endr
	mfdar	r11
	std	r11, TF_DAR+STACK_FRAME_MIN(r1)
	mfdsisr	r11
	std	r11, TF_DSISR+STACK_FRAME_MIN(r1)
	/* Continue at the link address: the vector ran at its physical address, and a handler
	 * that switches threads may be resumed later with translation on. */
	LOAD_ADDR(r11, 1f)
	mtctr	r11
	bctr
1:	li	r11, MSR_RI		/* SRR0/1 are saved: a system reset here is recoverable */
	mtmsrd	r11, 1
	LOAD_TOC(r2)
	addi	r3, r1, STACK_FRAME_MIN
	bl	exception_dispatch
	nop

	/* Return to the (possibly modified) state in the trap frame. */
	.globl exc_return
exc_return:
	.irp n, 14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	r\n, TF_GPR0+\n*8+STACK_FRAME_MIN(r1)
	.endr
	RESTORE_VOLATILE_RFID

/* The performance-monitor interrupt's own entry (the monitor's sampler, kov/km_sampler.c:
 * km_pmu_interrupt). The handler returns to the code it interrupted, never switching threads,
 * so only what a C call may clobber is saved: the volatile registers, CR, LR, CTR, XER and
 * SRR0/1 (SAVE_VOLATILE), in a trap frame laid out as exc_common's (r14-r31, DAR, DSISR and
 * the vector left unset: the ABI keeps r14-r31, and the handler reads only the PC, MSR, LR and
 * r1). Nor does it take exception_dispatch's way back (the end-of-exception checks a sample
 * never needs): about 100 instructions a sample less. Input: SAVE_VOLATILE pmu=1's. */
pmu_common:
	mftb	r11			/* the handler's cost is counted from here (r11 is saved) */
	std	r11, PC_PMU_ENTRY_TB(r13)
	SAVE_VOLATILE pmu=1
	/* On at the link address with translation on (as exception_dispatch turns it on), in one
	 * rfid: SRR0 and SRR1 are saved. The address in three instructions instead of LOAD_ADDR's
	 * five: this file's code lies in the kernel's first 16 KiB (". = 0x4000" at its end fails
	 * otherwise), whose link addresses are KERNELBASE's top 16 bits and a 16-bit offset. */
	lis	r11, 1f@highest
	rldicr	r11, r11, 32, 31
	ori	r11, r11, 1f@l
	mtsrr0	r11
	mfmsr	r11
	ori	r11, r11, MSR_IR | MSR_DR | MSR_RI	/* RI: SRR0/1 are saved */
	mtsrr1	r11
	rfid
1:	ld	r2, PC_KERNEL_TOC(r13)	/* one load instead of LOAD_TOC's five */
	addi	r3, r1, STACK_FRAME_MIN
	bl	km_pmu_interrupt
	nop
	RESTORE_VOLATILE_RFID clear_pow=1

/* void enter_user(struct trap_frame *tf): leaves the kernel through the exception return path
 * with the state in tf (a new user thread's first entry). tf must sit STACK_FRAME_MIN bytes
 * above a 16-byte aligned stack pointer, as exc_common builds it. */
FUNC(enter_user)
	subi	r1, r3, STACK_FRAME_MIN
	b	exc_return
ENDFUNC(enter_user)
	. = 0x4000

/* Boot entry paths. All of them end in start_64 with r3 = flattened device tree:
 *  - cold_boot:  pseries started without firmware at 0x100 (image already at physical 0,
 *                r3 = FDT from QEMU, MSR possibly in 32-bit mode);
 *  - of_entry:   Open Firmware (mac99's OpenBIOS or a real G5) jumped to the load base with
 *                r5 = client interface; the image moves itself to physical 0, flattens the
 *                firmware's device tree (ofstage.c) and only then takes over the vectors;
 *  - secondary_entry: further CPUs started by RTAS start-cpu with r3 = logical CPU number. */
#include "asm.h"
#include "asm_offsets.h"

/* Build an MSR of SF | ME (64-bit, machine checks on, translation and interrupts off). */
#define MSR_KERNEL_REAL(reg)          \
	li	reg, 1;               \
	rldicr	reg, reg, MSR_SF_BIT, 0; \
	ori	reg, reg, MSR_ME

	.section .text.boot, "ax"

#define KOV_BOOTED_PHYS 0x10		/* kov_booted in boot/vectors.S */

	.globl reset_without_percpu
reset_without_percpu:
	lwz	r13, KOV_BOOTED_PHYS(0)
	cmpwi	r13, 0
	bne	park			/* an NMI reached a CPU the kernel never started */
	li	r4, 0			/* cold boot: device tree from the machine, BSS not yet cleared */
	b	start_64

park:	or	1, 1, 1			/* low thread priority; interrupts stay off */
	b	park

/* r3 = FDT, r4 = 1 if the BSS is already cleared (the Open Firmware path). */
start_64:
	MSR_KERNEL_REAL(r11)
	mtmsrd	r11
	isync
	li	r11, 1
	stw	r11, KOV_BOOTED_PHYS(0)
	LOAD_ADDR(r11, 1f)		/* continue at the link address */
	mtctr	r11
	bctr
1:	LOAD_TOC(r2)
	LOAD_ADDR(r1, boot_stack_top)
	cmpdi	r4, 0
	bne	2f
	bl	clear_bss
2:	li	r0, 0
	stdu	r0, -STACK_FRAME_MIN(r1)	/* zero back chain ends stack walks */
	bl	kmain
	nop
	b	.

/* Clears [__bss_start, __bss_end); both are 256-byte aligned. Uses r5-r7. */
clear_bss:
	LOAD_ADDR(r5, __bss_start)
	LOAD_ADDR(r6, __bss_end)
	subf	r6, r5, r6
	srdi.	r6, r6, 3
	beqlr
	mtctr	r6
	li	r7, 0
	subi	r5, r5, 8
3:	stdu	r7, 8(r5)
	bdnz	3b
	blr

	.globl secondary_entry
secondary_entry:
	MSR_KERNEL_REAL(r11)
	mtmsrd	r11
	isync
	LOAD_ADDR(r11, 1f)
	mtctr	r11
	bctr
1:	LOAD_TOC(r2)
	LOAD_ADDR(r13, percpu_area)
	mulli	r12, r3, PERCPU_SIZE
	add	r13, r13, r12
	ld	r1, PC_STACK_TOP(r13)
	li	r0, 0
	stdu	r0, -STACK_FRAME_MIN(r1)
	bl	secondary_main
	nop
	b	.

/* Open Firmware entry. r5 = client interface entry; the MSR is the firmware's (32-bit, maybe
 * translated 1:1). Registers: r30 = load base, r31 = client interface, r29 = firmware MSR. */
	.globl of_entry
of_entry:
	bl	1f
1:	mflr	r30
	LOAD_ADDR(r11, 1b)
	LOAD_ADDR(r12, _image_start)
	subf	r11, r12, r11
	subf	r30, r11, r30		/* r30 = where the firmware put us */
	clrldi	r30, r30, 32
	mr	r31, r5
	mfmsr	r29
	/* Switch to 64-bit real mode at the load address (the firmware maps RAM 1:1). */
	LOAD_ADDR(r11, of_real)
	subf	r11, r12, r11
	add	r11, r11, r30
	mtsrr0	r11
	MSR_KERNEL_REAL(r11)
	mtsrr1	r11
	rfid

of_real:
	/* Copy everything above the vectors to its physical link address; the firmware still
	 * needs the vectors at 0 until it is done. Forward copy is safe: the target is lower. */
	LOAD_ADDR(r12, _image_start)
	LOAD_ADDR(r11, _image_end)
	subf	r11, r12, r11		/* image size */
	li	r3, 0x4000
	add	r4, r30, r3
	subf	r5, r3, r11
	bl	copy_and_sync
	LOAD_ADDR(r11, 1f)		/* run from the copy, at the link address */
	mtctr	r11
	bctr
1:	LOAD_TOC(r2)
	LOAD_ADDR(r1, boot_stack_top)
	bl	clear_bss
	li	r0, 0
	stdu	r0, -STACK_FRAME_MIN(r1)
	mr	r3, r31
	mr	r4, r29
	bl	of_stage		/* returns the flattened tree, or 0 */
	nop
	mr	r28, r3
	/* The firmware is done: take over the vectors. */
	li	r3, 0
	mr	r4, r30
	li	r5, 0x4000
	bl	copy_and_sync
	mr	r3, r28
	li	r4, 1
	b	start_64

/* copy_and_sync(r3 = dst, r4 = src, r5 = bytes, multiple of 128): copies and makes the
 * instruction cache coherent with the new code. Uses r6-r8, ctr. Real mode, physical. */
copy_and_sync:
	cmpld	r3, r4
	beqlr
	srdi	r6, r5, 3
	mtctr	r6
	subi	r7, r3, 8
	subi	r8, r4, 8
2:	ldu	r6, 8(r8)
	stdu	r6, 8(r7)
	bdnz	2b
	srdi	r6, r5, 7		/* 128-byte cache lines on the 970 */
	mtctr	r6
	mr	r7, r3
3:	dcbst	0, r7
	addi	r7, r7, 128
	bdnz	3b
	sync
	mtctr	r6
	mr	r7, r3
4:	icbi	0, r7
	addi	r7, r7, 128
	bdnz	4b
	sync
	isync
	blr

/* uint32_t of_call(uint32_t args_phys, uint64_t entry, uint64_t fw_msr):
 * calls the client interface in the firmware's own mode (32-bit, its translation) and comes
 * back to 64-bit real mode. The firmware may clobber the upper halves of every register, so
 * all non-volatile state is kept in memory. */
#define OFC_FRAME (STACK_FRAME_MIN + 22 * 8)
FUNC(of_call)
	mflr	r0
	std	r0, 16(r1)
	stdu	r1, -OFC_FRAME(r1)
	std	r2, STACK_FRAME_MIN(r1)
	.irp n, 13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	std	r\n, STACK_FRAME_MIN+(\n-12)*8(r1)
	.endr
	std	r1, STACK_FRAME_MIN+20*8(r1)	/* our own r1, restored after the call */
	mfcr	r0
	std	r0, STACK_FRAME_MIN+21*8(r1)
	mtsrr0	r4
	mtsrr1	r5
	LOAD_ADDR(r0, of_return)
	clrldi	r0, r0, 32		/* physical: the firmware runs 32-bit */
	mtlr	r0
	clrldi	r1, r1, 32
	rfid
of_return:
	MSR_KERNEL_REAL(r4)
	mtsrr1	r4
	LOAD_ADDR(r4, 1f)
	mtsrr0	r4
	rfid
1:	clrldi	r1, r1, 32		/* physical alias of our frame; reload the link form */
	ld	r1, STACK_FRAME_MIN+20*8(r1)
	ld	r2, STACK_FRAME_MIN(r1)
	.irp n, 13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
	ld	r\n, STACK_FRAME_MIN+(\n-12)*8(r1)
	.endr
	ld	r0, STACK_FRAME_MIN+21*8(r1)
	mtcr	r0
	clrldi	r3, r3, 32
	addi	r1, r1, OFC_FRAME
	ld	r0, 16(r1)
	mtlr	r0
	blr
ENDFUNC(of_call)

	.section .bss
	.balign 16
boot_stack:
	.space	32768
	.globl boot_stack_top
boot_stack_top:

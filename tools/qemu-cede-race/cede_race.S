/* A minimal pseries guest that shows QEMU's H_CEDE race (docs/architecture.md, "Idle and
 * wake-ups"). Loaded with -bios at 0, started at 0x100, one CPU. It loops: interrupts off,
 * decrementer due in 1-1024 timebase ticks (2 us at most), H_CEDE. H_CEDE turns MSR[EE] on and
 * halts the CPU unless an interrupt is already pending; the decrementer then ends the cede
 * (its handler pushes the decrementer far away). Every 256 cedes it prints a dot.
 *
 * With QEMU 10.0 the dots stop within seconds and the CPU stays at 0x900, MSR[EE] off, its
 * decrementer long expired: the interrupt became pending after h_cede() had halted the CPU and
 * was delivered in the same pass of the CPU loop, which left the CPU halted; with EE off it
 * never has work again. A correct cede would wake, take the 0x900 handler and go on.
 *
 * With `race=watchdog` behaviour (the symbol WATCHDOG defined), H_WATCHDOG is armed with a
 * 200 ms "dump restart" (a system reset of every CPU) and re-armed with each dot; the reset
 * vector prints R and starts the loop again, which shows the reset runs a CPU so halted. */
	.section .text
	.globl _start
_start:
	b	.

	. = 0x100
	cmpdi	r21, 0x5a		/* set once running: a reset, not the cold start */
	beq	rescued
	mfmsr	r0			/* 64-bit mode */
	li	r1, 1
	rldicr	r1, r1, 63, 0
	or	r0, r0, r1
	mtmsrd	r0
	isync
	li	r21, 0x5a
	li	r6, 'S'
	bl	putc
	bl	pet
restart:
	li	r20, 0
loop:
	li	r0, 0			/* EE off, as an idle loop cedes */
	mtmsrd	r0, 1
	mulli	r4, r20, 37		/* the decrementer due soon, at varying distances */
	andi.	r4, r4, 0x3ff
	addi	r4, r4, 1
	mtdec	r4
	li	r3, 0xE0		/* H_CEDE */
	sc	1
	addi	r20, r20, 1
	andi.	r5, r20, 0xff
	bne	loop
	li	r6, '.'
	bl	putc
	bl	pet
	b	loop

/* putc(r6): H_PUT_TERM_CHAR on the first vterm. */
putc:
	li	r3, 0x58
	lis	r4, 0x7100
	li	r5, 1
	rldicr	r6, r6, 56, 7
	sc	1
	blr

/* pet: H_WATCHDOG start, watchdog 1, dump restart, 200 ms (only when built with WATCHDOG). */
pet:
#ifdef WATCHDOG
	li	r3, 0x45c
	li	r4, 0x103
	li	r5, 1
	li	r6, 200
	sc	1
#endif
	blr

rescued:
	li	r6, 'R'
	bl	putc
	bl	pet
	lis	r0, 0x8000		/* MSR: SF | ME */
	sldi	r0, r0, 32
	ori	r0, r0, 0x1000
	mtsrr1	r0
	lis	r0, restart@h
	ori	r0, r0, restart@l
	mtsrr0	r0
	rfid

	. = 0x500
	b	.
	. = 0x900			/* decrementer: push it far away and return */
	lis	r9, 0x7fff
	ori	r9, r9, 0xffff
	mtdec	r9
	rfid

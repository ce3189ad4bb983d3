/* Program entry. The kernel starts the thread at _start's code with r1 = stack, r2 = TOC,
 * r3 = argc, r4 = argv (strings on the stack); the BSS is zero (demand-zero pages). */
	.section .text.start, "ax"
	.section ".opd", "aw"
	.align 3
	.globl _start
_start:
	.quad .L._start, .TOC.@tocbase, 0
	.previous
.L._start:
	li	%r0, 0
	stdu	%r0, -112(%r1)		/* terminate the back chain */
	bl	__libc_start		/* sets up the thread registry, runs main, exits */
	nop
	b	.

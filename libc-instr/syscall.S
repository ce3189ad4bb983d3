/* long __syscall(long nr, long a1, ..., long a5): the kernel wants nr in r0. */
	.text
	.section ".opd", "aw"
	.align 3
	.globl __syscall
__syscall:
	.quad .L.__syscall, .TOC.@tocbase, 0
	.previous
.L.__syscall:
	mr	%r0, %r3
	mr	%r3, %r4
	mr	%r4, %r5
	mr	%r5, %r6
	mr	%r6, %r7
	mr	%r7, %r8
	sc
	blr

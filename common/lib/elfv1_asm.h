/* The ELFv1 ABI for assembly, the kernel's and the user library's alike: functions callable
 * from C (a descriptor in .opd, the code at .L.name) and the stack frame's sizes. */
#ifndef KOV_ELFV1_ASM_H
#define KOV_ELFV1_ASM_H

#define FUNC(name)                         \
	.section ".opd", "aw";             \
	.align 3;                          \
	.globl name;                       \
name:	.quad .L.name, .TOC.@tocbase, 0;  \
	.previous;                         \
	.type name, @function;             \
.L.name:

#define ENDFUNC(name) .size name, . - .L.name

/* The minimum stack frame (header + parameter save area) and the protected zone below r1. */
#define STACK_FRAME_MIN 112
#define STACK_RED_ZONE  288

#endif

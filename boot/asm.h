/* Assembler helpers shared by the boot and exception code. */
#ifndef KOV_ASM_H
#define KOV_ASM_H

#define KERNEL_BASE_HI 0xC000

/* Load a 64-bit absolute symbol address or constant into a register. */
#define LOAD_ADDR(reg, sym)          \
	lis	reg, (sym)@highest;      \
	ori	reg, reg, (sym)@higher;  \
	rldicr	reg, reg, 32, 31;        \
	oris	reg, reg, (sym)@high;      \
	ori	reg, reg, (sym)@l

#define LOAD_TOC(reg) LOAD_ADDR(reg, .TOC.)

/* FUNC(name), ENDFUNC(name), STACK_FRAME_MIN, STACK_RED_ZONE: the ABI's, shared with user space. */
#include "common/lib/elfv1_asm.h"

/* Machine state register bits (64-bit numbering from the right). */
#define MSR_SF_BIT 63
#define MSR_HV_BIT 60
#define MSR_POW  (1 << 18)
#define MSR_EE   0x8000
#define MSR_PR   0x4000
#define MSR_ME   0x1000
#define MSR_IR   0x20
#define MSR_DR   0x10
#define MSR_RI   0x2

#define SPRN_SPRG0 272
#define SPRN_SPRG1 273
#define SPRN_SPRG2 274
#define SPRN_SPRG3 275
#define SPRN_HID4  1012

#endif

/* Names of exceptions and their causes, for reports (the dispatcher is kernel/proc/trap.c). */
#include "trap.h"

/* Program interrupts say why in SRR1 bits 43-47. */
const char *program_cause(uint64_t srr1)
{
	if (srr1 & (1ull << 20)) return "floating-point enabled";
	if (srr1 & (1ull << 19)) return "illegal instruction";
	if (srr1 & (1ull << 18)) return "privileged instruction";
	if (srr1 & (1ull << 17)) return "trap";
	return "unknown cause";
}

const char *vector_name(uint64_t v)
{
	switch (v) {
	case 0x100: return "system reset";
	case 0x200: return "machine check";
	case 0x300: return "data storage";
	case 0x380: return "data segment";
	case 0x400: return "instruction storage";
	case 0x480: return "instruction segment";
	case 0x500: return "external";
	case 0x600: return "alignment";
	case 0x700: return "program";
	case 0x800: return "floating-point unavailable";
	case 0x900: return "decrementer";
	case 0x980: return "hypervisor decrementer";
	case 0xc00: return "system call";
	case 0xd00: return "trace";
	case 0xf00: return "performance monitor";
	case 0xf20: return "vector unavailable";
	case 0x1300: return "instruction address breakpoint";
	case 0x1600: return "maintenance";
	case 0x1700: return "VMX assist";
	case 0x1800: return "thermal";
	default: return "reserved";
	}
}

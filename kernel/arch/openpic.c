/* OpenPIC (MPIC) in the mac-io chip of the Power Mac G5 and QEMU's mac99: device interrupts for
 * platform_mac99. Little-endian 32-bit registers; every source delivered to CPU 0 with one
 * priority, the vector being the source number. */
#include "openpic.h"
#include "irq.h"
#include "io.h"
#include "console.h"

#define GCR 0x1020                   /* global configuration */
#define GCR_MIXED 0x20000000         /* deliver through the CPU's interrupt pin */
#define SPURIOUS 0x10E0
#define SPURIOUS_VECTOR 0xFF
#define SRC_VP(n) (0x10000 + (n) * 0x20)      /* vector/priority */
#define SRC_DEST(n) (0x10010 + (n) * 0x20)    /* destination CPUs */
#define VP_MASK 0x80000000u
#define VP_LEVEL 0x00400000u
#define VP_PRIORITY(p) ((uint32_t)(p) << 16)
#define CPU0_TASK_PRIORITY 0x20080
#define CPU0_IACK 0x200A0
#define CPU0_EOI 0x200B0
#define SOURCES_MAX 128

static uint64_t base;                /* physical, 0 when absent */

static uint32_t rd(uint32_t reg)
{
	uint32_t v = __builtin_bswap32(*(volatile uint32_t *)io_ptr(base + reg));
	__asm__ volatile("eieio" : : : "memory");
	return v;
}

static void wr(uint32_t reg, uint32_t v)
{
	*(volatile uint32_t *)io_ptr(base + reg) = __builtin_bswap32(v);
	__asm__ volatile("sync" : : : "memory");
}

void openpic_init(uint64_t phys)
{
	base = phys;
	wr(GCR, rd(GCR) | GCR_MIXED);
	wr(SPURIOUS, SPURIOUS_VECTOR);
	wr(CPU0_TASK_PRIORITY, 0);
}

bool openpic_route(uint32_t source)
{
	if (!base || source >= SOURCES_MAX)
		return false;
	wr(SRC_DEST(source), 1);     /* CPU 0 */
	wr(SRC_VP(source), VP_LEVEL | VP_PRIORITY(8) | source);
	return (rd(SRC_VP(source)) & VP_MASK) == 0;
}

void openpic_interrupt(void)
{
	if (!base)
		return;
	for (int i = 0; i < 16; i++) {   /* bounded: a stuck source cannot hold the CPU */
		uint32_t v = rd(CPU0_IACK) & 0xff;
		if (v == SPURIOUS_VECTOR)
			return;
		irq_dispatch(v);
		wr(CPU0_EOI, 0);
	}
}

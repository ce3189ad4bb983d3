/* The processor's primitives: special-purpose register numbers and access (mfspr/mtspr take
 * the number as an immediate, so these are macros), MSR bits, the timebase, interrupt masking
 * and barriers. One header for the kernel (kernel/arch/cpu.h includes it) and the monitor, which
 * programs the PMU in its interrupt and needs them inline. */
#ifndef KOV_PROCESSOR_H
#define KOV_PROCESSOR_H

#include <stdint.h>

#define SPRN_DSISR 18
#define SPRN_DAR   19
#define SPRN_DEC   22
#define SPRN_SRR0  26
#define SPRN_SRR1  27
#define SPRN_SPRG0 272
#define SPRN_PVR   287
#define SPRN_HID0  1008
#define SPRN_HID4  1012
#define SPRN_PIR   1023
/* 970 performance monitor */
#define SPRN_MMCRA 786
#define SPRN_PMC1  787
#define SPRN_MMCR0 795
#define SPRN_SIAR  796
#define SPRN_SDAR  797
#define SPRN_MMCR1 798

#define MSR_SF  (1ull << 63)
#define MSR_HV  (1ull << 60)
#define MSR_POW (1ull << 18)
#define MSR_EE  (1ull << 15)
#define MSR_PR  (1ull << 14)
#define MSR_ME  (1ull << 12)
#define MSR_IR  (1ull << 5)
#define MSR_DR  (1ull << 4)
#define MSR_RI  (1ull << 1)

#define PVR_VERSION(pvr) ((pvr) >> 16)
#define PVR_970   0x0039
#define PVR_970FX 0x003C
#define PVR_970MP 0x0044
#define PVR_970GX 0x0045

#define mfspr(n) ({ uint64_t v_; __asm__ volatile("mfspr %0, %1" : "=r"(v_) : "i"(n)); v_; })
#define mtspr(n, v) __asm__ volatile("mtspr %0, %1" : : "i"(n), "r"((uint64_t)(v)) : "memory")

static inline uint64_t mftb(void)
{
	uint64_t tb;
	__asm__ volatile("mftb %0" : "=r"(tb));
	return tb;
}

static inline uint64_t mfmsr(void)
{
	uint64_t msr;
	__asm__ volatile("mfmsr %0" : "=r"(msr));
	return msr;
}

static inline void mtmsrd(uint64_t msr)
{
	__asm__ volatile("mtmsrd %0" : : "r"(msr) : "memory");
}

/* The L=1 form of mtmsrd changes only EE and RI: cheap and leaves everything else alone. */
static inline void irq_enable(void)
{
	__asm__ volatile("mtmsrd %0, 1" : : "r"(MSR_EE | MSR_RI) : "memory");
}
static inline void irq_disable(void)
{
	__asm__ volatile("mtmsrd %0, 1" : : "r"(MSR_RI) : "memory");
}

/* Disables interrupts and returns whether they were enabled. */
static inline int irq_save(void)
{
	uint64_t msr = mfmsr();
	irq_disable();
	return (msr & MSR_EE) != 0;
}

static inline void irq_restore(int enabled)
{
	if (enabled)
		irq_enable();
}

static inline void sync(void)    { __asm__ volatile("sync" : : : "memory"); }
static inline void lwsync(void)  { __asm__ volatile("lwsync" : : : "memory"); }
static inline void isync(void)   { __asm__ volatile("isync" : : : "memory"); }
static inline void cpu_relax(void) { __asm__ volatile("or 1,1,1; or 2,2,2" : : : "memory"); }

#endif

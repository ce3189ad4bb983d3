#include "pmu_probe.h"
#include "../kernel/arch/cpu.h"
#include "../kernel/arch/percpu.h"
#include "../kernel/drivers/console.h"
#include "pmu_access.h"

#define LOOP_ITERATIONS 10000
#define LOOP_BODY 4                 /* instructions per iteration, see run_loop() */
#define OVERFLOW_AFTER 1000

struct pmu_probe_result pmu_probe_result;
static volatile int irq_pmc;        /* which PMC the last interrupt found overflowed, 0 none */
static volatile uint64_t irq_nip;

/* A loop of exactly LOOP_BODY * iterations instructions (plus a handful around it). The loop
 * starts on a 64-byte boundary: with some placements of this code QEMU 10 counted only the
 * first pass (4-5 instructions instead of 40000) — seen when an unrelated change moved the
 * kernel's text; aligned, it counted right in every placement tried (five shifts). */
static void run_loop(uint64_t iterations)
{
	__asm__ volatile(
		"	mtctr	%0\n"
		"	.balign	64\n"
		"1:	addi	0, 0, 1\n"
		"	addi	0, 0, 1\n"
		"	addi	0, 0, 1\n"
		"	bdnz	1b\n"
		: : "r"(iterations) : "r0", "ctr", "memory");
}

/* MMCR0/MMCR1 values that select `enc` on `pmc` and turn the other selectable counters off. */
static void encode(int pmc, enum probe_encoding enc, uint64_t *mmcr0, uint64_t *mmcr1)
{
	*mmcr0 = 0;
	*mmcr1 = 0;
	if (enc == PROBE_970_INST || enc == PROBE_970_CYC) {
		uint64_t sel = enc == PROBE_970_INST ? P970_SEL_INST_CMPL : P970_SEL_CYC;
		for (int p = 1; p <= NUM_PMCS; p++) {
			uint64_t s = p == pmc ? sel : P970_SEL_OFF;
			if (p == 1)
				*mmcr0 |= s << MMCR0_PMC1SEL_SHIFT;
			else if (p == 2)
				*mmcr0 |= s << MMCR0_PMC2SEL_SHIFT;
			else
				*mmcr1 |= s << MMCR1_PMCSEL_SHIFT(p);
		}
	} else if (pmc <= 4) {
		uint64_t sel = enc == PROBE_207_INST ? P207_SEL_INST_CMPL : P207_SEL_CYC;
		*mmcr1 = sel << MMCR1_207_SHIFT(pmc);
	}
	/* ISA 2.07 PMC5/6 have fixed events and need no select: leaving FC56 clear enables them. */
}

static void pmu_freeze(void)
{
	mtspr(SPRN_MMCR0, MMCR0_FC);
}

static void pmu_clear(void)
{
	for (int p = 1; p <= NUM_PMCS; p++)
		write_pmc(p, 0);
}

static uint32_t measure(int pmc, enum probe_encoding enc)
{
	uint64_t mmcr0, mmcr1;
	encode(pmc, enc, &mmcr0, &mmcr1);
	pmu_freeze();
	pmu_clear();
	mtspr(SPRN_MMCRA, 0);
	mtspr(SPRN_MMCR1, mmcr1);
	isync();
	mtspr(SPRN_MMCR0, mmcr0);       /* FC clear: counting starts */
	isync();
	run_loop(LOOP_ITERATIONS);
	pmu_freeze();
	isync();
	return read_pmc(pmc);
}

/* An instruction count is right if it is the loop plus at most a little set-up around it. */
bool probe_counted_instructions(uint32_t delta)
{
	uint64_t n = pmu_probe_result.loop_instructions;
	return delta >= n && delta <= n + n / 50;
}

/* Cycles cannot be predicted exactly (QEMU's are virtual time); a loop of n instructions
 * takes at least n/8 cycles on any 970 (at most 8 completions a cycle) and is taken as
 * counted if it took fewer than 100 n. */
bool probe_counted_cycles(uint32_t delta)
{
	uint64_t n = pmu_probe_result.loop_instructions;
	return delta >= n / 8 && delta < 100 * n;
}

static int try_overflow(int pmc, enum probe_encoding enc)
{
	uint64_t mmcr0, mmcr1;
	encode(pmc, enc, &mmcr0, &mmcr1);
	pmu_freeze();
	pmu_clear();
	irq_pmc = 0;
	write_pmc(pmc, 0x80000000u - OVERFLOW_AFTER);
	mtspr(SPRN_MMCR1, mmcr1);
	isync();
	mmcr0 |= MMCR0_PMXE | (pmc == 1 ? MMCR0_PMC1CE : MMCR0_PMCJCE);
	irq_enable();
	mtspr(SPRN_MMCR0, mmcr0);
	isync();
	run_loop(LOOP_ITERATIONS);
	irq_disable();
	pmu_freeze();
	pmu_probe_result.overflow_nip[pmc - 1] = irq_nip;
	return irq_pmc == pmc;
}

void pmu_interrupt(struct trap_frame *tf)
{
	uint64_t mmcr0 = mfspr(SPRN_MMCR0);
	/* Freeze first so the handler itself is not counted, and disarm: the probe wants one. */
	mtspr(SPRN_MMCR0, (mmcr0 | MMCR0_FC) & ~(MMCR0_PMXE | MMCR0_PMAO));
	this_cpu()->pmu_interrupts++;
	for (int p = 1; p <= NUM_PMCS; p++) {
		if (read_pmc(p) & 0x80000000u) {
			irq_pmc = p;
			break;
		}
	}
	irq_nip = tf->nip;
}

static const char *enc_name[PROBE_ENCODINGS] = {
	"970:INST_CMPL", "970:CYC", "2.07:INST_CMPL", "2.07:CYC",
};

void pmu_probe(void)
{
	struct pmu_probe_result *r = &pmu_probe_result;
	int irq = irq_save();
	r->pvr = (uint32_t)mfspr(SPRN_PVR);
	r->loop_instructions = (uint64_t)LOOP_ITERATIONS * LOOP_BODY;
	for (int p = 1; p <= NUM_PMCS; p++)
		for (int e = 0; e < PROBE_ENCODINGS; e++)
			r->delta[p - 1][e] = measure(p, (enum probe_encoding)e);
	for (int p = 1; p <= NUM_PMCS; p++) {
		r->overflow_irq[p - 1] = -1;
		r->overflow_encoding[p - 1] = -1;
		for (int e = 0; e < PROBE_ENCODINGS; e++) {
			if (probe_counted_instructions(r->delta[p - 1][e])) {
				r->overflow_irq[p - 1] = try_overflow(p, (enum probe_encoding)e);
				r->overflow_encoding[p - 1] = e;
				break;
			}
		}
	}
	pmu_freeze();
	pmu_clear();
	irq_restore(irq);

	kprintf("pmu: probe pvr=0x%08x loop=%lu instructions (counter deltas)\n", r->pvr,
		(unsigned long)r->loop_instructions);
	kprintf("pmu: pmc %14s %14s %14s %14s  overflow-irq\n", enc_name[0], enc_name[1],
		enc_name[2], enc_name[3]);
	for (int p = 1; p <= NUM_PMCS; p++) {
		int o = r->overflow_irq[p - 1];
		kprintf("pmu:  %d  %14u %14u %14u %14u  %s\n", p, r->delta[p - 1][0], r->delta[p - 1][1],
			r->delta[p - 1][2], r->delta[p - 1][3], o < 0 ? "-" : o ? "yes" : "no");
	}
}

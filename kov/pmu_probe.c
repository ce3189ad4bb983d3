#include "pmu_probe.h"
#include "kernel/include/processor.h"
#include "kernel/include/kov_services.h"
#include "pmu_access.h"
#include "common/lib/format.h"

#define LOOP_ITERATIONS 10000
#define LOOP_BODY 4                 /* instructions per iteration, see run_loop() */
#define OVERFLOW_AFTER 1000

struct pmu_probe_result pmu_probe_result;
static volatile int irq_pmc;        /* which PMC the last interrupt found overflowed, 0 none */
static volatile uint64_t irq_nip;
/* The backend whose overflow is being tried, then the processor's: it freezes and disarms. */
static const struct pmu_backend *volatile irq_backend;

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

/* The backend the encoding belongs to, and its probe event. */
static const struct pmu_backend *backend_of(enum probe_encoding enc)
{
	const struct pmu_probe_result *r = &pmu_probe_result;
	return enc == PROBE_NATIVE_INST || enc == PROBE_NATIVE_CYC ? r->native : r->arch;
}

static enum probe_event event_of(enum probe_encoding enc)
{
	return enc == PROBE_NATIVE_INST || enc == PROBE_ARCH_INST ? PROBE_INSTRUCTIONS : PROBE_CYCLES;
}

/* The registers that count `enc` on `pmc` alone in the modes given, counters running, the
 * overflow interrupt armed for the counters in sample_pmcs. */
static struct pmu_regs encode(int pmc, enum probe_encoding enc, unsigned sample_pmcs, unsigned modes)
{
	const struct pmu_backend *b = backend_of(enc);
	struct pmu_regs sel;
	b->probe_select(pmc, event_of(enc), &sel);
	return b->program(&sel, sample_pmcs, modes);
}

#define BOTH_MODES (PMU_COUNT_KERNEL | PMU_COUNT_USER)

static void stop_counting(const struct pmu_backend *b)
{
	mtspr(SPRN_MMCR0, pmu_freeze(b, 0));
}

static void pmu_clear(void)
{
	for (int p = 1; p <= NUM_PMCS; p++)
		write_pmc(p, 0);
}

static uint32_t measure(int pmc, enum probe_encoding enc, unsigned modes)
{
	const struct pmu_backend *b = backend_of(enc);
	if (!b)
		return 0;
	struct pmu_regs r = encode(pmc, enc, 0, modes);
	stop_counting(b);
	pmu_clear();
	mtspr(SPRN_MMCRA, r.mmcra);
	mtspr(SPRN_MMCR1, r.mmcr1);
	isync();
	mtspr(SPRN_MMCR0, r.mmcr0);     /* not frozen: counting starts */
	isync();
	run_loop(LOOP_ITERATIONS);
	stop_counting(b);
	isync();
	return read_pmc(pmc);
}

/* An instruction count is right if it is the loop plus at most a little set-up around it
 * (probe_exact_instructions, common/monitor/pmu_event.h). */
static bool counted_instructions(uint32_t delta)
{
	return probe_exact_instructions(delta, pmu_probe_result.loop_instructions);
}

/* The kernel filter through one backend: the loop, which the kernel runs, counted with the
 * kernel excluded on the first counter that counted it as instructions. */
static int try_kernel_filter(enum probe_encoding enc, unsigned hv, uint32_t *delta)
{
	struct pmu_probe_result *r = &pmu_probe_result;
	for (int p = 1; p <= NUM_PMCS; p++) {
		if (!counted_instructions(r->delta[p - 1][enc]))
			continue;
		*delta = measure(p, enc, PMU_COUNT_USER | hv);
		return *delta < r->loop_instructions / 50 ? 1 : 0;
	}
	return -1;
}

static int try_overflow(int pmc, enum probe_encoding enc)
{
	const struct pmu_backend *b = backend_of(enc);
	struct pmu_regs r = encode(pmc, enc, PMCS(pmc), BOTH_MODES);
	stop_counting(b);
	pmu_clear();
	irq_backend = b;
	irq_pmc = 0;
	write_pmc(pmc, b->preload(OVERFLOW_AFTER));
	mtspr(SPRN_MMCR1, r.mmcr1);
	isync();
	irq_enable();
	mtspr(SPRN_MMCR0, r.mmcr0);
	isync();
	run_loop(LOOP_ITERATIONS);
	irq_disable();
	stop_counting(b);
	pmu_probe_result.overflow_nip[pmc - 1] = irq_nip;
	return irq_pmc == pmc;
}

void pmu_interrupt(struct trap_frame *tf)
{
	const struct pmu_backend *b = irq_backend;
	if (!b)
		return;     /* no backend, so nothing was armed: the probe said so at boot */
	uint64_t mmcr0 = mfspr(SPRN_MMCR0);
	/* Freeze first so the handler itself is not counted, and disarm: the probe wants one. */
	mtspr(SPRN_MMCR0, pmu_freeze(b, pmu_disarm(b, mmcr0)));
	for (int p = 1; p <= NUM_PMCS; p++) {
		if (pmu_overflowed(b, read_pmc(p))) {
			irq_pmc = p;
			break;
		}
	}
	irq_nip = tf->nip;
}

/* Without -icount QEMU's cycles follow the host's clock: now and then a cycles select counts
 * within 2% of the loop's instructions, and the catalogue took it for a counter that counts
 * instructions whatever its select (PMC1 once read 40,740 cycles against 40,004 instructions
 * on a busy host, and PM_CYC lost PMC1). A counter that really counts instructions reads the
 * same every time; cycles that merely came close are measured again, up to 3 times, until they
 * show themselves. So are cycles too many to be the loop's (over 100 a loop instruction): the
 * host stopped QEMU in the middle of the loop (PMC4 once read 4,663,060 cycles for 40,004
 * instructions beside a loaded test suite, and PM_CYC lost PMC4). */
static bool cycles_to_measure_again(const uint32_t *d, enum probe_encoding inst,
				    enum probe_encoding cyc, uint64_t n)
{
	bool lookalike = counted_instructions(d[inst]) && probe_counts_agree(d[inst], d[cyc], n);
	bool too_many = d[cyc] >= n / 8 && !probe_plausible_cycles(d[cyc], n);
	return backend_of(cyc) && (lookalike || too_many);
}

static void remeasure_doubtful_cycles(void)
{
	struct pmu_probe_result *r = &pmu_probe_result;
	static const enum probe_encoding pairs[][2] = { { PROBE_NATIVE_INST, PROBE_NATIVE_CYC },
							{ PROBE_ARCH_INST, PROBE_ARCH_CYC } };
	for (int p = 1; p <= NUM_PMCS; p++)
		for (unsigned k = 0; k < 2; k++) {
			uint32_t *d = r->delta[p - 1];
			enum probe_encoding inst = pairs[k][0], cyc = pairs[k][1];
			for (int again = 0; again < 3 &&
			     cycles_to_measure_again(d, inst, cyc, r->loop_instructions); again++)
				d[cyc] = measure(p, cyc, BOTH_MODES);
		}
}

void pmu_probe(void)
{
	struct pmu_probe_result *r = &pmu_probe_result;
	int irq = irq_save();
	r->pvr = (uint32_t)mfspr(SPRN_PVR);
	r->native = pmu_backend_for_pvr(r->pvr);
	r->arch = pmu_backend_architected();
	irq_backend = r->native;
	r->loop_instructions = (uint64_t)LOOP_ITERATIONS * LOOP_BODY;
	if (!r->native) {
		irq_restore(irq);
		kprintf("pmu: no PMU backend for pvr=0x%08x: hardware events do not count\n", r->pvr);
		return;
	}
	for (int p = 1; p <= NUM_PMCS; p++)
		for (int e = 0; e < PROBE_ENCODINGS; e++)
			r->delta[p - 1][e] = measure(p, (enum probe_encoding)e, BOTH_MODES);
	remeasure_doubtful_cycles();
	for (int p = 1; p <= NUM_PMCS; p++) {
		r->overflow_irq[p - 1] = -1;
		r->overflow_encoding[p - 1] = -1;
		for (int e = 0; e < PROBE_ENCODINGS; e++) {
			if (backend_of((enum probe_encoding)e) &&
			    counted_instructions(r->delta[p - 1][e])) {
				r->overflow_irq[p - 1] = try_overflow(p, (enum probe_encoding)e);
				r->overflow_encoding[p - 1] = e;
				break;
			}
		}
	}
	r->kernel_is_hv = (mfmsr() & MSR_HV) != 0;
	unsigned hv = r->kernel_is_hv ? PMU_KERNEL_HV : 0;
	r->kernel_filter_native = try_kernel_filter(PROBE_NATIVE_INST, hv, &r->kernel_filter_delta[0]);
	r->kernel_filter_arch = r->arch && r->arch != r->native ?
		try_kernel_filter(PROBE_ARCH_INST, hv, &r->kernel_filter_delta[1]) : -1;
	irq_backend = r->native;
	stop_counting(r->native);
	pmu_clear();
	irq_restore(irq);

	kprintf("pmu: probe pvr=0x%08x loop=%lu instructions (counter deltas)\n", r->pvr,
		(unsigned long)r->loop_instructions);
	kprintf("pmu: backends %s (native) and %s (architected)\n", r->native->name,
		r->arch ? r->arch->name : "none");
	kprintf("pmu: pmc %14s %14s %14s %14s  overflow-irq\n", "native:INST", "native:CYC",
		"arch:INST", "arch:CYC");
	for (int p = 1; p <= NUM_PMCS; p++) {
		int o = r->overflow_irq[p - 1];
		kprintf("pmu:  %d  %14u %14u %14u %14u  %s\n", p, r->delta[p - 1][0], r->delta[p - 1][1],
			r->delta[p - 1][2], r->delta[p - 1][3], o < 0 ? "-" : o ? "yes" : "no");
	}
	/* Whether the kernel's exclusion stopped the count, per backend. */
	char said[2][64];
	for (int b = 0; b < 2; b++) {
		int f = b ? r->kernel_filter_arch : r->kernel_filter_native;
		if (f < 0)
			format_buf(said[b], sizeof said[b], "not tried");
		else
			format_buf(said[b], sizeof said[b], "%s (the loop counted %u)",
				   f ? "honoured" : "ignored", r->kernel_filter_delta[b]);
	}
	kprintf("pmu: kernel excluded (MMCR0[FCS]%s): %s selects %s; %s selects %s\n",
		r->kernel_is_hv ? " and [FCHV]: MSR[HV]=1" : "", r->native->selects, said[0],
		r->arch ? r->arch->selects : "no", said[1]);
}

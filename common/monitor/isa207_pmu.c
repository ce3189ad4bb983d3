/* The ISA 2.07 counters QEMU provides (common/monitor/isa207_pmu.h). */
#include "isa207_pmu.h"
#include "pmu_book3s.h"
#include "common/lib/format.h"

static const struct event_desc isa207_events[] = {
	{ "PM_CYC", "Processor cycles (ISA 2.07 architected select; PMC6 counts them always)",
		EVSRC_HW, ISA207_CYCLES, EV_GENERIC_CYC | EV_CAN_SAMPLE, 0x2f },
	{ "PM_INST_CMPL", "Instructions completed (ISA 2.07 architected select; PMC5 counts them "
		"always)", EVSRC_HW, ISA207_INSTRUCTIONS, EV_GENERIC_INST | EV_CAN_SAMPLE, 0x1f },
};

/* QEMU implements these selects for every model, so no processor is refused; listed last in
 * the registry, it is chosen only for processors no other backend describes. */
static bool isa207_matches(uint32_t pvr)
{
	(void)pvr;
	return true;
}

/* PMC1-4 need the select in MMCR1; PMC5 and PMC6 count instructions and cycles with no
 * select (FC56 clear), and PMC7/8 do not exist: they get nothing. */
static void isa207_probe_select(int pmc, enum probe_event ev, struct pmu_regs *out)
{
	*out = (struct pmu_regs){ 0, 0, 0 };
	if (pmc >= 1 && pmc <= 4)
		out->mmcr1 = (uint64_t)(ev == PROBE_INSTRUCTIONS ? ISA207_INSTRUCTIONS : ISA207_CYCLES)
			<< MMCR1_207_SHIFT(pmc);
}

static const char *event_name(uint32_t sel)
{
	return sel == ISA207_INSTRUCTIONS ? "instructions (ISA 2.07)" : "cycles (ISA 2.07)";
}

/* Places one event: its pin, or its own fixed counter (PMC5 instructions, PMC6 cycles) and
 * then the lowest free of PMC1-4. Returns the counter, or a PMU_E* code with the reason. */
static int place(uint32_t code, uint8_t used, char *why, size_t why_size)
{
	uint32_t sel = PMU_CODE_EVENT(code), pin = PMU_CODE_PIN(code);
	bool inst = sel == ISA207_INSTRUCTIONS;
	uint8_t allowed = inst ? 0x1f : 0x2f;   /* PMC1-5 / PMC1-4 and 6 */
	if ((code >> 20) || (!inst && sel != ISA207_CYCLES)) {
		format_buf(why, why_size, "0x%x is not an event QEMU counts (only 0x02 instructions "
			"and 0x1e cycles)", (unsigned)code);
		return PMU_EBADCODE;
	}
	if (pin) {
		if (pin > NUM_PMCS || !(allowed & PMCS(pin))) {
			format_buf(why, why_size, "%s can only be counted on PMC%s under QEMU",
				event_name(sel), inst ? "1, 2, 3, 4 or 5" : "1, 2, 3, 4 or 6");
			return PMU_EPMC;
		}
		if (used & PMCS(pin)) {
			format_buf(why, why_size, "two events need PMC%u", (unsigned)pin);
			return PMU_EPMC;
		}
		return (int)pin;
	}
	int own = inst ? 5 : 6;
	if (!(used & PMCS(own)))
		return own;
	for (int q = 1; q <= 4; q++)
		if (!(used & PMCS(q)))
			return q;
	format_buf(why, why_size, "no free counter for %s: QEMU counts %s only on PMC%s",
		event_name(sel), inst ? "instructions" : "cycles", inst ? "1-5" : "1-4 and 6");
	return PMU_EPMC;
}

int isa207_assign(const uint32_t *codes, int n, struct pmu_assignment *out, char *why,
	size_t why_size)
{
	uint8_t used = 0;
	if (!why)
		why_size = 0;
	if (why_size)
		why[0] = 0;
	if (n > ISA207_COUNTERS) {
		format_buf(why, why_size, "too many events: QEMU counts on 6 counters (PMC1-6)");
		return PMU_ETOOMANY;
	}
	if (n < 0 || (n > 0 && !codes) || !out) {
		format_buf(why, why_size, "bad arguments");
		return PMU_EBADCODE;
	}
	for (int i = 0; i < NUM_PMCS; i++)
		out->pmc_of[i] = 0;
	/* Pinned events first, so the free choices cannot take their counters. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			if ((pass == 0) != (PMU_CODE_PIN(codes[i]) != 0))
				continue;
			int p = place(codes[i], used, why, why_size);
			if (p < 0)
				return p;
			out->pmc_of[i] = p;
			used |= (uint8_t)PMCS(p);
		}
	}
	out->mmcr0 = used & (PMCS(5) | PMCS(6)) ? 0 : MMCR0_FC56;
	out->mmcr1 = 0;
	out->mmcra = 0;
	for (int i = 0; i < n; i++)
		if (out->pmc_of[i] <= 4)
			out->mmcr1 |= (uint64_t)(codes[i] & 0xff) <<
				MMCR1_207_SHIFT(out->pmc_of[i]);
	return PMU_OK;
}

const struct pmu_backend isa207_pmu = {
	.name = "isa207-arch",
	.selects = "ISA 2.07",
	.architected = true,
	.counters = ISA207_COUNTERS,
	.events = isa207_events,
	.n_events = sizeof isa207_events / sizeof isa207_events[0],
	.matches = isa207_matches,
	.probe_select = isa207_probe_select,
	.assign = isa207_assign,
	.program = book3s_program,
	.preload = book3s_preload,
	BOOK3S_INTERRUPT_CONTROL,
};

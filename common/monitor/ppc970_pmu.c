/* The PowerPC 970 PMU backend (common/monitor/ppc970_pmu.h). */
#include "ppc970_pmu.h"
#include "pmu_book3s.h"
#include "common/lib/format.h"

/* Event codes: each one appears in PAPI/libpfm's ppc970_events.h; the generic and cache
 * events (cycles, instructions, branches, mispredicts, L1D, TLBs) also in Linux's
 * ppc970-pmu.c. Counter sets follow from the code (see the header) and are checked against
 * p970_code_pmcs() by the unit tests. */
#define HW(nm, code, pmcs, flags, desc) \
	{ nm, desc, EVSRC_HW, code, (flags) | EV_CAN_SAMPLE, pmcs }

const struct event_desc p970_events[] = {
	HW("PM_CYC", 0x7, PMCS_ANY, EV_GENERIC_CYC, "Processor cycles"),
	HW("PM_INST_CMPL", 0x1, PMCS_ANY, EV_GENERIC_INST, "Instructions completed"),
	HW("PM_RUN_CYC", 0x1005, PMCS(1), 0, "Cycles with the run latch set (not idle)"),
	HW("PM_GRP_CMPL", 0x7003, PMCS(7), 0, "Instruction groups completed"),
	HW("PM_1PLUS_PPC_CMPL", 0x5003, PMCS(5), 0,
		"Groups completed with at least one PowerPC instruction"),
	HW("PM_STOP_COMPLETION", 0x3001, PMCS(3), 0, "Completion stopped by the RAS unit"),
	HW("PM_GCT_EMPTY_CYC", 0x1004, PMCS(1), 0,
		"Cycles the global completion table was empty (nothing in flight)"),
	HW("PM_INST_DISP", 0x320, PMCS_1256, 0, "Instructions dispatched"),
	HW("PM_HV_CYC", 0x3004, PMCS(3), 0, "Cycles in hypervisor state"),
	HW("PM_EE_OFF", 0x333, PMCS_3478, 0, "Cycles with external interrupts off (MSR[EE]=0)"),
	HW("PM_EXT_INT", 0x8002, PMCS(8), 0, "External interrupts"),
	HW("PM_LARX_LSU0", 0x727, PMCS_1256, 0,
		"Load-and-reserve (lwarx/ldarx) executed; they all run on LSU0"),
	HW("PM_STCX_FAIL", 0x721, PMCS_1256, 0, "Store-conditional (stwcx./stdcx.) failed"),
	HW("PM_STCX_PASS", 0x725, PMCS_1256, 0, "Store-conditional (stwcx./stdcx.) succeeded"),
	HW("PM_BR_ISSUED", 0x431, PMCS_3478, 0, "Branches issued"),
	HW("PM_BR_MPRED_CR", 0x432, PMCS_3478, 0, "Branch mispredictions: direction (CR bit)"),
	HW("PM_BR_MPRED_TA", 0x433, PMCS_3478, 0, "Branch mispredictions: target address"),
	HW("PM_GRP_BR_MPRED", 0x327, PMCS_1256, 0, "Groups with a branch misprediction"),
	HW("PM_ITLB_MISS", 0x700, PMCS_1256, 0, "Instruction TLB misses"),
	HW("PM_DTLB_MISS", 0x704, PMCS_1256, 0,
		"Data TLB misses (a retried request may count more than once)"),
	HW("PM_ISLB_MISS", 0x701, PMCS_1256, 0, "Instruction SLB misses"),
	HW("PM_DSLB_MISS", 0x705, PMCS_1256, 0, "Data SLB misses"),
	HW("PM_DATA_TABLEWALK_CYC", 0x707, PMCS_1256, 0, "Cycles a data page-table walk is active"),
	HW("PM_LSU_DERAT_MISS", 0x6700, PMCS(6), 0, "Data ERAT misses (both load/store units)"),
	HW("PM_IERAT_XLATE_WR", 0x430, PMCS_3478, 0, "Instruction ERAT reloads"),
	HW("PM_LD_REF_L1", 0x8810, PMCS(8), 0, "L1 data cache load references"),
	HW("PM_LD_MISS_L1", 0x3810, PMCS(3), 0, "L1 data cache load misses"),
	HW("PM_ST_REF_L1", 0x7810, PMCS(7), 0, "L1 data cache store references"),
	HW("PM_ST_MISS_L1", 0x813, PMCS_3478, 0, "L1 data cache store misses"),
	HW("PM_DC_INV_L2", 0x817, PMCS_3478, 0, "L1 data cache lines invalidated by the L2"),
	HW("PM_L1_PREF", 0x731, PMCS_3478, 0, "L1 data cache prefetches"),
	HW("PM_L2_PREF", 0x733, PMCS_3478, 0, "L2 cache prefetches"),
	HW("PM_LSU_LMQ_SRQ_EMPTY_CYC", 0x2002, PMCS(2), 0,
		"Cycles the load miss and store request queues are empty"),
	HW("PM_FXU_FIN", 0x3330, PMCS(3), 0, "Fixed-point unit results"),
	HW("PM_FPU_FIN", 0x4110, PMCS(4), 0, "Floating-point unit results"),
	HW("PM_FPU0_FIN", 0x113, PMCS_3478, 0, "Floating-point unit 0 results"),
	HW("PM_MRK_LD_MISS_L1", 0x1720, PMCS(1), EV_MARKED, "Marked L1 data cache load misses"),
};
const size_t p970_event_count = sizeof p970_events / sizeof p970_events[0];

const struct event_desc *p970_event_by_code(uint32_t code)
{
	code &= 0xffff;
	for (size_t i = 0; i < p970_event_count; i++)
		if (p970_events[i].code == code)
			return &p970_events[i];
	return NULL;
}

const struct event_desc *p970_event_by_name(const char *name)
{
	for (size_t i = 0; i < p970_event_count; i++)
		if (name_equal(p970_events[i].name, name))
			return &p970_events[i];
	return NULL;
}

/* ---- decoding ---------------------------------------------------------------------------- */

struct ev {
	uint32_t code;
	unsigned pmc, unit, spcsel, byte, psel, pin;
	uint8_t pmcs;          /* counters the code allows, before pinning */
	unsigned sel;          /* PMCxSEL value */
};

static const char *const unit_name[P970_UNIT_COUNT] = {
	"none", "FPU", "VPU", "ISU", "IFU", "IDU", "STS", "LSU0", "LSU1U", "LSU1L",
};

/* Returns NULL, or what is wrong with the code. */
static const char *decode(uint32_t code, struct ev *e)
{
	*e = (struct ev){ .code = code, .pmc = P970_CODE_PMC(code), .unit = P970_CODE_UNIT(code),
		.spcsel = P970_CODE_SPCSEL(code), .byte = P970_CODE_BYTE(code),
		.psel = P970_CODE_PMCSEL(code), .pin = P970_CODE_PIN(code) };
	if (code >> 20)
		return "bits above the PMC pin field are set";
	if (e->pmc > NUM_PMCS)
		return "its PMC field is above 8";
	if (e->pin > NUM_PMCS)
		return "it is pinned to a PMC above 8";
	if (e->unit >= P970_UNIT_COUNT)
		return "its unit field names no unit";
	if (e->unit == P970_UNIT_NONE && e->byte)
		return "it names a bus byte but no unit";
	if (e->unit == P970_UNIT_LSU1L && e->byte < 2)
		return "unit LSU1L reaches only event-bus bytes 2 and 3";
	if (e->pmc) {                  /* direct, or adder/decode of a bus byte */
		e->pmcs = (uint8_t)PMCS(e->pmc);
		e->sel = e->psel;
	} else if (!e->unit) {
		if (e->psel == 0 || e->psel >= 8)
			return "an any-counter event needs a select of 1-7 (8 turns a counter off)";
		e->pmcs = PMCS_ANY;
		e->sel = e->psel | 8;
	} else {
		if (e->psel >= 8)
			return "a bus event selects a bit 0-7 of its byte";
		e->pmcs = e->byte & 1 ? PMCS_3478 : PMCS_1256;
		e->sel = 0x10 | (e->byte & 2 ? 8 : 0) | e->psel;
	}
	return NULL;
}

uint8_t p970_code_pmcs(uint32_t code)
{
	struct ev e;
	if (decode(code, &e))
		return 0;
	if (e.pin)
		return e.pmcs & PMCS(e.pin) ? (uint8_t)PMCS(e.pin) : 0;
	return e.pmcs;
}

/* Marked-instruction events, per the 970 event list: PMC-specific selects, and bits of the
 * VPU, LSU0 and LSU1L bus bytes (byte b bit i is bit 8*b+i of the mask). Linux's LSU0 mask
 * also has byte 3 bit 3, which is PM_L2_PREF (0x733); IBM's pm_tlb group counts that event
 * without MMCRA sampling, so it is left out here. */
static const uint8_t marked_direct[NUM_PMCS] = {
	0x0c, 0x28, 0x28, 0x30, 0x30, 0x38, 0x30, 0x10,
};

bool p970_code_marked(uint32_t code)
{
	struct ev e;
	unsigned bit;
	uint32_t mask;
	if (decode(code, &e))
		return false;
	if (e.pmc) {
		if (e.psel < 8 && (marked_direct[e.pmc - 1] >> e.psel & 1))
			return true;
		if (!e.unit)
			return false;
		if (e.psel == 0)           /* adders read the byte bit matching their counter */
			bit = e.pmc <= 4 ? e.pmc - 1 : 8 - e.pmc;
		else if (e.psel == 7 || e.psel == 13)
			bit = 4;
		else
			return false;
	} else if (e.unit) {
		bit = e.psel;
	} else {
		return false;
	}
	switch (e.unit) {
	case P970_UNIT_VPU: mask = 0x0000004c; break;
	case P970_UNIT_LSU0: mask = 0x005dff00; break;
	case P970_UNIT_LSU1L: mask = 0x50000000; break;
	default: return false;
	}
	return mask >> (e.byte * 8 + bit) & 1;
}

/* ---- messages ---------------------------------------------------------------------------- */

struct msg {
	char *buf;
	size_t size, len;
};

__attribute__((format(printf, 2, 3)))
static void say(struct msg *m, const char *fmt, ...)
{
	va_list ap;
	if (!m->buf || m->len + 1 >= m->size)
		return;
	va_start(ap, fmt);
	int n = format_buf_v(m->buf + m->len, m->size - m->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		m->len = m->len + (size_t)n < m->size ? m->len + (size_t)n : m->size - 1;
}

static void say_event(struct msg *m, uint32_t code)
{
	const struct event_desc *d = p970_event_by_code(code);
	if (d)
		say(m, "%s", d->name);
	else
		say(m, "event 0x%x", (unsigned)(code & 0xffff));
}

static int popcount8(unsigned v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

/* "PMC3", "PMC1, 2, 5 or 6" (last " or "), "PMC1, 2, 5 and 6" (last " and "). */
static void say_pmcs(struct msg *m, unsigned mask, const char *last)
{
	int total = popcount8(mask), k = 0;
	say(m, "PMC");
	for (int p = 1; p <= NUM_PMCS; p++) {
		if (!(mask & PMCS(p)))
			continue;
		k++;
		say(m, "%s%d", k == 1 ? "" : k == total ? last : ", ", p);
	}
}

/* ---- assignment -------------------------------------------------------------------------- */

/* The counters an event may take: its pin, or all the code allows. */
static uint8_t allowed_of(const struct ev *e)
{
	return e->pin ? (uint8_t)PMCS(e->pin) : e->pmcs;
}

/* Depth-first search over events ordered most constrained first, counters lowest first. */
static bool place(const struct ev *ev, const int *order, int n, int k, uint8_t used, int *pmc_of)
{
	if (k == n)
		return true;
	uint8_t allowed = allowed_of(&ev[order[k]]);
	for (int p = 1; p <= NUM_PMCS; p++) {
		if (!(allowed & PMCS(p)) || (used & PMCS(p)))
			continue;
		pmc_of[order[k]] = p;
		if (place(ev, order, n, k + 1, (uint8_t)(used | PMCS(p)), pmc_of))
			return true;
	}
	return false;
}

static int check_counters(const struct ev *ev, int n, struct msg *m, int *pmc_of)
{
	/* Counter halves: bus bytes reach only one half, so too many events for a half is the
	 * most common refusal; name them all. */
	static const uint8_t halves[2] = { PMCS_1256, PMCS_3478 };
	for (int i = 0; i < n; i++) {
		uint8_t a = allowed_of(&ev[i]);
		for (int j = 0; j < i; j++) {
			uint8_t b = allowed_of(&ev[j]);
			if (popcount8(a) == 1 && a == b) {
				say_event(m, ev[j].code);
				say(m, " and ");
				say_event(m, ev[i].code);
				say(m, " both need ");
				say_pmcs(m, a, " or ");
				return P970_EPMC;
			}
		}
	}
	for (int h = 0; h < 2; h++) {
		int count = 0, k = 0;
		for (int i = 0; i < n; i++) {
			count += (allowed_of(&ev[i]) & ~halves[h]) == 0;
		}
		if (count <= 4)
			continue;
		say(m, "too many events for ");
		say_pmcs(m, halves[h], " and ");
		say(m, ": ");
		for (int i = 0; i < n; i++) {
			if (allowed_of(&ev[i]) & ~halves[h])
				continue;
			k++;
			say(m, "%s", k == 1 ? "" : k == count ? " and " : ", ");
			say_event(m, ev[i].code);
		}
		say(m, " can only be counted there");
		return P970_EPMC;
	}
	int order[NUM_PMCS];
	for (int i = 0; i < n; i++) {         /* stable insertion sort by choice count */
		int j = i, choices = popcount8(allowed_of(&ev[i]));
		for (; j > 0 && popcount8(allowed_of(&ev[order[j - 1]])) > choices; j--)
			order[j] = order[j - 1];
		order[j] = i;
	}
	if (!place(ev, order, n, 0, 0, pmc_of)) {
		say(m, "no counter assignment fits these events");
		return P970_EPMC;
	}
	return P970_OK;
}

static bool ttm0_only(unsigned u)
{
	return u == P970_UNIT_FPU || u == P970_UNIT_VPU || u == P970_UNIT_IFU;
}

static bool ttm1_only(unsigned u)
{
	return u == P970_UNIT_IDU || u == P970_UNIT_STS;
}

/* TTM0SEL / TTM1SEL value selecting a unit onto that multiplexer. */
static uint64_t ttm0_sel(unsigned u)
{
	return u == P970_UNIT_ISU ? 1 : u == P970_UNIT_IFU ? 2 : u == P970_UNIT_VPU ? 3 : 0;
}

static uint64_t ttm1_sel(unsigned u)
{
	return u == P970_UNIT_ISU ? 2 : u == P970_UNIT_STS ? 3 : 0;
}

/* Which multiplexer each unit uses: TTM0 carries one of FPU, VPU, IFU or ISU, TTM1 one of IDU,
 * STS or ISU; LSU0 has its own path (2) and LSU1 its own (3). ISU takes TTM1 only when a
 * TTM0-only unit is in the group. The first event using each unit is named in messages. */
struct ttm_plan {
	int ttm0_user, ttm1_user;      /* event index, -1 none */
	bool isu_on_ttm1;
};

static int check_ttm(const struct ev *ev, int n, struct msg *m, struct ttm_plan *t)
{
	int isu = -1;
	t->ttm0_user = t->ttm1_user = -1;
	for (int i = 0; i < n; i++) {
		unsigned u = ev[i].unit;
		int *user = ttm0_only(u) ? &t->ttm0_user : ttm1_only(u) ? &t->ttm1_user : NULL;
		const char *mux = ttm0_only(u) ? "TTM0" : "TTM1";
		if (u == P970_UNIT_ISU && isu < 0)
			isu = i;
		if (!user)
			continue;
		if (*user >= 0 && ev[*user].unit != u) {
			say_event(m, ev[*user].code);
			say(m, " and ");
			say_event(m, ev[i].code);
			say(m, " both need %s (units %s and %s)", mux, unit_name[ev[*user].unit],
				unit_name[u]);
			return P970_ETTM;
		}
		if (*user < 0)
			*user = i;
	}
	t->isu_on_ttm1 = isu >= 0 && t->ttm0_user >= 0;
	if (t->isu_on_ttm1 && t->ttm1_user >= 0) {
		say_event(m, ev[isu].code);
		say(m, " (unit ISU) needs TTM0 or TTM1, but ");
		say_event(m, ev[t->ttm0_user].code);
		say(m, " holds TTM0 (unit %s) and ", unit_name[ev[t->ttm0_user].unit]);
		say_event(m, ev[t->ttm1_user].code);
		say(m, " holds TTM1 (unit %s)", unit_name[ev[t->ttm1_user].unit]);
		return P970_ETTM;
	}
	if (isu >= 0) {
		if (t->isu_on_ttm1)
			t->ttm1_user = isu;
		else
			t->ttm0_user = isu;
	}
	return P970_OK;
}

/* Byte lane source select (TD_CP_DBGxSEL): 0 TTM0, 1 TTM1, 2 LSU0, 3 LSU1. */
static uint64_t lane_source(unsigned u, const struct ttm_plan *t)
{
	if (u == P970_UNIT_LSU0)
		return 2;
	if (u == P970_UNIT_LSU1U || u == P970_UNIT_LSU1L)
		return 3;
	if (u == P970_UNIT_ISU)
		return t->isu_on_ttm1;
	return ttm1_only(u);
}

/* MMCR1 PMCx_ADDER_SEL bit positions, PMC1..PMC8. */
static const uint8_t adder_shift[NUM_PMCS] = { 39, 38, 33, 32, 36, 37, 34, 35 };

static void compute(const struct ev *ev, int n, const struct ttm_plan *t, const int *bus_user,
	struct pmu_assignment *out)
{
	unsigned sel[NUM_PMCS];
	uint64_t mmcr1 = 0, mmcra = P970_MMCRA_ONE_IOP;
	for (int p = 0; p < NUM_PMCS; p++)
		sel[p] = P970_SEL_OFF;
	for (int i = 0; i < n; i++) {
		int p = out->pmc_of[i];
		sel[p - 1] = ev[i].sel;
		/* Linux sets the adder select only for PMCSEL-0 adder events; IBM's published
		 * event groups set it for every event reading bus byte 2 or 3. We follow IBM,
		 * which is right under either reading. */
		if (ev[i].unit && ev[i].byte >= 2)
			mmcr1 |= 1ull << adder_shift[p - 1];
		mmcr1 |= ev[i].spcsel;
		if (p970_code_marked(ev[i].code))
			mmcra |= P970_MMCRA_SAMPLE_ENABLE;
	}
	for (int p = 3; p <= NUM_PMCS; p++)
		mmcr1 |= (uint64_t)sel[p - 1] << MMCR1_PMCSEL_SHIFT(p);
	if (t->ttm0_user >= 0)
		mmcr1 |= ttm0_sel(ev[t->ttm0_user].unit) << P970_MMCR1_TTM0SEL_SHIFT;
	if (t->ttm1_user >= 0)
		mmcr1 |= ttm1_sel(ev[t->ttm1_user].unit) << P970_MMCR1_TTM1SEL_SHIFT;
	for (unsigned b = 0; b < 4; b++) {
		if (bus_user[b] < 0)
			continue;
		unsigned u = ev[bus_user[b]].unit;
		mmcr1 |= lane_source(u, t) << P970_MMCR1_DBGSEL_SHIFT(b);
		/* TTM3 carries LSU1's upper half on all bytes; one bit per byte 2/3 switches that
		 * byte to the lower half. */
		if (u == P970_UNIT_LSU1L)
			mmcr1 |= 1ull << (P970_MMCR1_TTM3SEL_SHIFT + 3 - b);
	}
	out->mmcr0 = (uint64_t)sel[0] << MMCR0_PMC1SEL_SHIFT | (uint64_t)sel[1] << MMCR0_PMC2SEL_SHIFT;
	out->mmcr1 = mmcr1;
	out->mmcra = mmcra;
}

int p970_assign(const uint32_t *codes, int n, struct pmu_assignment *out, char *why,
	size_t why_size)
{
	struct msg m = { why, why_size, 0 };
	struct ev ev[NUM_PMCS];
	struct ttm_plan ttm;
	int bus_user[4] = { -1, -1, -1, -1 };
	int spc_user = -1, rc;

	if (why && why_size)
		why[0] = 0;
	if (n > NUM_PMCS) {
		say(&m, "too many events: the 970 has 8 counters");
		return P970_ETOOMANY;
	}
	if (n < 0 || (n > 0 && !codes) || !out) {
		say(&m, "bad arguments");
		return P970_EBADCODE;
	}
	for (int i = 0; i < n; i++) {
		const char *bad = decode(codes[i], &ev[i]);
		if (bad) {
			say(&m, "0x%x is not a 970 event code: %s", (unsigned)codes[i], bad);
			return P970_EBADCODE;
		}
		if (ev[i].pin && !(ev[i].pmcs & PMCS(ev[i].pin))) {
			say_event(&m, codes[i]);
			say(&m, " can only be counted on ");
			say_pmcs(&m, ev[i].pmcs, " or ");
			return P970_EPMC;
		}
	}
	for (int i = 0; i < n; i++) {
		if (!ev[i].spcsel)
			continue;
		if (spc_user >= 0 && ev[spc_user].spcsel != ev[i].spcsel) {
			say_event(&m, codes[spc_user]);
			say(&m, " and ");
			say_event(&m, codes[i]);
			say(&m, " need different special selects (SPCSEL %u and %u)",
				ev[spc_user].spcsel, ev[i].spcsel);
			return P970_ESPCSEL;
		}
		if (spc_user < 0)
			spc_user = i;
	}
	for (int i = 0; i < n; i++) {
		if (!ev[i].unit)
			continue;
		int *user = &bus_user[ev[i].byte];
		if (*user >= 0 && ev[*user].unit != ev[i].unit) {
			say_event(&m, codes[*user]);
			say(&m, " and ");
			say_event(&m, codes[i]);
			say(&m, " both need event-bus byte %u (units %s and %s)", ev[i].byte,
				unit_name[ev[*user].unit], unit_name[ev[i].unit]);
			return P970_EBUS;
		}
		if (*user < 0)
			*user = i;
	}
	rc = check_ttm(ev, n, &m, &ttm);
	if (rc)
		return rc;
	rc = check_counters(ev, n, &m, out->pmc_of);
	if (rc)
		return rc;
	for (int i = n; i < NUM_PMCS; i++)
		out->pmc_of[i] = 0;
	compute(ev, n, &ttm, bus_user, out);
	return P970_OK;
}

/* ---- the backend ------------------------------------------------------------------------ */

/* Processor version numbers (PVR bits 16-31): 970, 970FX, 970MP, 970GX. */
static bool p970_matches(uint32_t pvr)
{
	switch (pvr >> 16) {
	case 0x0039: case 0x003c: case 0x0044: case 0x0045:
		return true;
	}
	return false;
}

/* Instructions or cycles on one counter, every other counter's select off. */
static void p970_probe_select(int pmc, enum probe_event ev, struct pmu_regs *out)
{
	uint64_t sel = ev == PROBE_INSTRUCTIONS ? P970_SEL_INST_CMPL : P970_SEL_CYC;
	*out = (struct pmu_regs){ 0, 0, 0 };
	for (int p = 1; p <= NUM_PMCS; p++) {
		uint64_t s = p == pmc ? sel : P970_SEL_OFF;
		if (p == 1)
			out->mmcr0 |= s << MMCR0_PMC1SEL_SHIFT;
		else if (p == 2)
			out->mmcr0 |= s << MMCR0_PMC2SEL_SHIFT;
		else
			out->mmcr1 |= s << MMCR1_PMCSEL_SHIFT(p);
	}
}

const struct pmu_backend ppc970_pmu = {
	.name = "ppc970",
	.selects = "970",
	.architected = false,
	.counters = NUM_PMCS,
	.events = p970_events,
	.n_events = sizeof p970_events / sizeof p970_events[0],
	.matches = p970_matches,
	.probe_select = p970_probe_select,
	.assign = p970_assign,
	.program = book3s_program,
	.preload = book3s_preload,
	BOOK3S_INTERRUPT_CONTROL,
};

/* Monitoring configurations into per-group counter programming (common/monitor/km_plan.h). */
#include <stdarg.h>
#include <stdbool.h>
#include "km_plan.h"
#include "pmu_backend.h"
#include "common/lib/format.h"
#include "common/lib/string.h"

__attribute__((format(printf, 3, 4)))
static int refuse(char *why, size_t n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (why && n)
		format_buf_v(why, n, fmt, ap);
	va_end(ap);
	return -1;
}

static int generic_event(const struct catalogue *cat, uint32_t flag)
{
	for (size_t i = 0; i < cat->n_hw; i++)
		if (cat->hw[i].flags & flag)
			return (int)i;
	return -1;
}

/* The code the backend of encoding enc takes for event i: its own, or for an event counted
 * through the architected backend, that backend's event of the same generic kind. */
static uint32_t code_of(const struct catalogue *cat, size_t i, enum event_encoding enc)
{
	const struct event_desc *d = catalogue_desc(cat, i);
	if (enc == EVENC_ARCH) {
		const struct event_desc *a = pmu_generic_event(cat->arch,
			d->flags & (EV_GENERIC_INST | EV_GENERIC_CYC));
		return a ? a->code : 0;
	}
	return d->code;
}

/* Runs the encoding's backend's checker over the group's hardware events (codes[i] for
 * ev[hw[i]]). */
static int assign(const struct catalogue *cat, enum event_encoding enc, const uint32_t *codes,
	int n, struct pmu_assignment *out, char *why, size_t why_size)
{
	const struct pmu_backend *b = catalogue_backend(cat, enc);
	if (!b) {
		if (why && why_size)
			format_buf(why, why_size, "no PMU backend programs these events");
		return PMU_EBADCODE;
	}
	return b->assign(codes, n, out, why, why_size);
}

static int check_header(const struct catalogue *cat, const struct km_config *cfg, char *why,
	size_t n)
{
	if (cfg->n_groups > KM_MAX_GROUPS)
		return refuse(why, n, "%u groups: at most %d", (unsigned)cfg->n_groups, KM_MAX_GROUPS);
	if (cfg->n_groups == 0)
		return 0;
	if ((cfg->flags & KM_CFG_CALLCHAIN) && (cfg->chain_depth < 1 || cfg->chain_depth > KM_MAX_CHAIN))
		return refuse(why, n, "call chains of %u frames: 1 to %d", (unsigned)cfg->chain_depth,
			KM_MAX_CHAIN);
	if (!(cfg->flags & KM_CFG_CALLCHAIN) && cfg->chain_depth)
		return refuse(why, n, "a chain depth without call chains (flag 0x4)");
	if (cfg->flags & ~(uint32_t)(KM_CFG_KERNEL | KM_CFG_USER | KM_CFG_CALLCHAIN |
				     KM_CFG_FIXED_PERIOD | KM_CFG_GENERAL_PATH))
		return refuse(why, n, "unknown flags 0x%x", (unsigned)cfg->flags);
	if (!(cfg->flags & (KM_CFG_KERNEL | KM_CFG_USER)))
		return refuse(why, n, "count the kernel, user programs or both (flags 0x1, 0x2)");
	if (cfg->unit < KM_UNIT_CYCLES || cfg->unit > KM_UNIT_MICROSECONDS)
		return refuse(why, n, "slice unit %u: 1 cycles, 2 instructions, 3 microseconds",
			(unsigned)cfg->unit);
	if (cfg->slice == 0)
		return refuse(why, n, "the slice length must be above 0");
	uint32_t total = 0;
	for (uint32_t g = 0; g < cfg->n_groups; g++) {
		const struct km_group_config *gc = &cfg->group[g];
		size_t len = strnlen(gc->name, KM_GROUP_NAME);
		if (len == 0 || len == KM_GROUP_NAME)
			return refuse(why, n, "group %u: a name of 1 to %d characters is needed",
				(unsigned)g + 1, KM_GROUP_NAME - 1);
		for (uint32_t h = 0; h < g; h++)
			if (name_equal(cfg->group[h].name, gc->name))
				return refuse(why, n, "two groups are named %s", gc->name);
		if (gc->chain_depth > KM_MAX_CHAIN)
			return refuse(why, n, "group %s: call chains of %u frames: at most %d", gc->name,
				(unsigned)gc->chain_depth, KM_MAX_CHAIN);
		if (gc->share < 1 || gc->share > 100)
			return refuse(why, n, "group %s: share %u%% is not 1 to 100", gc->name,
				(unsigned)gc->share);
		total += gc->share;
		if (gc->n_events < 1 || gc->n_events > KM_MAX_GROUP_EVENTS)
			return refuse(why, n, "group %s: %u events; 1 to %d", gc->name,
				(unsigned)gc->n_events, KM_MAX_GROUP_EVENTS);
		for (uint32_t e = 0; e < gc->n_events; e++) {
			if (gc->event[e] >= catalogue_count(cat))
				return refuse(why, n, "group %s: event %u is not in the catalogue", gc->name,
					(unsigned)gc->event[e]);
			for (uint32_t f = 0; f < e; f++)
				if (gc->event[f] == gc->event[e])
					return refuse(why, n, "group %s lists %s twice", gc->name,
						catalogue_desc(cat, gc->event[e])->name);
		}
	}
	if (total != 100)
		return refuse(why, n, "the groups' shares add up to %u%%, not 100%%", (unsigned)total);
	return 0;
}

/* The group's own events into pg, checked: each counts here (and samples, when sampled), and
 * the hardware ones all through one encoding, which goes to *enc (EVENC_NONE: none). */
static int plan_events(const struct catalogue *cat, const struct km_group_config *gc,
	struct km_plan_group *pg, enum event_encoding *enc, char *why, size_t wn)
{
	*enc = EVENC_NONE;
	*pg = (struct km_plan_group){ 0 };
	for (int p = 0; p < 8; p++)
		pg->ev_of_pmc[p] = -1;
	for (int s = 0; s < SW_EVENT_COUNT; s++)
		pg->ev_of_sw[s] = -1;

	for (uint32_t e = 0; e < gc->n_events; e++) {
		const struct event_desc *d = catalogue_desc(cat, gc->event[e]);
		const struct event_status *st = catalogue_status(cat, gc->event[e]);
		if (!st->counts_here)
			return refuse(why, wn, "group %s: %s does not count on this machine: %s", gc->name,
				d->name, st->why_not ? st->why_not : "unknown reason");
		if (gc->threshold[e] && !st->samples_here)
			return refuse(why, wn, "group %s: %s cannot raise samples here: %s", gc->name,
				d->name, st->why_not ? st->why_not : "unknown reason");
		if (d->source == EVSRC_HW) {
			if (*enc != EVENC_NONE && *enc != st->encoding)
				return refuse(why, wn, "group %s: %s is counted with %s selects here, the "
					"group's other events with %s ones; put them in separate groups",
					gc->name, d->name, catalogue_selects(cat, st->encoding),
					catalogue_selects(cat, *enc));
			*enc = st->encoding;
		}
		pg->ev[pg->n++] = (struct km_plan_event){ gc->event[e], 0, 0, gc->threshold[e] };
	}
	return 0;
}

/* Instructions and cycles added to the group when it has room and counters for them, each
 * kept only if the group still fits; *enc becomes theirs if the group had none. */
static void add_generic_events(const struct catalogue *cat, struct km_plan_group *pg,
	enum event_encoding *enc)
{
	int generic[2] = { generic_event(cat, EV_GENERIC_INST), generic_event(cat, EV_GENERIC_CYC) };
	for (int k = 0; k < 2; k++) {
		int gi = generic[k];
		if (gi < 0 || pg->n >= KM_MAX_GROUP_EVENTS)
			continue;
		const struct event_status *st = catalogue_status(cat, (size_t)gi);
		bool present = false;
		for (uint32_t e = 0; e < pg->n; e++)
			present |= pg->ev[e].event == gi;
		if (present || !st->counts_here || (*enc != EVENC_NONE && *enc != st->encoding))
			continue;
		pg->ev[pg->n] = (struct km_plan_event){ (uint16_t)gi, 0, 1, 0 };
		/* Kept only if the group still fits: checked below, dropped on failure. */
		uint32_t codes[KM_MAX_GROUP_EVENTS];
		int nh = 0;
		enum event_encoding e2 = *enc == EVENC_NONE ? st->encoding : *enc;
		for (uint32_t e = 0; e <= pg->n; e++)
			if (catalogue_desc(cat, pg->ev[e].event)->source == EVSRC_HW)
				codes[nh++] = code_of(cat, pg->ev[e].event, e2);
		struct pmu_assignment a;
		if (nh <= 8 && assign(cat, e2, codes, nh, &a, 0, 0) == PMU_OK) {
			pg->n++;
			*enc = e2;
		}
	}
}

/* The checker's assignment of the nh hardware events (codes[h] for pg->ev[hw_ev[h]]) into *a
 * and the group's control registers; a sampled event is pinned to a counter whose overflow
 * interrupts here if the checker's first choice cannot. */
static int assign_sampled(const struct catalogue *cat, const struct km_group_config *gc,
	struct km_plan_group *pg, enum event_encoding enc, uint32_t *codes, const int *hw_ev,
	int nh, struct pmu_assignment *a, char *why, size_t wn)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		char checker[256];
		if (nh && assign(cat, enc, codes, nh, a, checker, sizeof checker))
			return refuse(why, wn, "group %s: %s", gc->name, checker);
		pg->mmcr0 = a->mmcr0;
		pg->mmcr1 = a->mmcr1;
		pg->mmcra = a->mmcra;
		bool repinned = false;
		for (int h = 0; h < nh; h++) {
			const struct km_plan_event *pe = &pg->ev[hw_ev[h]];
			const struct event_status *st = catalogue_status(cat, pe->event);
			if (!pe->threshold || (st->sample_pmcs & PMCS(a->pmc_of[h])))
				continue;
			if (attempt == 1)
				return refuse(why, wn, "group %s: %s is sampled, but no counter it can use "
					"interrupts on overflow here", gc->name,
					catalogue_desc(cat, pe->event)->name);
			for (int p = 1; p <= 8; p++)
				if (st->sample_pmcs & PMCS(p)) {
					codes[h] = PMU_PIN(PMU_CODE_EVENT(codes[h]), p);
					repinned = true;
					break;
				}
		}
		if (!repinned)
			break;
	}
	return 0;
}

/* Counters for the group's hardware events, and the software events' index. */
static int place_counters(const struct catalogue *cat, const struct km_group_config *gc,
	struct km_plan_group *pg, enum event_encoding enc, char *why, size_t wn)
{
	uint32_t codes[KM_MAX_GROUP_EVENTS];
	int hw_ev[KM_MAX_GROUP_EVENTS], nh = 0;
	struct pmu_assignment a = { 0 };
	for (uint32_t e = 0; e < pg->n; e++) {
		const struct event_desc *d = catalogue_desc(cat, pg->ev[e].event);
		if (d->source != EVSRC_HW) {
			pg->ev_of_sw[d->code] = (int8_t)e;
			continue;
		}
		if (nh == 8)
			return refuse(why, wn, "group %s: more than 8 hardware events", gc->name);
		hw_ev[nh] = (int)e;
		codes[nh++] = code_of(cat, pg->ev[e].event, enc);
	}
	if (assign_sampled(cat, gc, pg, enc, codes, hw_ev, nh, &a, why, wn))
		return -1;
	for (int h = 0; h < nh; h++) {
		struct km_plan_event *pe = &pg->ev[hw_ev[h]];
		const struct event_desc *d = catalogue_desc(cat, pe->event);
		pe->pmc = (uint8_t)a.pmc_of[h];
		pg->used_pmcs |= (uint8_t)PMCS(pe->pmc);
		if (pe->threshold)
			pg->sample_pmcs |= (uint8_t)PMCS(pe->pmc);
		pg->ev_of_pmc[pe->pmc - 1] = (int8_t)hw_ev[h];
		if (d->flags & EV_GENERIC_INST)
			pg->inst_pmc = (int8_t)pe->pmc;
		if (d->flags & EV_GENERIC_CYC)
			pg->cyc_pmc = (int8_t)pe->pmc;
	}
	return 0;
}

/* Plans one group: checks its events, adds instructions and cycles where they fit, finds the
 * counters. */
static int plan_group(const struct catalogue *cat, const struct km_group_config *gc,
	struct km_plan_group *pg, struct km_group_config *out, char *why, size_t wn)
{
	enum event_encoding enc;
	if (plan_events(cat, gc, pg, &enc, why, wn))
		return -1;
	add_generic_events(cat, pg, &enc);
	if (place_counters(cat, gc, pg, enc, why, wn))
		return -1;
	/* A group of software events alone keeps the counters as the machine's backend leaves
	 * them; it has one only if something counts here. */
	pg->pmu = enc != EVENC_NONE ? catalogue_backend(cat, enc) : catalogue_pmu_in_use(cat);
	*out = *gc;
	out->n_events = pg->n;
	for (uint32_t e = 0; e < pg->n; e++) {
		out->event[e] = pg->ev[e].event;
		out->threshold[e] = pg->ev[e].threshold;
	}
	return 0;
}

int km_plan_build(const struct catalogue *cat, const struct km_config *cfg,
	struct km_plan *plan, struct km_config *applied, char *why, size_t why_size)
{
	if (why && why_size)
		why[0] = 0;
	if (check_header(cat, cfg, why, why_size))
		return -1;
	struct km_config out = *cfg;
	plan->n_groups = cfg->n_groups;
	for (uint32_t g = 0; g < cfg->n_groups; g++) {
		if (plan_group(cat, &cfg->group[g], &plan->group[g], &out.group[g], why, why_size))
			return -1;
		uint32_t depth = cfg->group[g].chain_depth;
		if (!depth && (cfg->flags & KM_CFG_CALLCHAIN))
			depth = cfg->chain_depth;
		plan->group[g].chain_depth = (uint8_t)depth;
		out.group[g].chain_depth = depth;
	}
	if (applied)
		*applied = out;
	return 0;
}

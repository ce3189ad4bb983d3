/* The planner's word on the configuration being built (viewer/config.h): the target's
 * catalogue as the KM's planner (common/monitor/km_plan.c) sees it, the group being edited
 * placed on the counters, the event under the cursor tried with it, and the same question put
 * to the catalogue's own processor's constraint checker (a 970's event-bus bytes, counter
 * halves and multiplexers), which under QEMU is the only place those constraints show.
 *
 * The planner needs each event's status on this target: it is rebuilt from what the
 * catalogue says (counts here, samples here, why not); which selects count is inferred as the
 * KM's boot probe decides it (ISA 2.07 selects when only instructions and cycles count). The
 * target's KM checks again and has the last word. */
#include <stdio.h>
#include <string.h>
#include "viewer/config.h"
#include "client/pmuconf_explain.h"
#include "common/monitor/pmu_backend.h"

static struct catalogue cat;
static struct km_plan plan;

struct catalogue *config_catalogue(void)
{
	return &cat;
}

/* How many of the target's catalogue events backend b's table holds. */
static size_t events_known(const struct pmu_backend *b, const struct target *t)
{
	size_t n = 0;
	for (size_t i = 0; i < t->n_cat; i++)
		for (size_t k = 0; k < b->n_events; k++)
			n += !strcmp(b->events[k].name, t->cat[i].name);
	return n;
}

/* The backend whose table the target's catalogue lists: the KM's catalogue is its processor's
 * backend's table (whichever selects the probe then counts with), so the registry's choice for
 * the PVR the target reports; without the target's description (a recording without one), the
 * registered backend that knows most of the catalogue's events. */
static const struct pmu_backend *catalogue_backend_of(const struct target *t)
{
	if (t->have_desc)
		return pmu_backend_for_pvr(t->desc.pvr);
	const struct pmu_backend *best = NULL;
	size_t most = 0;
	for (size_t i = 0; pmu_backend_at(i); i++) {
		size_t n = events_known(pmu_backend_at(i), t);
		if (n > most) {
			most = n;
			best = pmu_backend_at(i);
		}
	}
	return best;
}

void config_catalogue_load(const struct target *t)
{
	catalogue_init_pmu(&cat, catalogue_backend_of(t), pmu_backend_architected());
	bool native = false;
	for (size_t i = 0; i < t->n_cat; i++) {
		int k = catalogue_find(&cat, t->cat[i].name);
		const struct event_desc *d = k >= 0 ? catalogue_desc(&cat, (size_t)k) : NULL;
		if (d && d->source == EVSRC_HW && !(d->flags & (EV_GENERIC_INST | EV_GENERIC_CYC)) &&
		    (t->cat[i].flags & PROTO_EV_COUNTS_HERE))
			native = true;
	}
	for (size_t i = 0; i < t->n_cat; i++) {
		int k = catalogue_find(&cat, t->cat[i].name);
		if (k < 0)
			continue;
		const struct event_desc *d = catalogue_desc(&cat, (size_t)k);
		struct event_status *s = &cat.status[k];
		s->counts_here = t->cat[i].flags & PROTO_EV_COUNTS_HERE;
		s->samples_here = t->cat[i].flags & PROTO_EV_SAMPLES_HERE;
		s->why_not = t->cat[i].why_not[0] ? t->cat[i].why_not : NULL;
		if (d->source != EVSRC_HW || !s->counts_here)
			continue;
		s->encoding = native ? EVENC_NATIVE : EVENC_ARCH;
		s->count_pmcs = native ? d->pmcs : (d->flags & EV_GENERIC_INST) ? 0x1f : 0x3f;
		s->sample_pmcs = s->samples_here ? (native ? d->pmcs : 0x1f) : 0;
	}
}

void config_to_km(const struct proto_pmu_config *c, struct km_config *k, bool counting_only)
{
	memset(k, 0, sizeof *k);
	k->n_groups = c->n_groups;
	k->unit = c->unit;
	k->flags = c->flags;
	k->slice = c->slice;
	k->chain_depth = c->chain_depth;
	for (unsigned g = 0; g < c->n_groups; g++) {
		snprintf(k->group[g].name, sizeof k->group[g].name, "%.*s", (int)c->groups[g].name.len,
			 c->groups[g].name.s);
		k->group[g].share = c->groups[g].share;
		uint32_t n = 0;
		for (unsigned e = 0; e < c->groups[g].n_events; e++) {
			int i = catalogue_find(&cat, c->groups[g].events[e].name.s);
			if (counting_only && i >= 0 && !cat.status[i].counts_here)
				continue;
			k->group[g].event[n] = (uint16_t)(i < 0 ? 0xffff : i);
			k->group[g].threshold[n++] = c->groups[g].events[e].threshold;
		}
		k->group[g].n_events = n;
	}
}

/* The group being edited alone (all the time), with catalogue event `extra` added when it is
 * >= 0 and not in it: the planner's placement into plan, 0, or -1 and its sentence. */
static int plan_alone(const struct config_ui *ui, int extra, char *why, size_t n)
{
	static struct km_config k;
	struct proto_pmu_config one = ui->conf.cfg;
	one.n_groups = 1;
	one.groups[0] = ui->conf.cfg.groups[ui->group];
	one.groups[0].share = 100;
	config_to_km(&one, &k, true);
	struct km_group_config *g = &k.group[0];
	bool in = false;
	for (uint32_t e = 0; e < g->n_events; e++)
		in |= g->event[e] == extra;
	if (extra >= 0 && !in && g->n_events < KM_MAX_GROUP_EVENTS)
		g->event[g->n_events++] = (uint16_t)extra;
	if (!g->n_events) {
		snprintf(why, n, ui->conf.cfg.groups[ui->group].n_events ? "none of its events counts "
			 "here" : "no events yet");
		return -1;
	}
	return km_plan_build(&cat, &k, &plan, NULL, why, n);
}

/* The catalogue's own processor's backend where it is not what counts here (QEMU counts
 * through ISA 2.07 selects): the constraints a 970's counters would put on the group. */
static const struct pmu_backend *native_backend(void)
{
	const struct pmu_backend *b = cat.native;
	return b && catalogue_pmu_in_use(&cat) != b ? b : NULL;
}

/* The group's hardware events (and catalogue event extra, >= 0, last) as that backend's codes;
 * their catalogue indices in idx. */
static int native_codes(const struct config_ui *ui, int extra, uint32_t *codes, int *idx)
{
	int n = 0;
	const struct proto_group *pg = &ui->conf.cfg.groups[ui->group];
	for (unsigned e = 0; e <= pg->n_events && n < KM_MAX_GROUP_EVENTS; e++) {
		int i = e < pg->n_events ? catalogue_find(&cat, pg->events[e].name.s) : extra;
		if (i < 0 || catalogue_desc(&cat, (size_t)i)->source != EVSRC_HW ||
		    (e < pg->n_events && i == extra))
			continue;
		idx[n] = i;
		codes[n++] = catalogue_desc(&cat, (size_t)i)->code;
	}
	return n;
}

/* The group on the native backend's counters: ui->native, or the reason in native_why. */
static void native_plan(struct config_ui *ui)
{
	const struct pmu_backend *b = native_backend();
	uint32_t codes[KM_MAX_GROUP_EVENTS];
	int idx[KM_MAX_GROUP_EVENTS], pmc_of[NUM_PMCS], a, c2, c3;
	ui->n_native = 0;
	ui->native_why[0] = 0;
	ui->native_name = b ? b->selects : NULL;
	int n = b ? native_codes(ui, -1, codes, idx) : 0;
	if (!n)
		return;
	if (kov_pmu_conflict(b, codes, n, &a, &c2, &c3, ui->native_why, sizeof ui->native_why))
		return;
	kov_pmu_fit(b, codes, n, pmc_of, ui->native_why, sizeof ui->native_why);
	for (int k = 0; k < n; k++) {
		struct config_placed *p = &ui->native[ui->n_native++];
		snprintf(p->name, sizeof p->name, "%s", catalogue_desc(&cat, (size_t)idx[k])->name);
		p->pmc = (uint8_t)pmc_of[k];
		p->added = false;
		p->threshold = 0;
	}
}

/* The cursor's event (extra) with the group on the native backend: ui->whatif. */
static void what_if(struct config_ui *ui, int extra)
{
	const struct pmu_backend *b = native_backend();
	ui->whatif[0] = 0;
	if (!b || extra < 0 || catalogue_desc(&cat, (size_t)extra)->source != EVSRC_HW)
		return;
	uint32_t codes[KM_MAX_GROUP_EVENTS];
	int idx[KM_MAX_GROUP_EVENTS], pmc_of[NUM_PMCS], a, c2, c3;
	int n = native_codes(ui, extra, codes, idx);
	char why[256];
	if (kov_pmu_conflict(b, codes, n, &a, &c2, &c3, why, sizeof why) == 0) {
		kov_pmu_fit(b, codes, n, pmc_of, why, sizeof why);
		snprintf(ui->whatif, sizeof ui->whatif, "on a %s: %s fits with the group's hardware "
			 "events, on PMC%d", b->selects, catalogue_desc(&cat, (size_t)extra)->name,
			 pmc_of[n - 1]);
	} else {
		snprintf(ui->whatif, sizeof ui->whatif, "on a %s: %s", b->selects, why);
	}
}

/* Where plan's group 0 put catalogue event i: its counter, 0 for a software event, -1 absent. */
static int pmc_in_plan(int i)
{
	for (uint32_t e = 0; e < plan.group[0].n; e++)
		if (plan.group[0].ev[e].event == i)
			return plan.group[0].ev[e].pmc;
	return -1;
}

void config_explain(struct config_ui *ui, const struct target *t)
{
	ui->n_placed = 0;
	ui->verdict[0] = 0;
	if (plan_alone(ui, -1, ui->plan_why, sizeof ui->plan_why) == 0) {
		for (uint32_t e = 0; e < plan.group[0].n; e++) {
			const struct km_plan_event *pe = &plan.group[0].ev[e];
			struct config_placed *p = &ui->placed[ui->n_placed++];
			snprintf(p->name, sizeof p->name, "%s", catalogue_desc(&cat, pe->event)->name);
			p->pmc = pe->pmc;
			p->added = pe->added;
			p->threshold = pe->threshold;
		}
	}
	native_plan(ui);
	const struct kov_event *ev = config_cursor_event(ui, t);
	int extra = ev ? catalogue_find(&cat, ev->name) : -1;
	what_if(ui, extra);
	if (extra < 0)
		return;
	const char *group = ui->conf.cfg.groups[ui->group].name.s;
	bool in = false;
	for (unsigned e = 0; e < ui->conf.cfg.groups[ui->group].n_events; e++)
		in |= !strcmp(ui->conf.cfg.groups[ui->group].events[e].name.s, ev->name);
	char why[300];
	if (plan_alone(ui, extra, why, sizeof why) != 0) {
		snprintf(ui->verdict, sizeof ui->verdict, "%s", why);
		return;
	}
	int pmc = pmc_in_plan(extra);
	char where[32];
	snprintf(where, sizeof where, pmc > 0 ? "on PMC%d" : "counted by the kernel", pmc);
	snprintf(ui->verdict, sizeof ui->verdict, in ? "%s is in %s, %s" : "%s fits in %s, %s (Space "
		 "adds it)", ev->name, group, where);
}

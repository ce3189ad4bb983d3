/* The PMU configuration utility (thesis figure 3.7): named groups of events picked from the
 * target's catalogue, with sampling thresholds and time shares, checked as they are built by
 * the same planner the KM runs (common/monitor/km_plan.c) so a choice the counters cannot take together
 * is refused on the spot with the reason; saved as a configuration file, sent to the target.
 *
 * The planner needs each event's status on this target: it is rebuilt from what the
 * catalogue says (counts here, samples here, why not); which selects count is inferred as the
 * KM's boot probe decides it (ISA 2.07 selects when only instructions and cycles count). The
 * target's KM checks again and has the last word. */
#include <stdio.h>
#include <string.h>
#include "viewer/viewer.h"
#include "common/monitor/km_plan.h"
#include "common/monitor/pmu_backend.h"

static struct catalogue cat;
static struct km_plan plan;
static struct km_config applied;

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

/* The planner's view of the target's catalogue. */
static void host_catalogue(const struct target *t)
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

void config_open(struct config_ui *ui, const struct target *t)
{
	memset(ui, 0, sizeof *ui);
	ui->open = true;
	struct proto_pmu_config *c = &ui->conf.cfg;
	c->unit = PROTO_UNIT_MICROSECONDS;
	c->slice = 10000;
	c->flags = PROTO_CFG_KERNEL | PROTO_CFG_USER;
	c->n_groups = 1;
	snprintf(ui->conf.names[0], sizeof ui->conf.names[0], "g1");
	c->groups[0].name = (struct proto_str){ ui->conf.names[0], 2 };
	c->groups[0].share = 100;
	ui->used = 1;
	host_catalogue(t);
	snprintf(ui->msg, sizeof ui->msg, "Space adds or removes the event, T its threshold; G new group, "
		 "←/→ group, +/- its share, ,/. slice length, S save, Enter send, Esc close");
}

/* Checks the configuration with the planner: 0, or -1 with the reason in ui->msg. */
static int check(struct config_ui *ui, const struct target *t)
{
	const struct proto_pmu_config *c = &ui->conf.cfg;
	static struct km_config k;
	memset(&k, 0, sizeof k);
	k.n_groups = c->n_groups;
	k.unit = c->unit;
	k.flags = c->flags;
	k.slice = c->slice;
	for (unsigned g = 0; g < c->n_groups; g++) {
		snprintf(k.group[g].name, sizeof k.group[g].name, "%.*s", (int)c->groups[g].name.len,
			 c->groups[g].name.s);
		k.group[g].share = c->groups[g].share;
		k.group[g].n_events = c->groups[g].n_events;
		for (unsigned e = 0; e < c->groups[g].n_events; e++) {
			int i = catalogue_find(&cat, c->groups[g].events[e].name.s);
			k.group[g].event[e] = (uint16_t)(i < 0 ? 0xffff : i);
			k.group[g].threshold[e] = c->groups[g].events[e].threshold;
		}
	}
	(void)t;
	return km_plan_build(&cat, &k, &plan, &applied, ui->msg, sizeof ui->msg);
}

static struct proto_group *current(struct config_ui *ui)
{
	return &ui->conf.cfg.groups[ui->group];
}

static void toggle(struct config_ui *ui, const struct target *t)
{
	if (ui->cursor >= t->n_cat)
		return;
	struct proto_group *g = current(ui);
	const char *name = t->cat[ui->cursor].name;
	for (unsigned e = 0; e < g->n_events; e++)
		if (!strcmp(g->events[e].name.s, name)) {
			memmove(&g->events[e], &g->events[e + 1], (g->n_events - e - 1) * sizeof g->events[0]);
			g->n_events--;
			snprintf(ui->msg, sizeof ui->msg, "%s removed", name);
			return;
		}
	if (g->n_events == PROTO_MAX_GROUP_EVENTS || ui->used == sizeof ui->conf.names / sizeof ui->conf.names[0]) {
		snprintf(ui->msg, sizeof ui->msg, "the group is full");
		return;
	}
	char *slot = ui->conf.names[ui->used++];
	snprintf(slot, sizeof ui->conf.names[0], "%s", name);
	g->events[g->n_events++] = (struct proto_group_event){ { slot, (uint16_t)strlen(slot) }, 0 };
	if (check(ui, t) != 0) {   /* the counters cannot take it: undo, keep the reason */
		g->n_events--;
		return;
	}
	snprintf(ui->msg, sizeof ui->msg, "%s added to %s", name, g->name.s);
}

static void threshold(struct config_ui *ui, const struct target *t)
{
	static const uint64_t presets[] = { 0, 10007, 100003, 1000003, 10000019 };
	struct proto_group *g = current(ui);
	for (unsigned e = 0; e < g->n_events; e++)
		if (!strcmp(g->events[e].name.s, t->cat[ui->cursor].name)) {
			size_t k = 0;
			while (k < 5 && presets[k] != g->events[e].threshold)
				k++;
			uint64_t was = g->events[e].threshold;
			g->events[e].threshold = presets[(k + 1) % 5];
			if (check(ui, t) != 0)
				g->events[e].threshold = was;   /* e.g. cannot sample here */
			else
				snprintf(ui->msg, sizeof ui->msg, "%s: %s", g->events[e].name.s,
					 g->events[e].threshold ? "sampled" : "counted only");
			return;
		}
	snprintf(ui->msg, sizeof ui->msg, "add the event first (Space)");
}

static void add_group(struct config_ui *ui)
{
	struct proto_pmu_config *c = &ui->conf.cfg;
	if (c->n_groups == PROTO_MAX_GROUPS || ui->used == sizeof ui->conf.names / sizeof ui->conf.names[0])
		return;
	char *slot = ui->conf.names[ui->used++];
	snprintf(slot, sizeof ui->conf.names[0], "g%u", (unsigned)c->n_groups + 1);
	c->groups[c->n_groups++] = (struct proto_group){ { slot, (uint16_t)strlen(slot) }, 0, 0, { { { 0, 0 }, 0 } } };
	for (unsigned g = 0; g < c->n_groups; g++)   /* equal shares, the rest to the first */
		c->groups[g].share = (uint16_t)(100 / c->n_groups + (g == 0 ? 100 % c->n_groups : 0));
	ui->group = c->n_groups - 1;
	snprintf(ui->msg, sizeof ui->msg, "group %s: shares now %u%% each", slot, 100 / c->n_groups);
}

/* +/-: 5 points of share moved between the current group and the next one (shares stay 1-99
 * and add up to 100). */
static void share(struct config_ui *ui, int delta)
{
	struct proto_pmu_config *c = &ui->conf.cfg;
	if (c->n_groups < 2) {
		snprintf(ui->msg, sizeof ui->msg, "one group has all the time: add a group (G) first");
		return;
	}
	struct proto_group *g = &c->groups[ui->group], *o = &c->groups[(ui->group + 1) % c->n_groups];
	int d = delta > 0 ? (o->share - 1 < delta ? o->share - 1 : delta) : -(g->share - 1 < -delta ? g->share - 1 : -delta);
	g->share = (uint16_t)(g->share + d);
	o->share = (uint16_t)(o->share - d);
	snprintf(ui->msg, sizeof ui->msg, "%s %u%%, %s %u%%", g->name.s, g->share, o->name.s, o->share);
}

static void save(struct config_ui *ui)
{
	char text[8192];
	int n = kov_pmuconf_format(&ui->conf.cfg, text, sizeof text);
	FILE *f = fopen("kov-config.pmu", "w");
	if (f && n > 0 && fwrite(text, 1, (size_t)n, f) == (size_t)n)
		snprintf(ui->msg, sizeof ui->msg, "saved to kov-config.pmu (kovctl configure and --config read it)");
	else
		snprintf(ui->msg, sizeof ui->msg, "cannot write kov-config.pmu");
	if (f)
		fclose(f);
}

static void send(struct config_ui *ui, struct target *t)
{
	for (unsigned g = 0; g < ui->conf.cfg.n_groups; g++)
		if (!ui->conf.cfg.groups[g].n_events) {
			snprintf(ui->msg, sizeof ui->msg, "group %s has no events", ui->conf.cfg.groups[g].name.s);
			return;
		}
	if (check(ui, t) != 0)
		return;
	if (t->state != CONN_UP || kov_client_target(t->c)->role != PROTO_ROLE_CONTROLLER) {
		snprintf(ui->msg, sizeof ui->msg, "sending needs a connection as controller (--token)");
		return;
	}
	static uint8_t frame[PROTO_MAX_FRAME];
	struct kov_answer a;
	int n = proto_encode_pmu_config(frame, sizeof frame, 0, 0, &ui->conf.cfg);
	if (n < 0 || kov_client_call(t->c, frame, (size_t)n, &a) < 0) {
		snprintf(ui->msg, sizeof ui->msg, "refused: %s", kov_client_error(t->c));
		return;
	}
	target_take_config(t, &a.frames[a.count - 1].f);
	kov_answer_free(&a);
	struct proto_start s = { PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS | PROTO_STREAM_LOCKS, 0 };
	n = proto_encode_start(frame, sizeof frame, 0, 0, &s);
	if (kov_client_call(t->c, frame, (size_t)n, &a) == 0) {
		kov_answer_free(&a);
		snprintf(ui->msg, sizeof ui->msg, "sent and started");
		ui->sent = true;
	} else {
		snprintf(ui->msg, sizeof ui->msg, "start refused: %s", kov_client_error(t->c));
	}
}

bool config_key(struct config_ui *ui, struct target *t, int key)
{
	switch (key) {
	case 27: ui->open = false; return true;
	case 'u': if (ui->cursor) ui->cursor--; return true;
	case 'd': if (ui->cursor + 1 < t->n_cat) ui->cursor++; return true;
	case ' ': toggle(ui, t); return true;
	case 't': threshold(ui, t); return true;
	case 'g': add_group(ui); return true;
	case 'l': if (ui->group) ui->group--; return true;
	case 'r': if (ui->group + 1 < ui->conf.cfg.n_groups) ui->group++; return true;
	case 's': save(ui); return true;
	case '+': share(ui, 5); return true;
	case '<': case '>': {   /* the slice length: halved or doubled, 1 ms to 1 s */
		struct proto_pmu_config *c = &ui->conf.cfg;
		uint64_t s2 = key == '<' ? c->slice / 2 : c->slice * 2;
		c->slice = s2 < 1000 ? 1000 : s2 > 1000000 ? 1000000 : s2;
		snprintf(ui->msg, sizeof ui->msg, "slice %llu us", (unsigned long long)c->slice);
		return true;
	}
	case '-': share(ui, -5); return true;
	case '\r': send(ui, t); return true;
	default: return false;
	}
}

void config_draw(cairo_t *cr, const struct config_ui *ui, const struct target *t, double x,
		 double y, double w, double h)
{
	cairo_save(cr);
	cairo_rectangle(cr, x, y, w, h);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_fill_preserve(cr);
	cairo_set_source_rgb(cr, 0.18, 0.44, 0.87);
	cairo_set_line_width(cr, 2);
	cairo_stroke_preserve(cr);
	cairo_clip(cr);   /* long reasons end at the border */
	cairo_set_source_rgb(cr, 0.12, 0.14, 0.16);
	text_draw(cr, x + 10, y + 8, "Sans Bold 11", "PMU configuration");
	char slice[48];
	snprintf(slice, sizeof slice, "slice %llu us", (unsigned long long)ui->conf.cfg.slice);
	text_draw(cr, x + w - 10 - text_width(cr, "Sans 9", slice), y + 10, "Sans 9", slice);
	/* Groups, the current one marked. */
	const struct proto_pmu_config *c = &ui->conf.cfg;
	double gx = x + 180;
	for (unsigned g = 0; g < c->n_groups; g++) {
		char lab[64];
		snprintf(lab, sizeof lab, "%s%s %u%% (%u)%s", g == ui->group ? "[" : "", c->groups[g].name.s,
			 c->groups[g].share, c->groups[g].n_events, g == ui->group ? "]" : "");
		gx += text_draw(cr, gx, y + 10, g == ui->group ? "Sans Bold 9" : "Sans 9", lab) + 14;
	}
	cairo_set_source_rgb(cr, 0.64, 0.23, 0.16);
	double mh = text_wrap(cr, x + 10, y + 30, w - 20, "Sans 9", ui->msg);
	double ly = y + 36 + mh, row = 16;
	size_t rows = (size_t)((y + h - ly - 6) / row), first = ui->cursor > rows / 2 ? ui->cursor - rows / 2 : 0;
	const struct proto_group *g = &c->groups[ui->group];
	for (size_t i = first; i < t->n_cat && i < first + rows; i++, ly += row) {
		const struct kov_event *e = &t->cat[i];
		bool in = false;
		uint64_t thr = 0;
		for (unsigned k = 0; k < g->n_events; k++)
			if (!strcmp(g->events[k].name.s, e->name)) {
				in = true;
				thr = g->events[k].threshold;
			}
		if (i == ui->cursor) {
			cairo_rectangle(cr, x + 4, ly, w - 8, row);
			cairo_set_source_rgba(cr, 0.18, 0.44, 0.87, 0.18);
			cairo_fill(cr);
		}
		bool counts = e->flags & PROTO_EV_COUNTS_HERE;
		char line[320];
		/* On what "counts here" rests: measured by the boot probe, assumed (not itself
		 * probed), counted by the kernel; or why it does not count. */
		const char *basis = counts ? kov_event_basis(&t->desc, e) : e->why_not;
		if (in)
			snprintf(line, sizeof line, "[x] %-24s %-12s %s", e->name, counts ? basis : "",
				 thr ? "sample" : "count");
		else
			snprintf(line, sizeof line, "[ ] %-24s %s", e->name, basis);
		if (in && thr) {
			char t2[32];
			snprintf(t2, sizeof t2, " every %llu", (unsigned long long)thr);
			strncat(line, t2, sizeof line - strlen(line) - 1);
		}
		if (counts)
			cairo_set_source_rgb(cr, 0.12, 0.14, 0.16);
		else
			cairo_set_source_rgb(cr, 0.55, 0.58, 0.62);
		text_draw(cr, x + 10, ly, "Monospace 8.5", line);
	}
	cairo_restore(cr);
}

/* The PMU configuration utility (thesis figure 3.7): named groups of events picked from the
 * target's catalogue, with sampling thresholds and time shares, checked as they are built by
 * the same planner the KM runs (common/monitor/km_plan.c) so a choice the counters cannot take together
 * is refused on the spot with the reason; saved as a configuration file, sent to the target.
 * This file holds the configuration and the keys; the list, the planner's explanations and
 * the drawing are config_list.c's, config_explain.c's and config_draw.c's. */
#include <stdio.h>
#include <string.h>
#include "viewer/config.h"

static struct km_plan plan;
static struct km_config applied;

/* After every key: the list and the planner's word on the group and the cursor. */
static void refresh(struct config_ui *ui, const struct target *t)
{
	config_list_build(ui, t);
	config_explain(ui, t);
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
	config_catalogue_load(t);
	refresh(ui, t);
	snprintf(ui->msg, sizeof ui->msg, "Space adds or removes the event, T samples it; / searches, "
		 "H shows or hides a section; G new group, ←/→ group, +/- its share, ,/. slice "
		 "length, S save, Enter send, Esc close");
}

/* Checks the configuration with the planner: 0, or -1 with the reason in ui->msg. While it
 * is being built (counting_only), the events kept as plans for another processor and groups
 * with no events yet are left out (their share lent to the first group), so that neither
 * makes every other choice wrong. */
static int check(struct config_ui *ui, bool counting_only)
{
	static struct km_config k;
	config_to_km(&ui->conf.cfg, &k, counting_only);
	uint32_t kept = 0, lent = 0;
	for (uint32_t g = 0; g < k.n_groups; g++)
		if (k.group[g].n_events)
			k.group[kept++] = k.group[g];
		else
			lent += k.group[g].share;
	if (!kept)
		return 0;
	k.n_groups = kept;
	k.group[0].share += lent;
	return km_plan_build(config_catalogue(), &k, &plan, &applied, ui->msg, sizeof ui->msg);
}
static struct proto_group *current(struct config_ui *ui)
{
	return &ui->conf.cfg.groups[ui->group];
}

static void toggle(struct config_ui *ui, const struct target *t)
{
	const struct kov_event *ev = config_cursor_event(ui, t);
	if (!ev) {   /* on a heading: its section shown or hidden */
		config_toggle_section(ui, t);
		return;
	}
	struct proto_group *g = current(ui);
	const char *name = ev->name;
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
	if (!(ev->flags & PROTO_EV_COUNTS_HERE) && ev->source == PROTO_SRC_HW) {
		/* It stays as a plan for the processor whose event it is, if that processor's
		 * counters could take it with the group's: its counters there are shown, and the
		 * planner refuses to send it here (Enter says why). */
		config_explain(ui, t);
		if (ui->native_why[0]) {
			snprintf(ui->msg, sizeof ui->msg, "not added: on a %s, %.240s",
				 ui->native_name ? ui->native_name : "its processor", ui->native_why);
			g->n_events--;
			ui->used--;
			return;
		}
		snprintf(ui->msg, sizeof ui->msg, "%s added to %s as a plan for a %s: it does not count "
			 "here (%s), so Enter will refuse the group", name, g->name.s,
			 ui->native_name ? ui->native_name : "real processor", ev->why_not);
		return;
	}
	if (check(ui, true) != 0) {   /* the counters cannot take it: undo, keep the reason */
		g->n_events--;
		ui->used--;
		return;
	}
	snprintf(ui->msg, sizeof ui->msg, "%s added to %s", name, g->name.s);
}

static void threshold(struct config_ui *ui, const struct target *t)
{
	static const uint64_t presets[] = { 0, 10007, 100003, 1000003, 10000019 };
	struct proto_group *g = current(ui);
	const struct kov_event *ev = config_cursor_event(ui, t);
	for (unsigned e = 0; ev && e < g->n_events; e++)
		if (!strcmp(g->events[e].name.s, ev->name)) {
			size_t k = 0;
			while (k < 5 && presets[k] != g->events[e].threshold)
				k++;
			uint64_t was = g->events[e].threshold;
			g->events[e].threshold = presets[(k + 1) % 5];
			if (check(ui, true) != 0)
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
	if (check(ui, false) != 0)
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
	if (target_start(t, PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS | PROTO_STREAM_LOCKS) == 0) {
		snprintf(ui->msg, sizeof ui->msg, "sent and started%s", t->locks_refused[0] ?
			 " (without the lock stream: the target has no lock statistics)" : "");
		ui->sent = true;
	} else {
		snprintf(ui->msg, sizeof ui->msg, "start refused: %s", kov_client_error(t->c));
	}
}

/* Call chains (the flame graph's stacks) on or off: 16 frames, as sim/demo.pmu keeps. */
static void chains(struct config_ui *ui)
{
	struct proto_pmu_config *c = &ui->conf.cfg;
	c->flags ^= PROTO_CFG_CALLCHAIN;
	c->chain_depth = c->flags & PROTO_CFG_CALLCHAIN ? 16 : 0;
	snprintf(ui->msg, sizeof ui->msg, c->chain_depth ? "samples carry call chains of up to 16 "
		 "frames (the flame graph, G); a sample then costs about 366 guest instructions instead of 289" :
		 "no call chains");
}

static bool slice_key(struct config_ui *ui, int key)
{
	/* The slice length: halved or doubled, 1 ms to 1 s. */
	struct proto_pmu_config *c = &ui->conf.cfg;
	uint64_t s2 = key == '<' ? c->slice / 2 : c->slice * 2;
	c->slice = s2 < 1000 ? 1000 : s2 > 1000000 ? 1000000 : s2;
	char len[48];
	config_slice_text(c, len, sizeof len);
	snprintf(ui->msg, sizeof ui->msg, "slices of %s: the groups take turns at each", len);
	return true;
}

/* The keys that change the configuration. */
static bool edit_key(struct config_ui *ui, struct target *t, int key)
{
	switch (key) {
	case ' ': toggle(ui, t); return true;
	case 't': threshold(ui, t); return true;
	case 'g': add_group(ui); return true;
	case 'l': if (ui->group) ui->group--; return true;
	case 'r': if (ui->group + 1 < ui->conf.cfg.n_groups) ui->group++; return true;
	case 's': save(ui); return true;
	case '+': share(ui, 5); return true;
	case '-': share(ui, -5); return true;
	case '<': case '>': return slice_key(ui, key);
	case 'c': chains(ui); return true;
	case '\r': send(ui, t); return true;
	default: return false;
	}
}

bool config_key(struct config_ui *ui, struct target *t, int key)
{
	bool mine = true;
	if (config_search_key(ui, t, key))
		;
	else if (key == 27)
		ui->open = false;
	else if (key == 'u' || key == 'd')
		config_move(ui, key == 'u' ? -1 : 1);
	else if (key == '/') {   /* a new search */
		ui->searching = true;
		ui->search[0] = 0;
		config_list_build(ui, t);
	}
	else if (key == 'h')
		config_toggle_section(ui, t);
	else
		mine = edit_key(ui, t, key);
	if (ui->open)
		refresh(ui, t);
	return mine;
}

/* The PMU configuration utility drawn: the groups with their share of the time, the
 * catalogue (each event with its counters and what it counts, the reasons that cover several
 * events said once as headings), and beside it the group as the planner places it and the
 * event under the cursor with the planner's and the processor's word on it. */
#include <stdio.h>
#include <string.h>
#include "viewer/config.h"
#include "viewer/layout.h"
#include "client/pmuconf_explain.h"

#define EVENT_H 16.0
#define HEADING_H 30.0

void config_slice_text(const struct proto_pmu_config *c, char *buf, size_t n)
{
	if (c->unit != PROTO_UNIT_MICROSECONDS)
		snprintf(buf, n, "%llu %s", (unsigned long long)c->slice,
			 c->unit == PROTO_UNIT_CYCLES ? "cycles" : "instructions");
	else if (c->slice >= 1000)
		snprintf(buf, n, "%g ms", (double)c->slice / 1000);
	else
		snprintf(buf, n, "%llu us", (unsigned long long)c->slice);
}

/* The groups as tabs, the current one boxed: name, share of the time, events. */
static double draw_groups(cairo_t *cr, const struct config_ui *ui, double x, double y, double w)
{
	const struct proto_pmu_config *c = &ui->conf.cfg;
	double gx = x;
	for (unsigned g = 0; g < c->n_groups && gx < x + w; g++) {
		char lab[96];
		snprintf(lab, sizeof lab, "%s: %u%% of the time, %u event%s", c->groups[g].name.s,
			 c->groups[g].share, c->groups[g].n_events, c->groups[g].n_events == 1 ? "" : "s");
		const char *font = g == ui->group ? "Sans Bold 9" : "Sans 9";
		double tw = text_width(cr, font, lab);
		if (g == ui->group)
			draw_box(cr, gx - 4, y - 2, tw + 8, 18, 0xE7EEFB, 0x2F6FDE);
		draw_rgb(cr, 0x1F2328);
		text_draw(cr, gx, y, font, lab);
		gx += tw + 18;
	}
	/* What a share and a slice mean, in time. */
	char len[48], line[300];
	config_slice_text(c, len, sizeof len);
	const struct proto_group *cur = &c->groups[ui->group];
	if (c->unit == PROTO_UNIT_MICROSECONDS)
		snprintf(line, sizeof line, "The groups take turns on the counters in slices of %s: %s "
			 "counts %u%% of the time, about %u ms of every second.%s", len, cur->name.s,
			 cur->share, cur->share * 10, c->flags & PROTO_CFG_CALLCHAIN ?
			 " Samples carry call chains (C: off)." : " No call chains (C: on, for G).");
	else
		snprintf(line, sizeof line, "The groups take turns on the counters in slices of %s: %s "
			 "has %u%% of the slices.", len, cur->name.s, cur->share);
	draw_rgb(cr, 0x57606A);
	return 22 + text_wrap(cr, x, y + 22, w, "Sans 8.5", line);
}

static const struct config_placed *find_placed(const struct config_placed *p, unsigned n,
					       const char *name)
{
	for (unsigned k = 0; k < n; k++)
		if (!strcmp(p[k].name, name) && !p[k].added)
			return &p[k];
	return NULL;
}

/* One line of the catalogue: a section's heading, or an event with its counters and what it
 * counts (in the group: the counter the planner gave it). Returns its height. */
static double draw_row(cairo_t *cr, const struct config_ui *ui, const struct target *t,
		       const struct config_row *r, double x, double y, double w)
{
	if (r->heading) {
		const char *why = ui->section_why[r->section];
		char head[400];
		snprintf(head, sizeof head, "%s %s (%zu)%s%s", ui->hidden[r->section] ? "▸" : "▾",
			 !why[0] ? "Count and sample here" : ui->section_counts[r->section] ?
			 "Count, but do not sample here" : "Do not count here",
			 ui->section_events[r->section], why[0] ? ": " : "", why);
		draw_rgb(cr, why[0] ? 0x8A4B08 : 0x0B3D91);
		cairo_save(cr);
		cairo_rectangle(cr, x, y, w, HEADING_H - 2);
		cairo_clip(cr);
		text_wrap(cr, x, y + 1, w, "Sans Bold 8.5", head);
		cairo_restore(cr);
		return HEADING_H;
	}
	const struct kov_event *e = &t->cat[r->ev];
	const struct proto_group *g = &ui->conf.cfg.groups[ui->group];
	bool in = false;
	for (unsigned k = 0; k < g->n_events; k++)
		in |= !strcmp(g->events[k].name.s, e->name);
	int ci = catalogue_find(config_catalogue(), e->name);
	const struct event_desc *d = ci >= 0 ? catalogue_desc(config_catalogue(), (size_t)ci) : NULL;
	char pmcs[32] = "kernel", line[160];
	if (d && d->source == EVSRC_HW)
		kov_pmcs_text(d->pmcs, pmcs, sizeof pmcs);
	snprintf(line, sizeof line, "%s %-24s %-12s", in ? "[x]" : "[ ]", e->name, pmcs);
	bool counts = e->flags & PROTO_EV_COUNTS_HERE;
	draw_rgb(cr, counts ? 0x1F2328 : 0x8C959F);
	double lw = text_draw(cr, x, y, "Monospace 8.5", line);
	if (in) {   /* where it went: the planner's counter here, or the plan's on its processor */
		const struct config_placed *p = find_placed(ui->placed, ui->n_placed, e->name);
		const struct config_placed *q = find_placed(ui->native, ui->n_native, e->name);
		char where[48] = "kernel";
		if (p && p->pmc)
			snprintf(where, sizeof where, "PMC%u", p->pmc);
		else if (!p && q)
			snprintf(where, sizeof where, "%s PMC%u", ui->native_name, q->pmc);
		else if (!p)
			snprintf(where, sizeof where, "not here");
		snprintf(line, sizeof line, "→ %s ", where);
		draw_rgb(cr, p ? 0x1A7F37 : 0x6F42C1);
		lw += text_draw(cr, x + lw, y, "Sans Bold 8.5", line);
	}
	draw_rgb(cr, counts ? 0x57606A : 0xA0A7AF);
	text_fit(cr, x + lw, y + 1, w - lw, "Sans 8.5", e->description ? e->description : "");
	return EVENT_H;
}

/* The catalogue in (x, y, w, h), scrolled so that the cursor shows. */
static void draw_list(cairo_t *cr, const struct config_ui *ui, const struct target *t, double x,
		      double y, double w, double h)
{
	size_t first = ui->cursor;
	for (double above = 0; first > 0; first--) {
		above += ui->rows[first - 1].heading ? HEADING_H : EVENT_H;
		if (above > h / 2)
			break;
	}
	double bottom = y + h;
	cairo_save(cr);
	cairo_rectangle(cr, x - 4, y, w + 8, h);
	cairo_clip(cr);
	for (size_t i = first; i < ui->n_rows && y < bottom; i++) {
		double rh = ui->rows[i].heading ? HEADING_H : EVENT_H;
		if (i == ui->cursor) {
			cairo_rectangle(cr, x - 4, y - 1, w + 8, rh);
			cairo_set_source_rgba(cr, 0.18, 0.44, 0.87, 0.18);
			cairo_fill(cr);
		}
		y += draw_row(cr, ui, t, &ui->rows[i], x, y, w);
	}
	cairo_restore(cr);
}

/* Wrapped text in a colour; returns the height used and a gap. */
static double para(cairo_t *cr, double x, double y, double w, unsigned rgb, const char *font,
		   const char *s)
{
	if (!s[0])
		return 0;
	draw_rgb(cr, rgb);
	return text_wrap(cr, x, y, w, font, s) + 6;
}

/* The side panel: the group as the planner places it, then the event under the cursor. */
static void draw_panel(cairo_t *cr, const struct config_ui *ui, const struct target *t, double x,
		       double y, double w)
{
	const struct proto_group *g = &ui->conf.cfg.groups[ui->group];
	char line[400];
	snprintf(line, sizeof line, "Group %s as the planner places it", g->name.s);
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, x, y, "Sans Bold 9", line);
	y += 18;
	for (unsigned k = 0; k < ui->n_placed; k++, y += 15) {
		const struct config_placed *p = &ui->placed[k];
		char what[64];
		snprintf(what, sizeof what, p->threshold ? "every %llu" : "counted",
			 (unsigned long long)p->threshold);
		char where[16] = "kernel";
		if (p->pmc)
			snprintf(where, sizeof where, "PMC%u", p->pmc);
		snprintf(line, sizeof line, "%-7s %-22s %s%s", where, p->name, what,
			 p->added ? ", added" : "");
		draw_rgb(cr, p->added ? 0x57606A : 0x1A7F37);
		text_fit(cr, x, y, w, "Monospace 8.5", line);
	}
	y += 4 + para(cr, x, y, w, 0xA23B2A, "Sans 8.5", ui->plan_why);
	if (ui->native_name && (ui->n_native || ui->native_why[0])) {
		snprintf(line, sizeof line, "On a %s, its hardware events would go", ui->native_name);
		draw_rgb(cr, 0x1F2328);
		text_draw(cr, x, y, "Sans Bold 9", line);
		y += 18;
		for (unsigned k = 0; k < ui->n_native; k++, y += 15) {
			snprintf(line, sizeof line, "PMC%-4u %s", ui->native[k].pmc, ui->native[k].name);
			draw_rgb(cr, 0x6F42C1);
			text_fit(cr, x, y, w, "Monospace 8.5", line);
		}
		y += 4 + para(cr, x, y, w, 0xA23B2A, "Sans 8.5", ui->native_why);
	}
	const struct kov_event *e = config_cursor_event(ui, t);
	if (!e) {
		para(cr, x, y, w, 0x57606A, "Sans 8.5", "On a heading: Space or H shows or hides its "
		     "events.");
		return;
	}
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, x, y, "Sans Bold 9", e->name);
	y += 16;
	y += para(cr, x, y, w, 0x1F2328, "Sans 8.5", e->description ? e->description : "");
	int ci = catalogue_find(config_catalogue(), e->name);
	const struct event_desc *d = ci >= 0 ? catalogue_desc(config_catalogue(), (size_t)ci) : NULL;
	char pmcs[32];
	if (d && d->source == EVSRC_HW) {
		kov_pmcs_text(d->pmcs, pmcs, sizeof pmcs);
		snprintf(line, sizeof line, "Counters it can go on: %s. Here: %s.", pmcs,
			 e->flags & PROTO_EV_COUNTS_HERE ? kov_event_basis(&t->desc, e) : "not counted");
	} else {
		snprintf(line, sizeof line, "Counted by the kernel where it happens (no counter).");
	}
	y += para(cr, x, y, w, 0x57606A, "Sans 8.5", line);
	y += para(cr, x, y, w, strstr(ui->verdict, " fits ") || strstr(ui->verdict, " is in ") ?
		  0x1A7F37 : 0xA23B2A, "Sans 8.5", ui->verdict);
	para(cr, x, y, w, 0x6F42C1, "Sans 8.5", ui->whatif);
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
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, x + 10, y + 8, "Sans Bold 11", "PMU configuration");
	char search[96];
	snprintf(search, sizeof search, ui->searching ? "search: %s▏" : ui->search[0] ?
		 "search: %s (/ again, Esc in it clears)" : "%s/ searches · ? keys · Esc closes", ui->search);
	draw_rgb(cr, 0x57606A);
	text_draw(cr, x + w - 10 - text_width(cr, "Sans 9", search), y + 10, "Sans 9", search);
	double ly = y + 34;
	ly += draw_groups(cr, ui, x + 10, ly, w - 20);
	ly += 4 + para(cr, x + 10, ly, w - 20, 0xA23B2A, "Sans 9", ui->msg);
	double lw = (w - 30) * 0.6;
	draw_list(cr, ui, t, x + 10, ly, lw, y + h - ly - 6);
	draw_panel(cr, ui, t, x + 20 + lw, ly, w - 30 - lw);
	cairo_restore(cr);
}

void config_report(const struct config_ui *ui, const struct target *t, FILE *out)
{
	fprintf(out, "viewer: config: %s\n", ui->msg);
	const struct kov_event *e = config_cursor_event(ui, t);
	if (e)
		fprintf(out, "viewer: config row: %s basis=%s\n", e->name, kov_event_basis(&t->desc, e));
	for (size_t s = 0; s < ui->n_sections; s++)
		fprintf(out, "viewer: config section: events=%zu hidden=%d why=\"%s\"\n",
			ui->section_events[s], ui->hidden[s], ui->section_why[s]);
	size_t listed = 0, headings = 0;
	for (size_t r = 0; r < ui->n_rows; r++)
		ui->rows[r].heading ? headings++ : listed++;
	fprintf(out, "viewer: config list: rows=%zu headings=%zu events=%zu search=\"%s\"\n",
		ui->n_rows, headings, listed, ui->search);
	fprintf(out, "viewer: config plan: group=%s", ui->conf.cfg.groups[ui->group].name.s);
	for (unsigned k = 0; k < ui->n_placed; k++)
		fprintf(out, " %s=%s%u%s", ui->placed[k].name, ui->placed[k].pmc ? "PMC" : "sw",
			ui->placed[k].pmc, ui->placed[k].added ? "+" : "");
	fprintf(out, "%s%s\n", ui->plan_why[0] ? " why=" : "", ui->plan_why);
	fprintf(out, "viewer: config native: selects=%s", ui->native_name ? ui->native_name : "-");
	for (unsigned k = 0; k < ui->n_native; k++)
		fprintf(out, " %s=PMC%u", ui->native[k].name, ui->native[k].pmc);
	fprintf(out, "%s%s\n", ui->native_why[0] ? " why=" : "", ui->native_why);
	fprintf(out, "viewer: config cursor: %s\n", ui->verdict);
	fprintf(out, "viewer: config whatif: %s\n", ui->whatif);
}

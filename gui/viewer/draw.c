/* Drawing one frame with Cairo: the target bar, the Kernel Object Tree (coloured by each
 * object's samples), the metric panes over time and the top contributors. Everything is laid
 * out in points; the caller scales to pixels. Only visible rows are drawn. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"

#define FONT "Sans 10"
#define FONT_SMALL "Sans 8.5"
#define FONT_BOLD "Sans Bold 10"
#define FONT_TITLE "Sans Bold 11"
#define BAR_H 46.0
#define TREE_W 400.0
#define ROW_H 19.0
#define PAD 10.0

/* Seconds from t to now; points that arrived during this frame count as now. */
static double age_s(uint64_t now, uint64_t t)
{
	return t >= now ? 0 : (double)(now - t) / 1e9;
}

void draw_rgb(cairo_t *cr, unsigned hex)
{
	cairo_set_source_rgb(cr, ((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0);
}

void draw_box(cairo_t *cr, double x, double y, double w, double h, unsigned fill, unsigned line)
{
	cairo_rectangle(cr, x + 0.5, y + 0.5, w - 1, h - 1);
	draw_rgb(cr, fill);
	cairo_fill_preserve(cr);
	draw_rgb(cr, line);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
}

static const struct obj_stat *stat_of(const struct target *t, uint32_t pid, uint64_t coid, uint32_t gen)
{
	return target_object(t, pid, coid, gen);
}

static uint64_t max_samples(const struct target *t)
{
	uint64_t m = 0;
	for (size_t i = 0; i < t->n_objs; i++)
		if (t->objs[i].samples > m)
			m = t->objs[i].samples;
	return m;
}

/* White to orange-red by share of the hottest object. */
static void heat(cairo_t *cr, double f)
{
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	cairo_set_source_rgb(cr, 1.0 - 0.15 * f, 1.0 - 0.62 * f, 1.0 - 0.9 * f);
}

static void draw_bar(cairo_t *cr, struct view *v, double w)
{
	draw_box(cr, 0, 0, w, BAR_H, 0xF3F4F6, 0xD6D9DE);
	double x = PAD;
	for (size_t i = 0; i < v->n_targets; i++) {
		const struct target *t = &v->targets[i];
		unsigned dot = t->state == CONN_UP ? 0x2E9E4F : t->state == CONN_REFUSED ? 0xC92A2A :
			       t->state == CONN_REPLAY ? 0x2F6FDE : 0xE8A317;
		char label[300];
		snprintf(label, sizeof label, "%.200s%s%.7s  %.20s", t->host, t->port[0] ? ":" : "",
			 t->port, conn_name(t->state));
		double tw = text_width(cr, FONT_BOLD, label) + 30;
		if (i == v->current)
			draw_box(cr, x - 4, 4, tw + 8, 20, 0xFFFFFF, 0xB8BEC6);
		v->tab_x[i] = x - 4;
		v->tab_w[i] = tw + 8;
		draw_rgb(cr, dot);
		cairo_arc(cr, x + 6, 14, 4.5, 0, 2 * M_PI);
		cairo_fill(cr);
		draw_rgb(cr, 0x1F2328);
		text_draw(cr, x + 16, 6, FONT_BOLD, label);
		x += tw + 14;
	}
	if (v->typing_target) {
		char prompt[360];
		snprintf(prompt, sizeof prompt, "connect to HOST:PORT: %s▏  (Enter connects, Esc cancels)",
			 v->new_target);
		draw_rgb(cr, 0x0B3D91);
		text_draw(cr, x + 10, 6, FONT_BOLD, prompt);
	} else if (v->n_targets < MAX_TARGETS) {
		draw_rgb(cr, 0x8C959F);
		text_draw(cr, x + 10, 8, FONT_SMALL, "N: connect another target");
	}
	const struct target *t = &v->targets[v->current];
	char line[700], losses[200];
	target_losses_short(t, losses, sizeof losses);
	if (t->state == CONN_UP) {
		const struct kov_target *d = kov_client_target(t->c);
		char cpus[48];
		target_cpus_text(d, cpus, sizeof cpus);
		snprintf(line, sizeof line, "%s · %s · %s · %s (pvr 0x%08x) · PMU %s · %s · "
			 "%llu samples · %llu intervals · config %u · %s", d->profile, d->model, cpus,
			 kov_pvr_name(d->pvr), d->pvr, d->pmu,
			 kov_role_name(d->role), (unsigned long long)t->samples_total,
			 (unsigned long long)t->intervals, (unsigned)t->st.config_id, losses);
	} else if (t->state == CONN_REPLAY) {
		snprintf(line, sizeof line, "%s · %llu samples · %llu intervals · %s", t->status,
			 (unsigned long long)t->samples_total, (unsigned long long)t->intervals, losses);
	} else {
		snprintf(line, sizeof line, "%s — retrying every 2 s", t->status);
	}
	draw_rgb(cr, 0x57606A);
	double lw = text_draw(cr, PAD, 26, FONT_SMALL, line);
	/* Counts and samples of a configuration asking for one mode that the counters ignore. */
	char modes[400];
	target_modes_warning(t, modes, sizeof modes);
	if (modes[0]) {
		draw_rgb(cr, 0xB35900);
		text_fit(cr, PAD + lw + 12, 26, w - lw - 2 * PAD - 12, FONT_SMALL, modes);
	}
}

static void row_label(const struct target *t, const struct row *r, char *buf, size_t n)
{
	const struct kov_scan *s = &t->scan;
	switch (r->kind) {
	case ROW_MACHINE:
		snprintf(buf, n, "%.200s%s%.7s — %zu processes, %zu objects", t->host,
			 t->port[0] ? ":" : "", t->port, s->n_procs, s->n_objects);
		break;
	case ROW_PROCESS:
		snprintf(buf, n, "%s  pid %u  %u thread%s  %zu objects", s->procs[r->proc].name,
			 s->procs[r->proc].pid, s->procs[r->proc].threads,
			 s->procs[r->proc].threads == 1 ? "" : "s", s->procs[r->proc].count);
		break;
	case ROW_OBJECT: {
		const struct kov_scan_object *o = &s->objects[r->obj];
		uint64_t base = o->coid >= KOV_KERNEL_COID_BASE ? KOV_KERNEL_COID_BASE : 0xD0000000ull;
		snprintf(buf, n, "%s #%llu%s", o->class_name, (unsigned long long)((o->coid - base) / 16),
			 o->coid >= KOV_KERNEL_COID_BASE ? "" : " (user)");
		break;
	}
	case ROW_REP:
		snprintf(buf, n, "rep on cpu%d  0x%llx", r->cpu,
			 (unsigned long long)s->objects[r->obj].reps[r->cpu]);
		break;
	}
}

static void draw_tree(cairo_t *cr, struct view *v, double h)
{
	struct target *t = &v->targets[v->current];
	struct tree *tr = &v->tree;
	draw_box(cr, 0, BAR_H, TREE_W, h - BAR_H, 0xFFFFFF, 0xD6D9DE);
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, PAD, BAR_H + 6, FONT_TITLE, "Kernel Object Tree");
	char f[128];
	snprintf(f, sizeof f, v->typing_filter ? "filter: %s▏" : tr->filter[0] ? "filter: %s  (Esc clears)" :
		 "%s/ filters by class or process · arrows move · Enter opens", tr->filter);
	draw_rgb(cr, 0x57606A);
	text_draw(cr, PAD, BAR_H + 26, FONT_SMALL, f);
	v->drawn_rows = 0;
	if (!t->have_scan) {
		text_draw(cr, PAD, BAR_H + 50, FONT, t->state == CONN_UP ? "scanning…" :
			  t->state == CONN_REPLAY ? "the recording has no scan" : "no scan yet");
		return;
	}
	double top = BAR_H + 46, bottom = h - 4;
	size_t visible = (size_t)((bottom - top) / ROW_H);
	if (tr->selected < tr->scroll)
		tr->scroll = tr->selected;
	if (visible && tr->selected >= tr->scroll + visible)
		tr->scroll = tr->selected - visible + 1;
	uint64_t hot = max_samples(t);
	for (size_t i = tr->scroll; i < tr->n && i < tr->scroll + visible; i++) {
		const struct row *r = &tr->rows[i];
		double y = top + (double)(i - tr->scroll) * ROW_H;
		if (r->kind == ROW_OBJECT || r->kind == ROW_REP) {
			const struct kov_scan_object *o = &t->scan.objects[r->obj];
			const struct obj_stat *st = stat_of(t, o->pid, o->coid, o->gen);
			uint64_t n = !st ? 0 : r->kind == ROW_REP ? st->rep_samples[r->cpu] : st->samples;
			if (st && hot) {
				heat(cr, (double)n / (double)hot);
				cairo_rectangle(cr, 1, y, TREE_W - 2, ROW_H);
				cairo_fill(cr);
			}
		}
		if (i == tr->selected) {
			cairo_rectangle(cr, 1, y, TREE_W - 2, ROW_H);
			cairo_set_source_rgba(cr, 0.18, 0.44, 0.87, 0.18);
			cairo_fill(cr);
		}
		double x = PAD + r->depth * 14.0;
		draw_rgb(cr, 0x57606A);
		if (r->has_children)
			text_draw(cr, x, y + 1, FONT_SMALL, r->expanded ? "▾" : "▸");
		char label[320];
		row_label(t, r, label, sizeof label);
		bool object_like = r->kind == ROW_OBJECT || r->kind == ROW_REP;
		draw_rgb(cr, r->kind == ROW_REP ? 0x57606A : object_like ? 0x1F2328 : 0x0B3D91);
		text_draw(cr, x + 13, y + 1, r->kind == ROW_REP ? FONT_SMALL : object_like ? FONT : FONT_BOLD,
			  label);
		if (object_like) {
			const struct kov_scan_object *o = &t->scan.objects[r->obj];
			const struct obj_stat *st = stat_of(t, o->pid, o->coid, o->gen);
			if (st) {
				char n[32];
				snprintf(n, sizeof n, "%llu", (unsigned long long)(r->kind == ROW_REP ?
					 st->rep_samples[r->cpu] : st->samples));
				draw_rgb(cr, 0x8A4B08);
				text_draw(cr, TREE_W - PAD - text_width(cr, FONT_SMALL, n), y + 2, FONT_SMALL, n);
			}
		}
		v->drawn_rows++;
	}
}

/* A series' points since `from` binned into ncols columns across the window. */
enum { COLS = 4096 };
struct columns { double min[COLS], max[COLS], sum[COLS]; int n[COLS]; };

static void bin(struct columns *c, const struct view *v, const struct series *s, int ncols,
		uint64_t now, uint64_t from)
{
	memset(c->n, 0, sizeof c->n[0] * (size_t)ncols);
	uint64_t t;
	double val;
	for (size_t i = 0; series_at(s, i, &t, &val) && t >= from; i++) {
		int col = (int)((ncols - 1) * (1.0 - age_s(now, t) / v->window_s));
		if (col < 0 || col >= ncols)
			continue;
		if (!c->n[col] || val < c->min[col])
			c->min[col] = val;
		if (!c->n[col] || val > c->max[col])
			c->max[col] = val;
		c->sum[col] = (c->n[col] ? c->sum[col] : 0) + val;
		c->n[col]++;
	}
}

/* The path through the columns' means; false when no column has a point. */
static bool mean_path(cairo_t *cr, const struct columns *c, int ncols, double cx, double cy,
		      double cw, double ch, double top)
{
	bool first = true;
	for (int k = 0; k < ncols; k++)
		if (c->n[k]) {
			double px = cx + k * cw / ncols, py = cy + ch - ch * (c->sum[k] / c->n[k]) / top;
			if (first)
				cairo_move_to(cr, px, py);
			else
				cairo_line_to(cr, px, py);
			first = false;
		}
	return !first;
}

/* The chart of a pane (markers, band, mean line) in its own coordinates, cw x ch points. */
static void draw_chart(cairo_t *cr, struct view *v, const struct pane *p, double cw, double ch,
		       double mx, uint64_t now, uint64_t from)
{
	double cx = 0, cy = 0;
	double top = mx > 0 ? mx * 1.15 : 1;
	/* Time markers, labelled from now: at most about eight of them. */
	static const int steps[] = { 10, 30, 60, 120, 300, 600, 1800 };
	int step = 10;
	for (size_t k = 0; k < sizeof steps / sizeof steps[0] && v->window_s / steps[k] > 8; k++)
		step = k + 1 < sizeof steps / sizeof steps[0] ? steps[k + 1] : steps[k];
	cairo_set_line_width(cr, 1);
	for (int s = 0; s <= (int)v->window_s; s += step) {
		double gx = cx + cw - cw * s / v->window_s;
		draw_rgb(cr, 0xEEF0F2);
		cairo_move_to(cr, floor(gx) + 0.5, cy);
		cairo_line_to(cr, floor(gx) + 0.5, cy + ch);
		cairo_stroke(cr);
		char lab[16];
		if (v->pan_s > 0)
			snprintf(lab, sizeof lab, "-%ds", s + (int)v->pan_s);
		else
			snprintf(lab, sizeof lab, s ? "-%ds" : "now", s);
		draw_rgb(cr, 0x8C959F);
		text_draw(cr, gx - text_width(cr, FONT_SMALL, lab) / 2, cy + ch + 2, FONT_SMALL, lab);
	}
	char ytop[32];
	snprintf(ytop, sizeof ytop, "%.3g", top);
	text_draw(cr, cx + 2, cy, FONT_SMALL, ytop);
	/* One column per point of width: the range of the values in it as a light band, their
	 * mean as the line. Ten minutes of 100 ms points would otherwise be 6000 segments. */
	static struct columns col;
	int ncols = (int)cw < COLS ? (int)cw : COLS;
	bin(&col, v, &p->s, ncols, now, from);
	/* The band as pixel-aligned boxes, one per column: Cairo's fast path. */
	for (int c = 0; c < ncols; c++)
		if (col.n[c]) {
			double y0 = floor(cy + ch - ch * col.max[c] / top), y1 = ceil(cy + ch - ch * col.min[c] / top);
			cairo_rectangle(cr, floor(cx + c * cw / ncols), y0, 1, y1 - y0 + 1);
		}
	cairo_set_source_rgba(cr, 0.18, 0.44, 0.87, 0.22);
	cairo_fill(cr);
	draw_rgb(cr, 0x2F6FDE);
	cairo_set_line_width(cr, 1.5);
	mean_path(cr, &col, ncols, cx, cy, cw, ch, top);
	cairo_stroke(cr);
	/* The second opinion (if any) as a dashed grey line of its column means. */
	bin(&col, v, &p->s2, ncols, now, from);
	if (mean_path(cr, &col, ncols, cx, cy, cw, ch, top)) {
		static const double dash[] = { 4, 3 };
		cairo_set_dash(cr, dash, 2, 0);
		draw_rgb(cr, 0x8C959F);
		cairo_set_line_width(cr, 1.2);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
}

/* Charts are redrawn only when something they show changed: a new point, the window, the
 * size, or time moving the axis by a whole column; otherwise the cached image is painted. */
static void paint_chart(cairo_t *cr, struct view *v, struct pane *p, double x, double y,
			double cw, double ch, double mx, uint64_t now, uint64_t from)
{
	const double margin = 14;   /* room for the edge markers' labels */
	int pw = (int)ceil((cw + 2 * margin) * v->scale), ph = (int)ceil((ch + 16) * v->scale);
	uint64_t column_ns = (uint64_t)(v->window_s * 1e9 / (cw > 1 ? cw : 1));
	uint64_t key[6] = { (uint64_t)pw << 32 | (uint32_t)ph, (uint64_t)(v->window_s * 1000),
			    p->s.n << 32 ^ p->s.head, column_ns ? now / column_ns : now,
			    (uint64_t)(mx * 1e6), p->s2.n << 32 ^ p->s2.head };
	if (!p->chart || memcmp(key, p->chart_key, sizeof key)) {
		if (!p->chart || cairo_image_surface_get_width(p->chart) != pw ||
		    cairo_image_surface_get_height(p->chart) != ph) {
			if (p->chart)
				cairo_surface_destroy(p->chart);
			p->chart = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
		}
		cairo_t *c2 = cairo_create(p->chart);
		cairo_set_operator(c2, CAIRO_OPERATOR_CLEAR);
		cairo_paint(c2);
		cairo_set_operator(c2, CAIRO_OPERATOR_OVER);
		cairo_scale(c2, v->scale, v->scale);
		cairo_translate(c2, margin, 0);
		draw_chart(c2, v, p, cw, ch, mx, now, from);
		cairo_destroy(c2);
		memcpy(p->chart_key, key, sizeof key);
		v->charts_drawn++;
	}
	cairo_save(cr);
	cairo_translate(cr, x - margin, y);
	cairo_scale(cr, 1 / v->scale, 1 / v->scale);
	cairo_set_source_surface(cr, p->chart, 0, 0);
	cairo_paint(cr);
	cairo_restore(cr);
	/* What it shows, for the screenshot report. */
	uint64_t t;
	double val;
	for (size_t i = 0; series_at(&p->s, i, &t, &val) && t >= from; i++)
		v->drawn_points++;
}

static void draw_pane(cairo_t *cr, struct view *v, struct pane *p, double x, double y,
		      double w, double h, uint64_t now)
{
	draw_box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	draw_rgb(cr, 0x1F2328);
	double title_w = text_draw(cr, x + 8, y + 5, FONT_BOLD, p->title);
	uint64_t from = now - (uint64_t)(v->window_s * 1e9);
	double mn = 0, avg = 0, mx = 0, mn2, avg2, mx2;
	size_t count = 0;
	/* Not panned: up to the newest point, which may be younger than this frame's now. */
	uint64_t to = v->pan_s > 0 ? now + 1 : UINT64_MAX;
	bool have = p->available && series_stats(&p->s, from, to, &mn, &avg, &mx, &count);
	if (!p->available || !have) {
		draw_rgb(cr, p->available ? 0x57606A : 0xA23B2A);
		text_wrap(cr, x + 8, y + 24, w - 16, FONT_SMALL, p->available ? p->no_data : p->why);
		if (p->available) {
			draw_rgb(cr, 0x8C959F);
			text_wrap(cr, x + 8, y + 40, w - 16, FONT_SMALL, p->subtitle);
		}
		return;
	}
	uint64_t t0;
	double now_v;
	series_at(&p->s, 0, &t0, &now_v);
	char stats[160];
	snprintf(stats, sizeof stats, "now %.3g%s   min %.3g   avg %.3g   max %.3g", now_v, p->unit, mn,
		 avg, mx);
	draw_rgb(cr, 0x57606A);
	double sw = text_width(cr, FONT_SMALL, stats);
	text_draw(cr, x + w - 8 - sw, y + 6, FONT_SMALL, stats);
	/* What it is, between the title and the figures, cut to the room there is. */
	double room = w - 16 - title_w - sw - 24;
	if (room > 40) {
		draw_rgb(cr, 0x8C959F);
		text_fit(cr, x + 8 + title_w + 12, y + 6, room, FONT_SMALL, p->subtitle);
	}
	if (series_stats(&p->s2, from, to, &mn2, &avg2, &mx2, &count) && mx2 > mx)
		mx = mx2;
	paint_chart(cr, v, p, x + 8, y + 24, w - 16, h - 44, mx, now, from);
	v->drawn_series++;
	/* Hover: the value nearest the pointer's time. */
	double cx = x + 8, cw = w - 16, cy = y + 24, ch = h - 44;
	if (v->mouse_x < cx || v->mouse_x > cx + cw || v->mouse_y < cy || v->mouse_y > cy + ch)
		return;
	double ago = (cx + cw - v->mouse_x) / cw * v->window_s;
	uint64_t t, best_t = 0;
	double val, best_v = 0, best_d = 1e18;
	for (size_t i = 0; series_at(&p->s, i, &t, &val) && t >= from; i++) {
		double d = fabs(age_s(now, t) - ago);
		if (d < best_d) {
			best_d = d;
			best_t = t;
			best_v = val;
		}
	}
	if (!best_t)
		return;
	double px = cx + cw - cw * age_s(now, best_t) / v->window_s;
	cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.5);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, floor(px) + 0.5, cy);
	cairo_line_to(cr, floor(px) + 0.5, cy + ch);
	cairo_stroke(cr);
	char tip[64];
	snprintf(tip, sizeof tip, "%.4g%s  %.1f s ago", best_v, p->unit, age_s(now, best_t));
	double tw = text_width(cr, FONT_SMALL, tip) + 10, tx = px + 6 + tw > cx + cw ? px - tw - 6 : px + 6;
	draw_box(cr, tx, cy + 2, tw, 17, 0xFFFDE7, 0xB8BEC6);
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, tx + 5, cy + 3, FONT_SMALL, tip);
	v->hover_shown = true;
}

/* Objects gone with their process are folded per class and program (gui/client/objname.h);
 * each row names its class and process as the last scan listing it said. */
static void draw_top(cairo_t *cr, struct view *v, const struct target *t, double x, double y,
		     double w, double h)
{
	static struct kov_top_item *items;
	static struct kov_top_row *rows;
	static size_t cap;
	draw_box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	draw_rgb(cr, 0x1F2328);
	double tw = text_draw(cr, x + 8, y + 5, FONT_BOLD, "Top contributors (samples since connected)");
	/* A ranking from an incomplete period says so: samples the target produced that it
	 * does not have. The rows' lock waits carry the serial machine's label. */
	uint64_t missing = kov_losses_missing_samples(&t->losses);
	const char *serial = target_serial_note(t);
	if (missing || serial) {
		char note[240];
		int at = 0;
		if (missing)
			at = snprintf(note, sizeof note, "incomplete: %llu samples lost, dropped or "
				      "discarded%s", (unsigned long long)missing, serial ? " · " : "");
		snprintf(note + at, sizeof note - (size_t)at, "%s", serial ? serial : "");
		draw_rgb(cr, 0xB35900);
		text_fit(cr, x + 16 + tw, y + 6, w - tw - 24, FONT_SMALL, note);
	}
	v->drawn_top[0] = 0;
	size_t shown = (size_t)((h - 28) / 18);
	const struct kov_top_row *order[64];
	size_t n = 0;
	uint64_t total = 0;
	if (t->n_objs > cap) {
		size_t c = t->n_objs * 2;
		struct kov_top_item *i2 = realloc(items, c * sizeof *items);
		items = i2 ? i2 : items;
		struct kov_top_row *r2 = realloc(rows, c * sizeof *rows);
		rows = r2 ? r2 : rows;
		if (!i2 || !r2)
			return;
		cap = c;
	}
	for (size_t i = 0; i < t->n_objs; i++) {
		const struct obj_stat *o = &t->objs[i];
		total += o->samples;
		items[i] = (struct kov_top_item){ &o->name, o->pid, { o->samples, o->spin } };
	}
	size_t n_rows = kov_top_fold(items, t->n_objs, rows);
	/* The top `shown` rows by samples, by insertion: no sort of every row each frame. */
	if (shown > 64)
		shown = 64;
	for (size_t i = 0; i < n_rows && shown; i++) {
		const struct kov_top_row *r = &rows[i];
		if (!r->v[0] || (n == shown && r->v[0] <= order[n - 1]->v[0]))
			continue;
		size_t j = n < shown ? n++ : n - 1;
		while (j > 0 && order[j - 1]->v[0] < r->v[0]) {
			order[j] = order[j - 1];
			j--;
		}
		order[j] = r;
	}
	if (!n) {
		draw_rgb(cr, 0x57606A);
		text_draw(cr, x + 8, y + 26, FONT_SMALL, "no samples attributed to objects yet");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct kov_top_row *r = order[i];
		double ry = y + 26 + (double)i * 18, share = kov_share(r->v[0], total) / 100;
		char cls[160], proc[160], line[400];
		kov_top_names(items, r, true, cls, sizeof cls, proc, sizeof proc);
		heat(cr, 0.25 + 0.75 * share);
		cairo_rectangle(cr, x + 8, ry + 2, (w * 0.25) * share, 13);
		cairo_fill(cr);
		/* The measured wait on its locks (lock statistics) where it has any. */
		const struct obj_stat *o = &t->objs[r->item];
		char wait[48] = "";
		uint64_t ticks = r->objects == 1 ? target_lock_wait(t, o->pid, o->coid, o->gen, 0) : 0;
		if (ticks && t->have_desc && t->desc.timebase_hz)
			snprintf(wait, sizeof wait, ", lock wait %.1f ms",
				 1e3 * (double)ticks / (double)t->desc.timebase_hz);
		snprintf(line, sizeof line, "%5.1f%%  %s · %s · %llu samples%s", 100 * share, cls,
			 proc, (unsigned long long)r->v[0], wait);
		draw_rgb(cr, 0x1F2328);
		text_fit(cr, x + 12 + w * 0.25, ry, w * 0.75 - 20, FONT_SMALL, line);
		size_t used = strlen(v->drawn_top);
		snprintf(v->drawn_top + used, sizeof v->drawn_top - used, "%s%s · %s", i ? " | " : "",
			 cls, proc);
	}
}

/* A lock's owner as the lock view and the selected panel show it. */
static void lock_owner(const struct target *t, const struct proto_lock *l, char *cls, size_t cn,
		       char *proc, size_t pn)
{
	char coid[KOV_COID_CHARS];
	size_t k = t->have_scan && l->coid ? kov_scan_find_any(&t->scan, l->pid, l->coid, l->gen) :
					     KOV_NOT_IN_SCAN;
	const char *name = !l->coid && !l->pid ? target_lock_name(t, l->lock) : NULL;
	if (!l->coid && name)
		snprintf(cls, cn, "(no object) %s", name);
	else if (!l->coid)
		snprintf(cls, cn, "(no object) 0x%llx", (unsigned long long)l->lock);
	else
		snprintf(cls, cn, "%s %s", k != KOV_NOT_IN_SCAN ? t->scan.objects[k].class_name : "(gone)",
			 kov_coid_str(l->coid, coid));
	snprintf(proc, pn, "pid %u", l->pid);
	if (!l->pid)
		snprintf(proc, pn, "kernel");
	for (size_t i = 0; t->have_scan && l->pid && i < t->scan.n_procs; i++)
		if (t->scan.procs[i].pid == l->pid)
			snprintf(proc, pn, "%.60s %u", t->scan.procs[i].name, l->pid);
}

static double ms_of(const struct target *t, uint64_t ticks)
{
	return t->have_desc && t->desc.timebase_hz ? 1e3 * (double)ticks / (double)t->desc.timebase_hz : 0;
}

/* The selected object's locks and their contending call sites, symbolized. Returns the
 * height used. */
static double draw_object_locks(cairo_t *cr, struct target *t, uint32_t space,
				const struct kov_scan_object *ob, double x, double y, double w,
				double bottom)
{
	const struct proto_lock *lk[4];
	size_t n = target_locks_of(t, false, space, ob->coid, ob->gen, lk, 4);
	if (!n)
		return 0;
	double ly = y;
	draw_rgb(cr, 0x1F2328);
	double hw = text_draw(cr, x, ly, FONT_BOLD, n == 1 ? "Its lock" : "Its locks");
	const char *serial = target_serial_note(t);
	if (serial) {
		draw_rgb(cr, 0xB35900);
		text_fit(cr, x + hw + 10, ly + 1, w - hw - 10, FONT_SMALL, serial);
	}
	ly += 17;
	for (size_t i = 0; i < n && i < 4 && ly < bottom - 14; i++) {
		const struct proto_lock *l = lk[i];
		char line[300], acq[32] = "";
		if (l->flags & PROTO_LOCK_FULL)
			snprintf(acq, sizeof acq, " of %llu acquisitions", (unsigned long long)l->acquisitions);
		snprintf(line, sizeof line, "%s 0x%llx: %llu contended%s, wait %.1f ms (max %.2f), "
			 "%llu holds %.1f ms", l->kind == PROTO_LOCK_SLEEP ? "sleep" : "spin",
			 (unsigned long long)l->lock, (unsigned long long)l->contentions, acq,
			 ms_of(t, l->wait_total), ms_of(t, l->wait_max), (unsigned long long)l->holds,
			 ms_of(t, l->hold_total));
		draw_rgb(cr, 0x1F2328);
		text_fit(cr, x, ly, w, FONT_SMALL, line);
		ly += 15;
		for (int k = 0; k < PROTO_LOCK_SITES && l->site[k].pc && ly < bottom - 14; k++, ly += 14) {
			const char *name = target_symbol(t, space, l->site[k].pc);
			snprintf(line, sizeof line, "    %6llu  from %s", (unsigned long long)l->site[k].count,
				 name ? name : "…");
			draw_rgb(cr, 0x57606A);
			text_fit(cr, x, ly, w, FONT_SMALL, line);
		}
	}
	if (n > 4) {
		char more[64];
		snprintf(more, sizeof more, "and %zu more (L: every lock)", n - 4);
		text_draw(cr, x, ly, FONT_SMALL, more);
		ly += 15;
	}
	return ly - y + 4;
}

/* The selected object: its share of the samples per report interval (thesis figure 3.6), its
 * locks with their contending call sites, and its code hot spots, symbolized by the target. */
static void draw_selected(cairo_t *cr, struct view *v, double x, double y, double w, double h,
			  uint64_t now)
{
	struct target *t = &v->targets[v->current];
	draw_box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	draw_rgb(cr, 0x1F2328);
	const struct row *r = v->tree.selected < v->tree.n ? &v->tree.rows[v->tree.selected] : NULL;
	if (!r || (r->kind != ROW_OBJECT && r->kind != ROW_REP) || !t->have_scan) {
		text_draw(cr, x + 8, y + 5, FONT_BOLD, "Selected object (L: locks)");
		draw_rgb(cr, 0x57606A);
		text_draw(cr, x + 8, y + 26, FONT_SMALL, "select an object in the tree");
		return;
	}
	const struct kov_scan_object *ob = &t->scan.objects[r->obj];
	uint32_t space = kov_object_space(ob->pid, ob->coid);
	char title[200], coid[KOV_COID_CHARS];
	snprintf(title, sizeof title, "%s  %s  gen %u%s", ob->class_name, kov_coid_str(ob->coid, coid),
		 ob->gen, target_full_counting(t, space, ob->coid) ? "  · full lock counting" : "");
	text_fit(cr, x + 8, y + 5, w - 16, FONT_BOLD, title);
	const struct obj_stat *o = stat_of(t, ob->pid, ob->coid, ob->gen);
	target_want_symbols(t, space, ob->coid, ob->gen);
	double cx = x + 8, cy = y + 26, cw = w - 16, ch = 50;
	if (!o) {
		draw_rgb(cr, 0x57606A);
		text_draw(cr, cx, cy, FONT_SMALL, "no samples attributed to it yet (I counts its calls)");
		draw_object_locks(cr, t, space, ob, cx, cy + 20, cw, y + h - 4);
		return;
	}
	/* Contribution over the window: its samples / all samples, per interval. */
	uint64_t from = now - (uint64_t)(v->window_s * 1e9);
	draw_box(cr, cx, cy, cw, ch, 0xFBFBFC, 0xEEF0F2);
	draw_rgb(cr, 0xD9480F);
	cairo_set_line_width(cr, 1.5);
	bool first = true;
	for (size_t i = 0; i < o->hist_n; i++) {
		size_t k = (o->hist_head + OBJ_HIST - 1 - i) % OBJ_HIST;
		uint64_t iv = o->hist[k].iv;
		if (t->iv_no - iv > IV_HIST)
			break;
		uint64_t when = t->iv_time[iv % IV_HIST], total = t->iv_total[iv % IV_HIST];
		if (when < from)
			break;
		double share = kov_share(o->hist[k].n, total) / 100;
		double px = cx + cw - cw * age_s(now, when) / v->window_s;
		double py = cy + ch - ch * share;
		if (first)
			cairo_move_to(cr, px, py);
		else
			cairo_line_to(cr, px, py);
		first = false;
	}
	cairo_stroke(cr);
	char line[300];
	char calls[48] = "";
	if (o->calls)
		snprintf(calls, sizeof calls, " · %llu calls", (unsigned long long)o->calls);
	snprintf(line, sizeof line, "share of all samples per interval (top: 100%%) · %llu samples, "
		 "%.0f%% in spin wait loops%s", (unsigned long long)o->samples,
		 kov_share(o->spin, o->samples), calls);
	draw_rgb(cr, 0x57606A);
	text_fit(cr, cx, cy + ch + 2, cw, FONT_SMALL, line);
	double ly = cy + ch + 20;
	ly += draw_object_locks(cr, t, space, ob, cx, ly, cw, y + h - 4);
	/* Hot spots. */
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, cx, ly, FONT_BOLD, "Code hot spots");
	size_t order[OBJ_PCS];
	for (size_t i = 0; i < o->n_pcs; i++)
		order[i] = i;
	for (size_t i = 1; i < o->n_pcs; i++)
		for (size_t j = i; j > 0 && o->pcs[order[j]].n > o->pcs[order[j - 1]].n; j--) {
			size_t tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	ly += 18;
	for (size_t i = 0; i < o->n_pcs && ly < y + h - 16; i++, ly += 15) {
		const char *name = target_symbol(t, o->pid, o->pcs[order[i]].pc);
		snprintf(line, sizeof line, "%6llu  0x%llx  %s", (unsigned long long)o->pcs[order[i]].n,
			 (unsigned long long)o->pcs[order[i]].pc, name ? name : "…");
		text_draw(cr, cx, ly, FONT_SMALL, line);
	}
}

/* Every lock of the kernel and the programs, spin and sleep, heaviest measured wait first:
 * lock_stat's figures summed since connected, and how many lighter ones are not shown. */
static void draw_locks(cairo_t *cr, struct view *v, double x, double y, double w, double h)
{
	struct target *t = &v->targets[v->current];
	draw_box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	draw_rgb(cr, 0x1F2328);
	v->drawn_locks = v->hidden_locks = 0;
	v->drawn_lock_top[0] = 0;
	size_t total = t->locks ? t->locks->n : 0;
	char head[200];
	snprintf(head, sizeof head, "Locks: every contended spin and sleep lock, kernel and user, by "
		 "wait since connected (L: selected object)");
	text_fit(cr, x + 8, y + 5, w - 16, FONT_BOLD, head);
	/* Waits measured while the CPUs took turns: a waiter waited for the holder's turn. */
	const char *serial = target_serial_note(t);
	if (serial) {
		draw_rgb(cr, 0xB35900);
		text_fit(cr, x + 8, y + 22, w - 16, FONT_SMALL, serial);
		y += 16;
		h -= 16;
	}
	if (!total) {
		draw_rgb(cr, 0x57606A);
		text_wrap(cr, x + 8, y + 26, w - 16, FONT_SMALL, "no lock statistics yet: no lock was "
			  "contended or counted, or the lock stream is not running (the viewer starts it "
			  "with --config)");
		return;
	}
	/* Columns as fractions of the width. */
	static const struct { const char *name; double at; bool right; } col[] = {
		{ "KIND", 0, false }, { "OWNER", 0.05, false }, { "PROCESS", 0.30, false },
		{ "CONTENDED", 0.50, true }, { "WAIT ms", 0.59, true }, { "MAX ms", 0.67, true },
		{ "ACQUIRED", 0.76, true }, { "HOLDS", 0.84, true }, { "HOLD ms", 0.92, true },
		{ "BOUNCES", 1.0, true },
	};
	enum { NCOL = sizeof col / sizeof col[0] };
	double cw = w - 16;
	double ly = y + 24;
	for (int c = 0; c < NCOL; c++) {
		double cx = x + 8 + cw * col[c].at - (col[c].right ? text_width(cr, FONT_SMALL, col[c].name) : 0);
		draw_rgb(cr, 0x57606A);
		text_draw(cr, cx, ly, FONT_SMALL, col[c].name);
	}
	ly += 16;
	size_t fit = (size_t)((y + h - ly - 18) / 15);
	if (fit > MAX_LOCK_ROWS)
		fit = MAX_LOCK_ROWS;
	const struct proto_lock *rows[MAX_LOCK_ROWS];
	size_t n = target_locks_of(t, true, 0, 0, 0, rows, fit);
	size_t shown = n < fit ? n : fit;
	for (size_t i = 0; i < shown; i++, ly += 15) {
		const struct proto_lock *l = rows[i];
		char cell[NCOL][160];
		lock_owner(t, l, cell[1], sizeof cell[1], cell[2], sizeof cell[2]);
		snprintf(cell[0], sizeof cell[0], "%s", l->kind == PROTO_LOCK_SLEEP ? "sleep" : "spin");
		snprintf(cell[3], sizeof cell[3], "%llu", (unsigned long long)l->contentions);
		snprintf(cell[4], sizeof cell[4], "%.1f", ms_of(t, l->wait_total));
		snprintf(cell[5], sizeof cell[5], "%.2f", ms_of(t, l->wait_max));
		if (l->flags & PROTO_LOCK_FULL)
			snprintf(cell[6], sizeof cell[6], "%llu", (unsigned long long)l->acquisitions);
		else
			snprintf(cell[6], sizeof cell[6], "-");
		snprintf(cell[7], sizeof cell[7], "%llu", (unsigned long long)l->holds);
		snprintf(cell[8], sizeof cell[8], "%.1f", ms_of(t, l->hold_total));
		snprintf(cell[9], sizeof cell[9], "%llu", (unsigned long long)l->bounces);
		for (int c = 0; c < NCOL; c++) {
			draw_rgb(cr, c == 4 ? 0x8A4B08 : 0x1F2328);
			if (col[c].right)
				text_draw(cr, x + 8 + cw * col[c].at - text_width(cr, FONT_SMALL, cell[c]), ly,
					  FONT_SMALL, cell[c]);
			else
				text_fit(cr, x + 8 + cw * col[c].at, ly, cw * (col[c + 1].at - col[c].at) - 6,
					 FONT_SMALL, cell[c]);
		}
		if (!i)
			snprintf(v->drawn_lock_top, sizeof v->drawn_lock_top, "0x%llx %s %s %s wait=%llu "
				 "contentions=%llu", (unsigned long long)l->lock, cell[0], cell[1], cell[2],
				 (unsigned long long)l->wait_total, (unsigned long long)l->contentions);
	}
	v->drawn_locks = shown;
	v->hidden_locks = total - shown;
	char foot[300], hidden[96] = "";
	if (v->hidden_locks)
		snprintf(hidden, sizeof hidden, ", %zu with lighter waits not shown%s", v->hidden_locks,
			 t->locks->not_kept ? " (and more not kept)" : "");
	snprintf(foot, sizeof foot, "%zu lock%s%s; ACQUIRED '-': only contended acquisitions are "
		 "counted (F counts all for the selected object or process)", total,
		 total == 1 ? "" : "s", hidden);
	draw_rgb(cr, 0x57606A);
	text_fit(cr, x + 8, y + h - 18, w - 16, FONT_SMALL, foot);
}

/* A target's description when the pointer is on its tab. */
static void draw_tab_tip(cairo_t *cr, struct view *v)
{
	for (size_t i = 0; i < v->n_targets; i++) {
		const struct target *t = &v->targets[i];
		if (v->mouse_y < 4 || v->mouse_y > 24 || v->mouse_x < v->tab_x[i] ||
		    v->mouse_x > v->tab_x[i] + v->tab_w[i])
			continue;
		char tip[2400];
		if (t->state == CONN_UP) {
			const struct kov_target *d = kov_client_target(t->c);
			char cpus[48];
			target_cpus_text(d, cpus, sizeof cpus);
			snprintf(tip, sizeof tip, "%s:%s\nprofile %s · %s\n%s · %s (pvr 0x%08x) · %llu MiB\n"
				 "PMU %s · %zu events · protocol %u.%u\nkernel %s · %s\nrole %s%s%s",
				 t->host, t->port, d->profile, d->model, cpus,
				 kov_pvr_name(d->pvr), d->pvr, (unsigned long long)(d->memory >> 20), d->pmu,
				 t->n_cat, d->major, d->minor, d->build_id, d->server, kov_role_name(d->role),
				 d->reason[0] ? ": " : "", d->reason);   /* sized for the longest fields */
		} else {
			snprintf(tip, sizeof tip, "%s%s%s\n%s: %s", t->host, t->port[0] ? ":" : "", t->port,
				 conn_name(t->state), t->status);
		}
		double w = 420, h = text_wrap(cr, -10000, 0, w - 16, FONT_SMALL, tip) + 12;
		draw_box(cr, v->tab_x[i], 28, w, h, 0xFFFDE7, 0xB8BEC6);
		draw_rgb(cr, 0x1F2328);
		text_wrap(cr, v->tab_x[i] + 8, 34, w - 16, FONT_SMALL, tip);
		v->hover_shown = true;
	}
}

void draw_view(cairo_t *cr, struct view *v, uint64_t now)
{
	double w = v->width / v->scale, h = v->height / v->scale;
	v->drawn_series = v->drawn_points = 0;
	draw_rgb(cr, 0xECEEF1);
	cairo_paint(cr);
	draw_bar(cr, v, w);
	draw_tree(cr, v, h);
	struct target *t = &v->targets[v->current];
	double px = TREE_W + PAD, pw = w - px - PAD, py = BAR_H + PAD;
	double panes_h = (h - BAR_H - 3 * PAD) * 0.68, ph = panes_h / PANES;
	/* Panned back: the panes end pan_s before now (the axis labels count from there). */
	uint64_t pane_now = now - (uint64_t)(v->pan_s * 1e9);
	double ty = py + panes_h + PAD, tw = pw * 0.56;
	v->drawn_top[0] = 0;
	if (v->flame.open) {   /* the flame graph takes the panes' and panels' room */
		flame_draw(cr, v, px, py, pw, h - py - PAD, now);
	} else if (v->show_locks) {   /* the lock table takes the whole width below the panes */
		draw_locks(cr, v, px, ty, pw, h - ty - PAD);
	} else {
		draw_top(cr, v, t, px, ty, tw - PAD / 2, h - ty - PAD);
		draw_selected(cr, v, px + tw + PAD / 2, ty, pw - tw - PAD / 2, h - ty - PAD, now);
	}
	for (int p = 0; p < PANES && !v->flame.open; p++)
		draw_pane(cr, v, &t->pane[p], px, py + p * ph, pw, ph - 4, pane_now);
	draw_tab_tip(cr, v);
	if (v->config.open)   /* over the panes: the tree stays visible beside it */
		config_draw(cr, &v->config, t, px, py, pw, h - py - PAD);
}

size_t view_row_at(const struct view *v, double x, double y)
{
	double top = BAR_H + 46;
	if (x < 0 || x >= TREE_W || y < top)
		return (size_t)-1;
	size_t i = v->tree.scroll + (size_t)((y - top) / ROW_H);
	return i < v->tree.n ? i : (size_t)-1;
}

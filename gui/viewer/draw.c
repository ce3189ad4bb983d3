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

static void rgb(cairo_t *cr, unsigned hex)
{
	cairo_set_source_rgb(cr, ((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0);
}

static void box(cairo_t *cr, double x, double y, double w, double h, unsigned fill, unsigned line)
{
	cairo_rectangle(cr, x + 0.5, y + 0.5, w - 1, h - 1);
	rgb(cr, fill);
	cairo_fill_preserve(cr);
	rgb(cr, line);
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
	box(cr, 0, 0, w, BAR_H, 0xF3F4F6, 0xD6D9DE);
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
			box(cr, x - 4, 4, tw + 8, 20, 0xFFFFFF, 0xB8BEC6);
		v->tab_x[i] = x - 4;
		v->tab_w[i] = tw + 8;
		rgb(cr, dot);
		cairo_arc(cr, x + 6, 14, 4.5, 0, 2 * M_PI);
		cairo_fill(cr);
		rgb(cr, 0x1F2328);
		text_draw(cr, x + 16, 6, FONT_BOLD, label);
		x += tw + 14;
	}
	if (v->typing_target) {
		char prompt[360];
		snprintf(prompt, sizeof prompt, "connect to HOST:PORT: %s▏  (Enter connects, Esc cancels)",
			 v->new_target);
		rgb(cr, 0x0B3D91);
		text_draw(cr, x + 10, 6, FONT_BOLD, prompt);
	} else if (v->n_targets < MAX_TARGETS) {
		rgb(cr, 0x8C959F);
		text_draw(cr, x + 10, 8, FONT_SMALL, "N: connect another target");
	}
	const struct target *t = &v->targets[v->current];
	char line[512];
	if (t->state == CONN_UP) {
		const struct kov_target *d = kov_client_target(t->c);
		snprintf(line, sizeof line, "%s · %s · %u CPU%s · %s (pvr 0x%08x) · PMU %s · %s · "
			 "%llu samples · %llu intervals · config %u", d->profile, d->model, d->cpus,
			 d->cpus == 1 ? "" : "s", kov_pvr_name(d->pvr), d->pvr, d->pmu,
			 kov_role_name(d->role), (unsigned long long)t->samples_total,
			 (unsigned long long)t->intervals, (unsigned)t->st.config_id);
	} else if (t->state == CONN_REPLAY) {
		snprintf(line, sizeof line, "%s · %llu samples · %llu intervals", t->status,
			 (unsigned long long)t->samples_total, (unsigned long long)t->intervals);
	} else {
		snprintf(line, sizeof line, "%s — retrying every 2 s", t->status);
	}
	rgb(cr, 0x57606A);
	text_draw(cr, PAD, 26, FONT_SMALL, line);
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
	}
}

static void draw_tree(cairo_t *cr, struct view *v, double h)
{
	struct target *t = &v->targets[v->current];
	struct tree *tr = &v->tree;
	box(cr, 0, BAR_H, TREE_W, h - BAR_H, 0xFFFFFF, 0xD6D9DE);
	rgb(cr, 0x1F2328);
	text_draw(cr, PAD, BAR_H + 6, FONT_TITLE, "Kernel Object Tree");
	char f[128];
	snprintf(f, sizeof f, v->typing_filter ? "filter: %s▏" : tr->filter[0] ? "filter: %s  (Esc clears)" :
		 "%s/ filters by class or process · arrows move · Enter opens", tr->filter);
	rgb(cr, 0x57606A);
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
		if (r->kind == ROW_OBJECT) {
			const struct kov_scan_object *o = &t->scan.objects[r->obj];
			const struct obj_stat *st = stat_of(t, o->pid, o->coid, o->gen);
			if (st && hot) {
				heat(cr, (double)st->samples / (double)hot);
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
		rgb(cr, 0x57606A);
		if (r->has_children)
			text_draw(cr, x, y + 1, FONT_SMALL, r->expanded ? "▾" : "▸");
		char label[320];
		row_label(t, r, label, sizeof label);
		rgb(cr, r->kind == ROW_OBJECT ? 0x1F2328 : 0x0B3D91);
		text_draw(cr, x + 13, y + 1, r->kind == ROW_OBJECT ? FONT : FONT_BOLD, label);
		if (r->kind == ROW_OBJECT) {
			const struct kov_scan_object *o = &t->scan.objects[r->obj];
			const struct obj_stat *st = stat_of(t, o->pid, o->coid, o->gen);
			if (st) {
				char n[32];
				snprintf(n, sizeof n, "%llu", (unsigned long long)st->samples);
				rgb(cr, 0x8A4B08);
				text_draw(cr, TREE_W - PAD - text_width(cr, FONT_SMALL, n), y + 2, FONT_SMALL, n);
			}
		}
		v->drawn_rows++;
	}
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
		rgb(cr, 0xEEF0F2);
		cairo_move_to(cr, floor(gx) + 0.5, cy);
		cairo_line_to(cr, floor(gx) + 0.5, cy + ch);
		cairo_stroke(cr);
		char lab[16];
		if (v->pan_s > 0)
			snprintf(lab, sizeof lab, "-%ds", s + (int)v->pan_s);
		else
			snprintf(lab, sizeof lab, s ? "-%ds" : "now", s);
		rgb(cr, 0x8C959F);
		text_draw(cr, gx - text_width(cr, FONT_SMALL, lab) / 2, cy + ch + 2, FONT_SMALL, lab);
	}
	char ytop[32];
	snprintf(ytop, sizeof ytop, "%.3g", top);
	text_draw(cr, cx + 2, cy, FONT_SMALL, ytop);
	/* One column per point of width: the range of the values in it as a light band, their
	 * mean as the line. Ten minutes of 100 ms points would otherwise be 6000 segments. */
	enum { COLS = 4096 };
	static double cmin[COLS], cmax[COLS], csum[COLS];
	static int cnum[COLS];
	int ncols = (int)cw < COLS ? (int)cw : COLS;
	memset(cnum, 0, sizeof cnum[0] * (size_t)ncols);
	uint64_t t;
	double val;
	for (size_t i = 0; series_at(&p->s, i, &t, &val) && t >= from; i++) {
		int col = (int)((ncols - 1) * (1.0 - age_s(now, t) / v->window_s));
		if (col < 0 || col >= ncols)
			continue;
		if (!cnum[col] || val < cmin[col])
			cmin[col] = val;
		if (!cnum[col] || val > cmax[col])
			cmax[col] = val;
		csum[col] = (cnum[col] ? csum[col] : 0) + val;
		cnum[col]++;
	}
	/* The band as pixel-aligned boxes, one per column: Cairo's fast path. */
	for (int c = 0; c < ncols; c++)
		if (cnum[c]) {
			double y0 = floor(cy + ch - ch * cmax[c] / top), y1 = ceil(cy + ch - ch * cmin[c] / top);
			cairo_rectangle(cr, floor(cx + c * cw / ncols), y0, 1, y1 - y0 + 1);
		}
	cairo_set_source_rgba(cr, 0.18, 0.44, 0.87, 0.22);
	cairo_fill(cr);
	bool first = true;
	rgb(cr, 0x2F6FDE);
	cairo_set_line_width(cr, 1.5);
	for (int c = 0; c < ncols; c++)
		if (cnum[c]) {
			double px = cx + c * cw / ncols, py = cy + ch - ch * (csum[c] / cnum[c]) / top;
			if (first)
				cairo_move_to(cr, px, py);
			else
				cairo_line_to(cr, px, py);
			first = false;
		}
	cairo_stroke(cr);
}

/* Charts are redrawn only when something they show changed: a new point, the window, the
 * size, or time moving the axis by a whole column; otherwise the cached image is painted. */
static void paint_chart(cairo_t *cr, struct view *v, struct pane *p, double x, double y,
			double cw, double ch, double mx, uint64_t now, uint64_t from)
{
	const double margin = 14;   /* room for the edge markers' labels */
	int pw = (int)ceil((cw + 2 * margin) * v->scale), ph = (int)ceil((ch + 16) * v->scale);
	uint64_t column_ns = (uint64_t)(v->window_s * 1e9 / (cw > 1 ? cw : 1));
	uint64_t key[5] = { (uint64_t)pw << 32 | (uint32_t)ph, (uint64_t)(v->window_s * 1000),
			    p->s.n << 32 ^ p->s.head, column_ns ? now / column_ns : now,
			    (uint64_t)(mx * 1e6) };
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
	box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	rgb(cr, 0x1F2328);
	text_draw(cr, x + 8, y + 5, FONT_BOLD, p->title);
	uint64_t from = now - (uint64_t)(v->window_s * 1e9);
	double mn = 0, avg = 0, mx = 0;
	size_t count = 0;
	bool have = p->available && series_stats(&p->s, from, now + 1, &mn, &avg, &mx, &count);
	if (!p->available || !have) {
		rgb(cr, p->available ? 0x57606A : 0xA23B2A);
		text_wrap(cr, x + 8, y + 24, w - 16, FONT_SMALL, p->available ?
			  "no data yet: monitoring not started, or its events are not configured" : p->why);
		if (p->available) {
			rgb(cr, 0x8C959F);
			text_wrap(cr, x + 8, y + 40, w - 16, FONT_SMALL, p->why);
		}
		return;
	}
	uint64_t t0;
	double now_v;
	series_at(&p->s, 0, &t0, &now_v);
	char stats[160];
	snprintf(stats, sizeof stats, "now %.3g%s   min %.3g   avg %.3g   max %.3g", now_v, p->unit, mn,
		 avg, mx);
	rgb(cr, 0x57606A);
	text_draw(cr, x + w - 8 - text_width(cr, FONT_SMALL, stats), y + 6, FONT_SMALL, stats);
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
	box(cr, tx, cy + 2, tw, 17, 0xFFFDE7, 0xB8BEC6);
	rgb(cr, 0x1F2328);
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
	box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	rgb(cr, 0x1F2328);
	text_draw(cr, x + 8, y + 5, FONT_BOLD, "Top contributors (samples since connected)");
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
		rgb(cr, 0x57606A);
		text_draw(cr, x + 8, y + 26, FONT_SMALL, "no samples attributed to objects yet");
		return;
	}
	for (size_t i = 0; i < n; i++) {
		const struct kov_top_row *r = order[i];
		double ry = y + 26 + (double)i * 18, share = total ? (double)r->v[0] / (double)total : 0;
		char cls[160], proc[160], line[400];
		kov_top_names(items, r, true, cls, sizeof cls, proc, sizeof proc);
		heat(cr, 0.25 + 0.75 * share);
		cairo_rectangle(cr, x + 8, ry + 2, (w * 0.25) * share, 13);
		cairo_fill(cr);
		snprintf(line, sizeof line, "%5.1f%%  %s · %s · %llu, %.0f%% spin", 100 * share, cls,
			 proc, (unsigned long long)r->v[0],
			 r->v[0] ? 100.0 * (double)r->v[1] / (double)r->v[0] : 0);
		rgb(cr, 0x1F2328);
		text_draw(cr, x + 12 + w * 0.25, ry, FONT_SMALL, line);
		size_t used = strlen(v->drawn_top);
		snprintf(v->drawn_top + used, sizeof v->drawn_top - used, "%s%s · %s", i ? " | " : "",
			 cls, proc);
	}
}

/* The selected object: its share of the samples per report interval (thesis figure 3.6) and
 * its code hot spots, symbolized by the target. */
static void draw_selected(cairo_t *cr, struct view *v, double x, double y, double w, double h,
			  uint64_t now)
{
	struct target *t = &v->targets[v->current];
	box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	rgb(cr, 0x1F2328);
	const struct row *r = v->tree.selected < v->tree.n ? &v->tree.rows[v->tree.selected] : NULL;
	if (!r || r->kind != ROW_OBJECT || !t->have_scan) {
		text_draw(cr, x + 8, y + 5, FONT_BOLD, "Selected object (L: locks)");
		rgb(cr, 0x57606A);
		text_draw(cr, x + 8, y + 26, FONT_SMALL, "select an object in the tree");
		return;
	}
	const struct kov_scan_object *ob = &t->scan.objects[r->obj];
	char title[160], coid[KOV_COID_CHARS];
	snprintf(title, sizeof title, "%s  %s  gen %u", ob->class_name, kov_coid_str(ob->coid, coid),
		 ob->gen);
	text_draw(cr, x + 8, y + 5, FONT_BOLD, title);
	const struct obj_stat *o = stat_of(t, ob->pid, ob->coid, ob->gen);
	if (!o) {
		rgb(cr, 0x57606A);
		text_draw(cr, x + 8, y + 26, FONT_SMALL, "no samples attributed to it yet (I counts its calls)");
		return;
	}
	/* Contribution over the window: its samples / all samples, per interval. */
	double cx = x + 8, cy = y + 26, cw = w - 16, ch = 60;
	uint64_t from = now - (uint64_t)(v->window_s * 1e9);
	box(cr, cx, cy, cw, ch, 0xFBFBFC, 0xEEF0F2);
	rgb(cr, 0xD9480F);
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
		double share = total ? (double)o->hist[k].n / (double)total : 0;
		double px = cx + cw - cw * age_s(now, when) / v->window_s;
		double py = cy + ch - ch * share;
		if (first)
			cairo_move_to(cr, px, py);
		else
			cairo_line_to(cr, px, py);
		first = false;
	}
	cairo_stroke(cr);
	char line[200];
	char calls[48] = "";
	if (o->calls)
		snprintf(calls, sizeof calls, " · %llu calls", (unsigned long long)o->calls);
	snprintf(line, sizeof line, "share of all samples per interval (top: 100%%) · %llu samples, "
		 "%.0f%% spin%s", (unsigned long long)o->samples,
		 o->samples ? 100.0 * (double)o->spin / (double)o->samples : 0, calls);
	rgb(cr, 0x57606A);
	text_draw(cr, cx, cy + ch + 2, FONT_SMALL, line);
	/* Hot spots. */
	target_want_hot_spots(t, o);
	rgb(cr, 0x1F2328);
	text_draw(cr, cx, cy + ch + 20, FONT_BOLD, "Code hot spots");
	size_t order[OBJ_PCS];
	for (size_t i = 0; i < o->n_pcs; i++)
		order[i] = i;
	for (size_t i = 1; i < o->n_pcs; i++)
		for (size_t j = i; j > 0 && o->pcs[order[j]].n > o->pcs[order[j - 1]].n; j--) {
			size_t tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	double ly = cy + ch + 38;
	for (size_t i = 0; i < o->n_pcs && ly < y + h - 16; i++, ly += 15) {
		const char *name = NULL;
		for (size_t k = 0; k < t->n_hot; k++)
			if (t->hot_pcs[k] == o->pcs[order[i]].pc && t->hot_pid == o->pid)
				name = t->hot_names[k];
		snprintf(line, sizeof line, "%6llu  0x%llx  %s", (unsigned long long)o->pcs[order[i]].n,
			 (unsigned long long)o->pcs[order[i]].pc, name ? name : "…");
		text_draw(cr, cx, ly, FONT_SMALL, line);
	}
}

/* Per monitored lock: lockstat figures since connected and its waiters over time. */
static void draw_locks(cairo_t *cr, struct view *v, double x, double y, double w, double h,
		       uint64_t now)
{
	struct target *t = &v->targets[v->current];
	box(cr, x, y, w, h, 0xFFFFFF, 0xD6D9DE);
	rgb(cr, 0x1F2328);
	text_draw(cr, x + 8, y + 5, FONT_BOLD, "Locks (L: selected object)");
	if (!t->n_locks) {
		rgb(cr, 0x57606A);
		text_wrap(cr, x + 8, y + 26, w - 16, FONT_SMALL, "no lock statistics yet: programs monitor "
			  "their mutexes with mutex_monitor(), and the lock stream must run");
		return;
	}
	double hz = t->c ? (double)kov_client_target(t->c)->timebase_hz : 512e6;
	uint64_t from = now - (uint64_t)(v->window_s * 1e9);
	double ly = y + 26;
	for (size_t i = 0; i < t->n_locks && ly < y + h - 34; i++) {
		const struct lock_view *lv = &t->locks[i];
		const struct proto_lock *l = &lv->sum;
		const char *cls = "lock";
		size_t k = t->have_scan && l->coid ? kov_scan_find_any(&t->scan, l->pid, l->coid, l->gen) :
						     KOV_NOT_IN_SCAN;
		if (k != KOV_NOT_IN_SCAN)
			cls = t->scan.objects[k].class_name;
		char line[256];
		snprintf(line, sizeof line, "%s 0x%llx (pid %u): %llu acquired, %llu contended, wait %.1f ms "
			 "(max %.2f), hold %.1f ms (max %.2f), waiters avg %.2f max %u", cls,
			 (unsigned long long)l->lock, l->pid, (unsigned long long)l->acquisitions,
			 (unsigned long long)l->contentions, 1e3 * (double)l->wait_total / hz,
			 1e3 * (double)l->wait_max / hz, 1e3 * (double)l->hold_total / hz,
			 1e3 * (double)l->hold_max / hz,
			 l->qlen_samples ? (double)l->qlen_sum / (double)l->qlen_samples : 0, l->qlen_max);
		rgb(cr, 0x1F2328);
		double th = text_wrap(cr, x + 8, ly, w - 16, FONT_SMALL, line);
		/* waiters over the window, scaled to the largest seen */
		double top = l->qlen_max ? l->qlen_max : 1, cx = x + 8, cw = w - 16, cy = ly + th + 2;
		ly = cy + 16;
		rgb(cr, 0x8A4B08);
		cairo_set_line_width(cr, 1);
		uint64_t t0;
		double val;
		bool first = true;
		for (size_t j = 0; series_at(&lv->waiters, j, &t0, &val) && t0 >= from; j++) {
			double px = cx + cw - cw * age_s(now, t0) / v->window_s, py = cy + 8 - 8 * val / top;
			if (first)
				cairo_move_to(cr, px, py);
			else
				cairo_line_to(cr, px, py);
			first = false;
		}
		cairo_stroke(cr);
	}
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
			snprintf(tip, sizeof tip, "%s:%s\nprofile %s · %s\n%u CPU%s · %s (pvr 0x%08x) · %llu MiB\n"
				 "PMU %s · %zu events · protocol %u.%u\nkernel %s · %s\nrole %s%s%s",
				 t->host, t->port, d->profile, d->model, d->cpus, d->cpus == 1 ? "" : "s",
				 kov_pvr_name(d->pvr), d->pvr, (unsigned long long)(d->memory >> 20), d->pmu,
				 t->n_cat, d->major, d->minor, d->build_id, d->server, kov_role_name(d->role),
				 d->reason[0] ? ": " : "", d->reason);   /* sized for the longest fields */
		} else {
			snprintf(tip, sizeof tip, "%s%s%s\n%s: %s", t->host, t->port[0] ? ":" : "", t->port,
				 conn_name(t->state), t->status);
		}
		double w = 420, h = text_wrap(cr, -10000, 0, w - 16, FONT_SMALL, tip) + 12;
		box(cr, v->tab_x[i], 28, w, h, 0xFFFDE7, 0xB8BEC6);
		rgb(cr, 0x1F2328);
		text_wrap(cr, v->tab_x[i] + 8, 34, w - 16, FONT_SMALL, tip);
		v->hover_shown = true;
	}
}

void draw_view(cairo_t *cr, struct view *v, uint64_t now)
{
	double w = v->width / v->scale, h = v->height / v->scale;
	v->drawn_series = v->drawn_points = 0;
	rgb(cr, 0xECEEF1);
	cairo_paint(cr);
	draw_bar(cr, v, w);
	draw_tree(cr, v, h);
	struct target *t = &v->targets[v->current];
	double px = TREE_W + PAD, pw = w - px - PAD, py = BAR_H + PAD;
	double panes_h = (h - BAR_H - 3 * PAD) * 0.68, ph = panes_h / PANES;
	/* Panned back: the panes end pan_s before now (the axis labels count from there). */
	uint64_t pane_now = now - (uint64_t)(v->pan_s * 1e9);
	for (int p = 0; p < PANES; p++)
		draw_pane(cr, v, &t->pane[p], px, py + p * ph, pw, ph - 4, pane_now);
	double ty = py + panes_h + PAD, tw = pw * 0.56;
	draw_top(cr, v, t, px, ty, tw - PAD / 2, h - ty - PAD);
	draw_tab_tip(cr, v);
	if (v->config.open)   /* over the panes: the tree stays visible beside it */
		config_draw(cr, &v->config, t, px, py, pw, h - py - PAD);
	else if (v->show_locks)
		draw_locks(cr, v, px + tw + PAD / 2, ty, pw - tw - PAD / 2, h - ty - PAD, now);
	else
		draw_selected(cr, v, px + tw + PAD / 2, ty, pw - tw - PAD / 2, h - ty - PAD, now);
}

size_t view_row_at(const struct view *v, double x, double y)
{
	double top = BAR_H + 46;
	if (x < 0 || x >= TREE_W || y < top)
		return (size_t)-1;
	size_t i = v->tree.scroll + (size_t)((y - top) / ROW_H);
	return i < v->tree.n ? i : (size_t)-1;
}

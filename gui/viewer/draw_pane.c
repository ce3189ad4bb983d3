/* A metric pane: the title, figures and a chart of a series over the time window, with the
 * value under the pointer. Charts are cached as images until what they show changes. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "viewer/layout.h"
#include "viewer/raster.h"

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

/* The line through the columns' means as one box per column, from the last column's mean to
 * this one's: a column is a point of width, so this is the line at the chart's resolution.
 * Boxes written into the pixels, not a stroke: Cairo strokes a path as one polygon whose cost
 * grows faster than its edges, and a noisy series of 800 columns crosses itself everywhere
 * (its stroke was two thirds of the benchmark's time under callgrind). dash > 0 leaves gaps
 * every dash columns. False when no column has a point. */
static bool mean_line(struct raster *r, const struct columns *c, int ncols, double cx, double cy,
		      double cw, double ch, double top, double thick, int dash, unsigned rgb)
{
	bool any = false;
	double last = 0;
	for (int k = 0; k < ncols; k++) {
		if (!c->n[k])
			continue;
		double py = floor(cy + ch - ch * (c->sum[k] / c->n[k]) / top);
		double from = any ? last : py, y0 = from < py ? from : py, y1 = from < py ? py : from;
		last = py;
		any = true;
		if (!dash || (k / dash) % 2 == 0)
			raster_box(r, floor(cx + k * cw / ncols), y0, thick, y1 - y0 + thick, rgb, 1);
	}
	return any;
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
	/* The band (a box per column) and the lines, written into the chart's pixels. */
	struct raster r;
	if (!raster_begin(&r, cr))
		return;
	for (int c = 0; c < ncols; c++)
		if (col.n[c]) {
			double y0 = floor(cy + ch - ch * col.max[c] / top), y1 = ceil(cy + ch - ch * col.min[c] / top);
			raster_box(&r, floor(cx + c * cw / ncols), y0, 1, y1 - y0 + 1, 0x2E70DE, 0.22);
		}
	mean_line(&r, &col, ncols, cx, cy, cw, ch, top, 2, 0, 0x2F6FDE);
	/* The second opinion (if any) as a dashed grey line of its column means. */
	bin(&col, v, &p->s2, ncols, now, from);
	mean_line(&r, &col, ncols, cx, cy, cw, ch, top, 1, 4, 0x8C959F);
	raster_end(&r);
}

enum { CHARTS_PER_FRAME = 1 };
enum { PANE_FILL = 0xFFFFFF };   /* a pane's background, which its chart is drawn on */

/* Where a chart's image goes, in whole pixels: at (dx, dy), its columns in0..in1 inside the
 * pane's box (the rest, under the edge labels, runs over the box's line). */
struct chart_place {
	double dx, dy;
	int in0, in1;
};

static struct chart_place chart_place(cairo_t *cr, double x, double y, double box_x, double box_w,
				      int pw)
{
	struct chart_place c = { x, y, 0, 0 };
	cairo_user_to_device(cr, &c.dx, &c.dy);
	c.dx = round(c.dx);
	c.dy = round(c.dy);
	double b[4], lw;
	draw_box_pixels(cr, box_x, y, box_w, 1, b, &lw);
	c.in0 = (int)fmin(fmax(b[0] + lw - c.dx, 0), pw);
	c.in1 = (int)fmin(fmax(b[2] - lw - c.dx, c.in0), pw);
	return c;
}

/* The image: inside the box on the pane's own background, so that it can be copied there
 * rather than blended; outside it transparent. */
static void redraw_chart(struct view *v, struct pane *p, const struct chart_place *at, int pw,
			 int ph, double margin, double cw, double ch, double mx, uint64_t now,
			 uint64_t from)
{
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
	cairo_rectangle(c2, at->in0, 0, at->in1 - at->in0, ph);
	draw_rgb(c2, PANE_FILL);
	cairo_fill(c2);
	cairo_scale(c2, v->scale, v->scale);
	cairo_translate(c2, margin, 0);
	draw_chart(c2, v, p, cw, ch, mx, now, from);
	cairo_destroy(c2);
	v->charts_drawn++;
}

/* Charts are redrawn only when something they show changed: a new point, the window, the
 * size, or time moving the axis by a whole column; otherwise the cached image is painted.
 * (box_x, box_w): the pane's box across. */
static void paint_chart(cairo_t *cr, struct view *v, struct pane *p, double x, double y,
			double cw, double ch, double box_x, double box_w, double mx, uint64_t now,
			uint64_t from)
{
	const double margin = 14;   /* room for the edge markers' labels */
	int pw = (int)ceil((cw + 2 * margin) * v->scale), ph = (int)ceil((ch + 16) * v->scale);
	struct chart_place at = chart_place(cr, x - margin, y, box_x, box_w, pw);
	uint64_t column_ns = (uint64_t)(v->window_s * 1e9 / (cw > 1 ? cw : 1));
	uint64_t key[7] = { (uint64_t)pw << 32 | (uint32_t)ph, (uint64_t)(v->window_s * 1000),
			    p->s.n << 32 ^ p->s.head, column_ns ? now / column_ns : now,
			    (uint64_t)(mx * 1e6), p->s2.n << 32 ^ p->s2.head,
			    (uint64_t)at.in0 << 32 | (uint32_t)at.in1 };
	/* At most CHARTS_PER_FRAME charts are redrawn in a frame; the others show their cached
	 * image (behind by a point, a column, or the window's new size) or, before their first
	 * image, nothing, for a few frames: a 60 s window moves every chart's axis by a column
	 * every 70 ms, and five charts redrawn together made the slow frames. */
	if (memcmp(key, p->chart_key, sizeof key) && v->charts_this_frame < CHARTS_PER_FRAME) {
		v->charts_this_frame++;
		redraw_chart(v, p, &at, pw, ph, margin, cw, ch, mx, now, from);
		memcpy(p->chart_key, key, sizeof key);
	}
	/* On whole pixels: the panes' heights are fractions of the window's, and an image
	 * painted between pixels is resampled (blurred, and the slowest of the frame's paints:
	 * a quarter of --bench's instructions for four charts). Inside the box copied, as
	 * blending its mostly empty pixels cost as much again as the rest of the panes. */
	if (p->chart) {
		cairo_save(cr);
		cairo_identity_matrix(cr);
		cairo_set_source_surface(cr, p->chart, at.dx, at.dy);
		cairo_rectangle(cr, at.dx + at.in0, at.dy, at.in1 - at.in0, ph);
		cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
		cairo_fill(cr);
		cairo_rectangle(cr, at.dx, at.dy, at.in0, ph);
		cairo_rectangle(cr, at.dx + at.in1, at.dy, pw - at.in1, ph);
		cairo_set_operator(cr, CAIRO_OPERATOR_OVER);
		cairo_fill(cr);
		cairo_restore(cr);
	}
	v->drawn_points += series_since(&p->s, from);   /* for the screenshot report */
}

/* One mark on a pane's time axis: a dashed line where it happened, labelled (the label below
 * the top by `row` lines, left of the line when it would run past the pane); false when it is
 * older than the window. */
static bool draw_axis_mark(cairo_t *cr, const struct view *v, double cx, double cy, double cw,
			   double ch, uint64_t now, uint64_t at, uint32_t rgb, int row, const char *label)
{
	double ago = age_s(now, at);
	if (ago > v->window_s)
		return false;
	double px = floor(cx + cw - cw * ago / v->window_s) + 0.5;
	static const double dash[] = { 3, 2 };
	cairo_set_dash(cr, dash, 2, 0);
	draw_rgb(cr, rgb);
	cairo_set_line_width(cr, 1.5);
	cairo_move_to(cr, px, cy);
	cairo_line_to(cr, px, cy + ch);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	double lw = text_width(cr, FONT_SMALL, label);
	text_draw(cr, px + 3 + lw > cx + cw ? px - 3 - lw : px + 3, cy + 2 + 12 * row, FONT_SMALL, label);
	return true;
}

/* The window's hot swaps on its time axis (target_swaps.c), labelled with the class each went
 * to ("refused" when the object was left as it was), and the changes of the monitor's
 * sampling periods (target_throttle.c), labelled with the factor from then on. */
static void draw_swap_marks(cairo_t *cr, struct view *v, double cx, double cy, double cw, double ch,
			    uint64_t now)
{
	const struct target *t = &v->targets[v->current];
	char label[48];
	for (size_t i = 0; i < t->n_swaps; i++) {
		const struct swap_mark *m = &t->swaps[i];
		snprintf(label, sizeof label, "%s%s", m->swapped ? "swap: " : "refused: ", m->to);
		v->drawn_swaps += draw_axis_mark(cr, v, cx, cy, cw, ch, now, m->at,
						 m->swapped ? 0xBC4C00 : 0x8C959F, 0, label);
	}
	for (size_t i = 0; i < t->n_throttles; i++) {
		const struct throttle_mark *m = &t->throttles[i];
		snprintf(label, sizeof label, "periods x%u", (unsigned)m->factor);
		v->drawn_throttles += draw_axis_mark(cr, v, cx, cy, cw, ch, now, m->at, 0x6639BA, 1, label);
	}
}

void draw_metric_pane(cairo_t *cr, struct view *v, struct pane *p, double x, double y,
		      double w, double h, uint64_t now)
{
	draw_box(cr, x, y, w, h, PANE_FILL, 0xD6D9DE);
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
	paint_chart(cr, v, p, x + 8, y + 24, w - 16, h - 44, x, w, mx, now, from);
	draw_swap_marks(cr, v, x + 8, y + 24, w - 16, h - 44, now);
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

/* Drawing one frame with Cairo: where each pane goes (the target bar, the Kernel Object Tree,
 * the metric panes over time, the top contributors, the selected object or the lock table, or
 * the flame graph instead of the panes) and the drawing helpers they share. Everything is laid
 * out in points; the caller scales to pixels. The panes are in draw_*.c. */
#include <math.h>
#include "viewer/layout.h"

void draw_rgb(cairo_t *cr, unsigned hex)
{
	cairo_set_source_rgb(cr, ((hex >> 16) & 255) / 255.0, ((hex >> 8) & 255) / 255.0, (hex & 255) / 255.0);
}

/* In whole pixels, as filled rectangles: a one-point line stroked around a box whose corner
 * falls between pixels (the panes' heights are fractions of the window's) blurs over two
 * pixels, and Cairo strokes and fills such a box through its general rasterizer, a fifth of
 * --bench's instructions for ten boxes. */
void draw_box_pixels(cairo_t *cr, double x, double y, double w, double h, double px[4], double *lw)
{
	double x0 = x, y0 = y, x1 = x + w, y1 = y + h, one = 1, zero = 0;
	cairo_user_to_device(cr, &x0, &y0);
	cairo_user_to_device(cr, &x1, &y1);
	cairo_user_to_device_distance(cr, &one, &zero);
	px[0] = round(x0), px[1] = round(y0), px[2] = round(x1), px[3] = round(y1);
	*lw = one > 1 ? round(one) : 1;
}

void draw_box(cairo_t *cr, double x, double y, double w, double h, unsigned fill, unsigned line)
{
	double b[4], lw;
	draw_box_pixels(cr, x, y, w, h, b, &lw);
	double x0 = b[0], y0 = b[1], x1 = b[2], y1 = b[3];
	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_new_path(cr);
	cairo_rectangle(cr, x0, y0, x1 - x0, lw);
	cairo_rectangle(cr, x0, y1 - lw, x1 - x0, lw);
	cairo_rectangle(cr, x0, y0 + lw, lw, y1 - y0 - 2 * lw);
	cairo_rectangle(cr, x1 - lw, y0 + lw, lw, y1 - y0 - 2 * lw);
	draw_rgb(cr, line);
	cairo_fill(cr);
	if (x1 - x0 > 2 * lw && y1 - y0 > 2 * lw) {
		cairo_rectangle(cr, x0 + lw, y0 + lw, x1 - x0 - 2 * lw, y1 - y0 - 2 * lw);
		draw_rgb(cr, fill);
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

void draw_view(cairo_t *cr, struct view *v, uint64_t now)
{
	double w = v->width / v->scale, h = v->height / v->scale;
	v->drawn_series = v->drawn_points = v->drawn_swaps = v->drawn_throttles = v->charts_this_frame = 0;
	draw_rgb(cr, 0xECEEF1);
	cairo_paint(cr);
	draw_target_bar(cr, v, w);
	phase_mark(&v->phases, PH_BAR);
	cairo_save(cr);   /* a narrow window's tree cuts its long rows */
	cairo_rectangle(cr, 0, 0, tree_w(v), h);
	cairo_clip(cr);
	draw_object_tree(cr, v, h);
	cairo_restore(cr);
	phase_mark(&v->phases, PH_OBJTREE);
	struct target *t = &v->targets[v->current];
	double px = tree_w(v) + PAD, pw = w - px - PAD, py = BAR_H + PAD;
	double panes_h = (h - BAR_H - 3 * PAD) * 0.68, ph = panes_h / PANES;
	/* Panned back: the panes end pan_s before now (the axis labels count from there). */
	uint64_t pane_now = now - (uint64_t)(v->pan_s * 1e9);
	double ty = py + panes_h + PAD, tw = pw * 0.56;
	v->drawn_top[0] = 0;
	if (v->flame.open) {   /* the flame graph takes the panes' and panels' room */
		flame_draw(cr, v, px, py, pw, h - py - PAD, now);
		phase_mark(&v->phases, PH_PANES);
	} else if (v->show_locks) {   /* the lock table takes the whole width below the panes */
		draw_lock_table(cr, v, px, ty, pw, h - ty - PAD);
		phase_mark(&v->phases, PH_SELECTED);
	} else {
		draw_top_contributors(cr, v, t, px, ty, tw - PAD / 2, h - ty - PAD);
		phase_mark(&v->phases, PH_TOP);
		draw_selected_object(cr, v, px + tw + PAD / 2, ty, pw - tw - PAD / 2, h - ty - PAD, now);
		phase_mark(&v->phases, PH_SELECTED);
	}
	/* A frame redraws at most one chart (draw_pane.c); starting from a different pane each
	 * frame, none waits more than PANES frames for its turn. */
	v->pane_rotor = (v->pane_rotor + 1) % PANES;
	for (int k = 0; k < PANES && !v->flame.open; k++) {
		int p = (k + v->pane_rotor) % PANES;
		draw_metric_pane(cr, v, &t->pane[p], px, py + p * ph, pw, ph - 4, pane_now);
	}
	phase_mark(&v->phases, PH_PANES);
	draw_tab_tip(cr, v);
	if (v->config.open)   /* over the panes: the tree stays visible beside it */
		config_draw(cr, &v->config, t, px, py, pw, h - py - PAD);
	if (v->help_open)
		help_draw(cr, v);
	phase_mark(&v->phases, PH_OVERLAY);
}

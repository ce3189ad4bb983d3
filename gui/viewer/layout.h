/* The main view's layout, shared by the files of its panes (draw*.c, flame_draw.c): the fonts,
 * the frame's geometry in points, the helpers several panes use, and each pane's drawing
 * function (draw.c places them). Colours are 0xRRGGBB given where they are drawn. */
#ifndef KOV_VIEWER_LAYOUT_H
#define KOV_VIEWER_LAYOUT_H

#include <stdint.h>
#include <cairo.h>
#include "viewer/viewer.h"

#define FONT "Sans 10"
#define FONT_SMALL "Sans 8.5"
#define FONT_BOLD "Sans Bold 10"
#define FONT_TITLE "Sans Bold 11"

#define BAR_H 46.0                    /* the target bar across the top */
#define ROW_H 19.0                    /* a tree row */
#define TREE_ROWS_TOP (BAR_H + 46)    /* the tree's first row, below its title and filter */
#define PAD 10.0                      /* between panes */

/* The object tree's width on the left: 400 points, less in a narrow window (32% of it, at
 * least 240) so that the panes keep their room. */
static inline double tree_w(const struct view *v)
{
	double w = 0.32 * v->width / (v->scale > 0 ? v->scale : 1);
	return w > 400 ? 400 : w < 240 ? 240 : w;
}

/* Seconds from t to now; points that arrived during this frame count as now. */
static inline double age_s(uint64_t now, uint64_t t)
{
	return t >= now ? 0 : (double)(now - t) / 1e9;
}

/* White to orange-red by share of the hottest object. */
static inline void heat(cairo_t *cr, double f)
{
	f = f < 0 ? 0 : f > 1 ? 1 : f;
	cairo_set_source_rgb(cr, 1.0 - 0.15 * f, 1.0 - 0.62 * f, 1.0 - 0.9 * f);
}

/* Timebase ticks of a lock figure as milliseconds; 0 while the target's timebase is unknown. */
static inline double ms_of(const struct target *t, uint64_t ticks)
{
	return t->have_desc ? 1e3 * kov_ticks_to_s(ticks, t->desc.timebase_hz) : 0;
}

/* The panes, in points; what each draws is said in its file. */
void draw_target_bar(cairo_t *cr, struct view *v, double w);                         /* draw_bar.c */
void draw_tab_tip(cairo_t *cr, struct view *v);                                      /* draw_bar.c */
void draw_object_tree(cairo_t *cr, struct view *v, double h);                        /* draw_tree.c */
void draw_metric_pane(cairo_t *cr, struct view *v, struct pane *p, double x, double y, double w,
		      double h, uint64_t now);                                       /* draw_pane.c */
void draw_top_contributors(cairo_t *cr, struct view *v, const struct target *t, double x,
			   double y, double w, double h);                            /* draw_top.c */
void draw_selected_object(cairo_t *cr, struct view *v, double x, double y, double w, double h,
			  uint64_t now);                                             /* draw_selected.c */
void draw_lock_table(cairo_t *cr, struct view *v, double x, double y, double w, double h);
										     /* draw_locks.c */

#endif

/* The Kernel Object Tree: machine, processes, objects and their per-CPU reps, each object's
 * row coloured by its samples. Only visible rows are drawn. */
#include <stdio.h>
#include <string.h>
#include "viewer/layout.h"

static uint64_t max_samples(const struct target *t)
{
	uint64_t m = 0;
	for (size_t i = 0; i < t->n_objs; i++)
		if (t->objs[i].samples > m)
			m = t->objs[i].samples;
	return m;
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
		const struct swap_mark *m = target_swap_mark(t, kov_object_space(o->pid, o->coid), o->coid);
		snprintf(buf, n, "%s #%llu%s%s", o->class_name, (unsigned long long)((o->coid - base) / 16),
			 o->coid >= KOV_KERNEL_COID_BASE ? "" : " (user)",
			 m && m->swapped ? "  [swapped]" : "");
		break;
	}
	case ROW_REP:
		snprintf(buf, n, "rep on cpu%d  0x%llx", r->cpu,
			 (unsigned long long)s->objects[r->obj].reps[r->cpu]);
		break;
	}
}

void draw_object_tree(cairo_t *cr, struct view *v, double h)
{
	struct target *t = &v->targets[v->current];
	struct tree *tr = &v->tree;
	draw_box(cr, 0, BAR_H, tree_w(v), h - BAR_H, 0xFFFFFF, 0xD6D9DE);
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
	double top = TREE_ROWS_TOP, bottom = h - 4;
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
			const struct obj_stat *st = target_object(t, o->pid, o->coid, o->gen);
			uint64_t n = !st ? 0 : r->kind == ROW_REP ? st->rep_samples[r->cpu] : st->samples;
			if (st && hot) {
				heat(cr, (double)n / (double)hot);
				cairo_rectangle(cr, 1, y, tree_w(v) - 2, ROW_H);
				cairo_fill(cr);
			}
		}
		if (i == tr->selected) {
			cairo_rectangle(cr, 1, y, tree_w(v) - 2, ROW_H);
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
			const struct obj_stat *st = target_object(t, o->pid, o->coid, o->gen);
			if (st) {
				char n[32];
				snprintf(n, sizeof n, "%llu", (unsigned long long)(r->kind == ROW_REP ?
					 st->rep_samples[r->cpu] : st->samples));
				draw_rgb(cr, 0x8A4B08);
				text_draw(cr, tree_w(v) - PAD - text_width(cr, FONT_SMALL, n), y + 2, FONT_SMALL, n);
			}
		}
		v->drawn_rows++;
	}
}

size_t view_row_at(const struct view *v, double x, double y)
{
	double top = TREE_ROWS_TOP;
	if (x < 0 || x >= tree_w(v) || y < top)
		return (size_t)-1;
	size_t i = v->tree.scroll + (size_t)((y - top) / ROW_H);
	return i < v->tree.n ? i : (size_t)-1;
}

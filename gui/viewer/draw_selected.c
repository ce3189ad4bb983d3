/* The selected object's panel: its share of the samples over time, its locks and their
 * call sites, and its code hot spots. */
#include <stdio.h>
#include <string.h>
#include "viewer/layout.h"

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
void draw_selected_object(cairo_t *cr, struct view *v, double x, double y, double w, double h,
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
	const struct obj_stat *o = target_object(t, ob->pid, ob->coid, ob->gen);
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

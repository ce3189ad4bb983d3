/* The top contributors: objects (and folded gone ones) by their samples since connected. */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include "viewer/layout.h"
#include "client/grow.h"

/* Objects gone with their process are folded per class and program (gui/client/objname.h);
 * each row names its class and process as the last scan listing it said. */
void draw_top_contributors(cairo_t *cr, struct view *v, const struct target *t, double x, double y,
			   double w, double h)
{
	static struct kov_top_item *items;
	static struct kov_top_row *rows;
	static size_t cap_items, cap_rows;
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
	if (!kov_grow((void **)&items, &cap_items, t->n_objs, sizeof *items) ||
	    !kov_grow((void **)&rows, &cap_rows, t->n_objs, sizeof *rows))
		return;
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
		if (ticks && ms_of(t, ticks) > 0)
			snprintf(wait, sizeof wait, ", lock wait %.1f ms", ms_of(t, ticks));
		snprintf(line, sizeof line, "%5.1f%%  %s · %s · %llu samples%s", 100 * share, cls,
			 proc, (unsigned long long)r->v[0], wait);
		draw_rgb(cr, 0x1F2328);
		text_fit(cr, x + 12 + w * 0.25, ry, w * 0.75 - 20, FONT_SMALL, line);
		size_t used = strlen(v->drawn_top);
		snprintf(v->drawn_top + used, sizeof v->drawn_top - used, "%s%s · %s", i ? " | " : "",
			 cls, proc);
	}
}

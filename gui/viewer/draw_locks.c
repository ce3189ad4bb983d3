/* The lock table (L): every contended lock of the target by measured wait. */
#include <stdio.h>
#include <string.h>
#include "viewer/layout.h"

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

/* Every lock of the kernel and the programs, spin and sleep, heaviest measured wait first:
 * lock_stat's figures summed since connected, and how many lighter ones are not shown. */
void draw_lock_table(cairo_t *cr, struct view *v, double x, double y, double w, double h)
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
		text_wrap(cr, x + 8, y + 26, w - 16, FONT_SMALL, t->locks_refused[0] ? t->locks_refused :
			  "no lock statistics yet: no lock was contended or counted, or the lock stream is "
			  "not running (the viewer starts it with --config)");
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

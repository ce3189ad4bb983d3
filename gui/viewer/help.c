/* The key-help overlay (?): every key of the main view and of the configuration utility, over
 * the window, so that nobody needs --help to find them. The same lines as options.c's usage,
 * laid out as a table. */
#include <stdio.h>
#include "viewer/layout.h"

static const char *const keys[][2] = {
	{ "↑ ↓ PgUp PgDn", "move in the object tree" },
	{ "→ ← Enter, click", "open or close a tree row" },
	{ "/", "filter the tree by class or process (flame graph: search)" },
	{ "Esc", "clear the filter; close the flame graph or this help" },
	{ "+ − wheel", "zoom time in the panes" },
	{ "[ ]  End", "pan back and forth in time; back to now" },
	{ "Tab  N", "next target; connect another target" },
	{ "L", "lock view or the selected object" },
	{ "M", "sort the tree by samples" },
	{ "G  W", "flame graph (target, process, object, off); the selected object's callers" },
	{ "I", "count the selected object's (or process's) method calls" },
	{ "K  F", "sleep-lock figures off/on; full lock counting on/off" },
	{ "X", "hot-swap the selected object to its peer class (controller)" },
	{ "C", "the PMU configuration utility" },
	{ "E", "export the window (PNG) and the panes' data (CSV)" },
	{ "?", "this help" },
	{ "Ctrl-Q", "quit" },
	{ "", "" },
	{ "In C:", "" },
	{ "↑ ↓  Space", "move; add or remove the event (on a heading: show or hide its events)" },
	{ "H  /", "show or hide the section under the cursor; search names and descriptions" },
	{ "T", "the event's sampling threshold (none, 10007, 100003, ...)" },
	{ "G  ← →  + −", "new group; switch groups; move 5% of the time to or from the next" },
	{ ", .  C", "halve or double the slice length; call chains on or off" },
	{ "S  Enter  Esc", "save kov-config.pmu; send and start; close" },
};

size_t help_lines(void)
{
	return sizeof keys / sizeof keys[0];
}

void help_draw(cairo_t *cr, const struct view *v)
{
	double w = v->width / v->scale, h = v->height / v->scale;
	double bw = w - 80 < 720 ? w - 80 : 720, bh = 52 + 17.0 * (double)help_lines();
	double x = (w - bw) / 2, y = (h - bh) / 2 > BAR_H ? (h - bh) / 2 : BAR_H;
	cairo_set_source_rgba(cr, 0.1, 0.1, 0.12, 0.35);
	cairo_paint(cr);
	draw_box(cr, x, y, bw, bh, 0xFFFFFF, 0x2F6FDE);
	cairo_save(cr);
	cairo_rectangle(cr, x, y, bw, bh);
	cairo_clip(cr);
	draw_rgb(cr, 0x1F2328);
	text_draw(cr, x + 14, y + 10, FONT_TITLE, "Keys  (? or Esc closes)");
	for (size_t i = 0; i < help_lines(); i++) {
		double ly = y + 38 + 17.0 * (double)i;
		draw_rgb(cr, 0x0B3D91);
		text_draw(cr, x + 14, ly, FONT_BOLD, keys[i][0]);
		draw_rgb(cr, 0x1F2328);
		text_fit(cr, x + 150, ly, bw - 164, FONT, keys[i][1]);
	}
	cairo_restore(cr);
}

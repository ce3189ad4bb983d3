/* Text through Pango on Cairo. Shaping a string is the expensive part of drawing a frame, and
 * most strings repeat from frame to frame, so layouts are cached by (font, text, wrap width).
 * A cached layout is re-bound to a Cairo context (pango_cairo_update_layout) only when what
 * shaping depends on differs from the last time, the transform's scale and the font options:
 * the call marks the layout's context changed every time, even for the same context (Pango
 * 1.50), so calling it on every use shaped every string of every frame again (a third of a
 * frame's instructions under callgrind at 10,000 objects). A layout's glyphs are drawn
 * through an alpha image kept beside it (viewer/text_mask.h). */
#include <stdlib.h>
#include <string.h>
#include <pango/pangocairo.h>
#include "viewer/viewer.h"
#include "viewer/text_mask.h"

#define CACHE 2048
#define ELLIPSIZE 0x40000000              /* in a wrap width: one line, cut with "…" */

/* What a layout's shaping depends on in a Cairo context: the transform without its
 * translation, and the context's and its surface's font options. */
struct binding {
	double xx, yx, xy, yy;
	unsigned long options;
};

struct entry {
	PangoLayout *layout;
	const char *font;                 /* the callers' font strings are constants */
	char *text;
	int wrap;                         /* wrap width in Pango units (| ELLIPSIZE), -1 none */
	uint64_t used;
	struct binding bound;             /* what it was shaped for */
	struct text_mask mask;            /* its glyphs, as last drawn */
};

static struct binding binding_of(cairo_t *cr)
{
	static cairo_font_options_t *o;
	if (!o)
		o = cairo_font_options_create();
	cairo_matrix_t m;
	cairo_get_matrix(cr, &m);
	struct binding b = { m.xx, m.yx, m.xy, m.yy, 0 };
	cairo_get_font_options(cr, o);
	b.options = cairo_font_options_hash(o);
	cairo_surface_get_font_options(cairo_get_target(cr), o);
	b.options = b.options * 31 + cairo_font_options_hash(o);
	return b;
}

static struct entry cache[CACHE];
static uint64_t tick;

static uint32_t hash(const char *font, const char *s, int wrap)
{
	uint32_t h = 2166136261u ^ (uint32_t)(uintptr_t)font ^ (uint32_t)wrap;
	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static struct entry *layout(cairo_t *cr, const char *font, const char *s, int wrap)
{
	uint32_t h = hash(font, s, wrap);
	struct entry *victim = NULL;
	for (int probe = 0; probe < 8; probe++) {
		struct entry *e = &cache[(h + (uint32_t)probe) % CACHE];
		if (e->layout && e->font == font && e->wrap == wrap && !strcmp(e->text, s)) {
			e->used = ++tick;
			struct binding b = binding_of(cr);
			if (memcmp(&b, &e->bound, sizeof b)) {
				pango_cairo_update_layout(cr, e->layout);
				e->bound = b;
				text_mask_free(&e->mask);
			}
			return e;
		}
		if (!victim || !e->layout || e->used < victim->used)
			victim = e;
	}
	if (victim->layout) {
		g_object_unref(victim->layout);
		free(victim->text);
		text_mask_free(&victim->mask);
	}
	PangoLayout *l = pango_cairo_create_layout(cr);
	PangoFontDescription *d = pango_font_description_from_string(font);
	pango_layout_set_font_description(l, d);
	pango_font_description_free(d);
	pango_layout_set_text(l, s, -1);
	if (wrap >= 0) {
		pango_layout_set_width(l, wrap & ~ELLIPSIZE);
		if (wrap & ELLIPSIZE)
			pango_layout_set_ellipsize(l, PANGO_ELLIPSIZE_END);
		else
			pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	}
	*victim = (struct entry){ l, font, strdup(s), wrap, ++tick, binding_of(cr), { 0 } };
	return victim;
}

double text_draw(cairo_t *cr, double x, double y, const char *font, const char *s)
{
	struct entry *e = layout(cr, font, s, -1);
	int w, h;
	pango_layout_get_pixel_size(e->layout, &w, &h);
	text_mask_show(cr, &e->mask, e->layout, x, y);
	return w;
}

double text_width(cairo_t *cr, const char *font, const char *s)
{
	int w, h;
	pango_layout_get_pixel_size(layout(cr, font, s, -1)->layout, &w, &h);
	return w;
}

double text_wrap(cairo_t *cr, double x, double y, double width, const char *font, const char *s)
{
	struct entry *e = layout(cr, font, s, (int)(width * PANGO_SCALE));
	int w, h;
	pango_layout_get_pixel_size(e->layout, &w, &h);
	text_mask_show(cr, &e->mask, e->layout, x, y);
	return h;
}

double text_fit(cairo_t *cr, double x, double y, double width, const char *font, const char *s)
{
	if (width < 1)
		return 0;
	struct entry *e = layout(cr, font, s, (int)(width * PANGO_SCALE) | ELLIPSIZE);
	int w, h;
	pango_layout_get_pixel_size(e->layout, &w, &h);
	text_mask_show(cr, &e->mask, e->layout, x, y);
	return w;
}

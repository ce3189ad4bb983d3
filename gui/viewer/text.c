/* Text through Pango on Cairo: one layout per call (the views draw a few hundred strings a
 * frame at most, only what is visible). */
#include <pango/pangocairo.h>
#include "viewer/viewer.h"

static PangoLayout *layout(cairo_t *cr, const char *font, const char *s)
{
	PangoLayout *l = pango_cairo_create_layout(cr);
	PangoFontDescription *d = pango_font_description_from_string(font);
	pango_layout_set_font_description(l, d);
	pango_font_description_free(d);
	pango_layout_set_text(l, s, -1);
	return l;
}

double text_draw(cairo_t *cr, double x, double y, const char *font, const char *s)
{
	PangoLayout *l = layout(cr, font, s);
	int w, h;
	pango_layout_get_pixel_size(l, &w, &h);
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, l);
	g_object_unref(l);
	return w;
}

double text_width(cairo_t *cr, const char *font, const char *s)
{
	PangoLayout *l = layout(cr, font, s);
	int w, h;
	pango_layout_get_pixel_size(l, &w, &h);
	g_object_unref(l);
	return w;
}

double text_wrap(cairo_t *cr, double x, double y, double width, const char *font, const char *s)
{
	PangoLayout *l = layout(cr, font, s);
	pango_layout_set_width(l, (int)(width * PANGO_SCALE));
	pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
	int w, h;
	pango_layout_get_pixel_size(l, &w, &h);
	cairo_move_to(cr, x, y);
	pango_cairo_show_layout(cr, l);
	g_object_unref(l);
	return h;
}

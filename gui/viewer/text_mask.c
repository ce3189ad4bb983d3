/* A string's glyphs as an alpha image (viewer/text_mask.h). */
#include <math.h>
#include "viewer/text_mask.h"

enum { MASK_PAD = 2 };   /* pixels around the ink: antialiasing's fringe */

static void make(struct text_mask *m, PangoLayout *l, double s, double fx, double fy)
{
	text_mask_free(m);
	PangoRectangle ink;
	pango_layout_get_pixel_extents(l, &ink, NULL);
	m->ox = (int)floor(ink.x * s) - MASK_PAD;
	m->oy = (int)floor(ink.y * s) - MASK_PAD;
	int w = (int)ceil((ink.x + ink.width) * s) + MASK_PAD - m->ox + 1;
	int h = (int)ceil((ink.y + ink.height) * s) + MASK_PAD - m->oy + 1;
	m->img = cairo_image_surface_create(CAIRO_FORMAT_A8, w > 0 ? w : 1, h > 0 ? h : 1);
	cairo_t *c = cairo_create(m->img);
	cairo_translate(c, fx - m->ox, fy - m->oy);
	cairo_scale(c, s, s);
	cairo_move_to(c, 0, 0);
	pango_cairo_show_layout(c, l);
	cairo_destroy(c);
	m->fx = fx;
	m->fy = fy;
	m->scale = s;
}

void text_mask_show(cairo_t *cr, struct text_mask *m, PangoLayout *l, double x, double y)
{
	cairo_matrix_t t;
	cairo_get_matrix(cr, &t);
	if (t.xy != 0 || t.yx != 0 || t.xx != t.yy || t.xx <= 0 ||
	    cairo_surface_get_type(cairo_get_target(cr)) != CAIRO_SURFACE_TYPE_IMAGE) {
		cairo_move_to(cr, x, y);   /* turned or skewed, or not into pixels: as it is */
		pango_cairo_show_layout(cr, l);
		return;
	}
	cairo_user_to_device(cr, &x, &y);
	double ix = floor(x), iy = floor(y);
	if (!m->img || m->fx != x - ix || m->fy != y - iy || m->scale != t.xx)
		make(m, l, t.xx, x - ix, y - iy);
	cairo_save(cr);
	cairo_identity_matrix(cr);
	cairo_mask_surface(cr, m->img, ix + m->ox, iy + m->oy);
	cairo_restore(cr);
}

void text_mask_free(struct text_mask *m)
{
	if (m->img)
		cairo_surface_destroy(m->img);
	m->img = NULL;
}

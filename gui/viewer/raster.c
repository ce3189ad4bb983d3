/* Boxes into an image surface's pixels (viewer/raster.h). */
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "viewer/raster.h"

bool raster_begin(struct raster *r, cairo_t *cr)
{
	r->s = cairo_get_target(cr);
	if (cairo_surface_get_type(r->s) != CAIRO_SURFACE_TYPE_IMAGE ||
	    cairo_image_surface_get_format(r->s) != CAIRO_FORMAT_ARGB32)
		return false;
	cairo_surface_flush(r->s);
	r->data = cairo_image_surface_get_data(r->s);
	r->w = cairo_image_surface_get_width(r->s);
	r->h = cairo_image_surface_get_height(r->s);
	r->stride = cairo_image_surface_get_stride(r->s);
	double x0 = 0, y0 = 0, x1 = 1, y1 = 1;
	cairo_user_to_device(cr, &x0, &y0);
	cairo_user_to_device(cr, &x1, &y1);
	r->sx = x1 - x0;
	r->sy = y1 - y0;
	r->dx = x0;
	r->dy = y0;
	return r->data != NULL;
}

void raster_box(struct raster *r, double x, double y, double w, double h, unsigned rgb,
		double alpha)
{
	int x0 = (int)floor(x * r->sx + r->dx), y0 = (int)floor(y * r->sy + r->dy);
	int x1 = (int)ceil((x + w) * r->sx + r->dx), y1 = (int)ceil((y + h) * r->sy + r->dy);
	x0 = x0 < 0 ? 0 : x0;
	y0 = y0 < 0 ? 0 : y0;
	x1 = x1 > r->w ? r->w : x1;
	y1 = y1 > r->h ? r->h : y1;
	/* Premultiplied ARGB: out = src + dst * (1 - src alpha). */
	uint32_t a = (uint32_t)lround(alpha * 255), keep = 255 - a;
	uint32_t sr = ((rgb >> 16) & 255) * a / 255, sg = ((rgb >> 8) & 255) * a / 255,
		 sb = (rgb & 255) * a / 255;
	if (a == 255) {   /* opaque: the blend below would give the colour itself */
		uint32_t px = 0xFF000000u | (rgb & 0xFFFFFFu);
		for (int py = y0; py < y1; py++) {
			uint32_t *row = (uint32_t *)(r->data + (size_t)py * (size_t)r->stride);
			for (int x = x0; x < x1; x++)
				row[x] = px;
		}
		return;
	}
	for (int py = y0; py < y1; py++) {
		uint32_t *row = (uint32_t *)(r->data + (size_t)py * (size_t)r->stride);
		for (int px = x0; px < x1; px++) {
			uint32_t d = row[px];
			uint32_t da = d >> 24, dr = (d >> 16) & 255, dg = (d >> 8) & 255, db = d & 255;
			row[px] = (a + da * keep / 255) << 24 | (sr + dr * keep / 255) << 16 |
				  (sg + dg * keep / 255) << 8 | (sb + db * keep / 255);
		}
	}
}

void raster_end(struct raster *r)
{
	cairo_surface_mark_dirty(r->s);
}

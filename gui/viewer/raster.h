/* Boxes written straight into an image surface's pixels. A chart's band and line are a few
 * thousand one-column boxes; through Cairo each box is a path of its own (about a thousand
 * instructions to build, under callgrind) before it is filled, while blending the pixels
 * of a box is a few instructions each. */
#ifndef KOV_VIEWER_RASTER_H
#define KOV_VIEWER_RASTER_H

#include <stdbool.h>
#include <cairo.h>

struct raster {
	cairo_surface_t *s;
	unsigned char *data;
	int w, h, stride;
	double sx, sy, dx, dy;            /* user space to pixels: x * sx + dx */
};

/* Starts writing into cr's target (an ARGB32 image surface) in cr's user space (scale and
 * translation only); false when the target is not such a surface. */
bool raster_begin(struct raster *r, cairo_t *cr);
/* Blends colour 0xRRGGBB at alpha over the box (x, y, w, h) in user space, widened to whole
 * pixels, clipped to the surface. */
void raster_box(struct raster *r, double x, double y, double w, double h, unsigned rgb,
		double alpha);
/* Tells Cairo the pixels changed. */
void raster_end(struct raster *r);

#endif

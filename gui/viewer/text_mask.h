/* A laid-out string's glyphs kept as an alpha image and drawn with the source colour: Cairo
 * composites a string glyph by glyph, looking each up in its cache, on every draw (a third of
 * --bench's instructions for about 110 strings a frame), while one alpha image is blended
 * in a few instructions a pixel. The pixels are the same: the image holds the glyphs at the
 * same fraction of a pixel as the string's place, so Cairo rounds their positions alike, and
 * it lays them into one alpha image itself when glyphs overlap. */
#ifndef KOV_VIEWER_TEXT_MASK_H
#define KOV_VIEWER_TEXT_MASK_H

#include <pango/pangocairo.h>

struct text_mask {
	cairo_surface_t *img;             /* A8, or NULL before the first draw */
	double fx, fy;                    /* the fraction of a pixel it was drawn at */
	double scale;                     /* the device's pixels per point then */
	int ox, oy;                       /* its top left from the string's place, pixels */
};

/* Draws l at (x, y) in cr's user space with cr's source, as pango_cairo_show_layout does,
 * through m (made again when the place's fraction of a pixel or the scale changed). */
void text_mask_show(cairo_t *cr, struct text_mask *m, PangoLayout *l, double x, double y);
void text_mask_free(struct text_mask *m);

#endif

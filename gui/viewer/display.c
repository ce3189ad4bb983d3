/* The window and putting frames on it (viewer/app.h's display_*): each frame is drawn by
 * Cairo into an image surface at the renderer's output size (so HiDPI displays get
 * full-resolution text) and uploaded to a streaming texture. Drawing straight into the
 * window's own surface, sending only the tiles that changed, was tried: under Xvfb on a busy
 * 2-core host it put frames up no faster (present about 10 ms either way, replaying a jbb
 * recording: the X server's turn on a CPU, not the bytes, is what the present waits for). */
#include <stdio.h>
#include "viewer/app.h"

bool display_open(struct display *d, int w, int h)
{
	*d = (struct display){ 0 };
	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "kov-viewer: no display: %s (connect with build/host/kovctl instead)\n",
			SDL_GetError());
		return false;
	}
	d->win = SDL_CreateWindow("KOV viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, w, h,
				  SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
	d->ren = d->win ? SDL_CreateRenderer(d->win, -1, 0) : NULL;
	if (!d->ren) {
		fprintf(stderr, "kov-viewer: cannot open a window: %s\n", SDL_GetError());
		return false;
	}
	return true;
}

cairo_surface_t *display_surface(struct display *d, int *w, int *h, double *scale)
{
	int ww, wh, pw, ph;
	SDL_GetWindowSize(d->win, &ww, &wh);
	SDL_GetRendererOutputSize(d->ren, &pw, &ph);
	if (!d->surf || pw != d->w || ph != d->h) {
		if (d->surf)
			cairo_surface_destroy(d->surf);
		if (d->tex)
			SDL_DestroyTexture(d->tex);
		d->surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
		d->tex = SDL_CreateTexture(d->ren, SDL_PIXELFORMAT_ARGB8888,
					   SDL_TEXTUREACCESS_STREAMING, pw, ph);
		d->w = pw;
		d->h = ph;
	}
	*w = pw;
	*h = ph;
	*scale = ww > 0 ? (double)pw / ww : 1;
	return d->surf;
}

void display_show(struct display *d)
{
	cairo_surface_flush(d->surf);
	SDL_UpdateTexture(d->tex, NULL, cairo_image_surface_get_data(d->surf),
			  cairo_image_surface_get_stride(d->surf));
	SDL_RenderClear(d->ren);
	SDL_RenderCopy(d->ren, d->tex, NULL, NULL);
	SDL_RenderPresent(d->ren);
}

void display_close(struct display *d)
{
	if (d->surf)
		cairo_surface_destroy(d->surf);
	d->surf = NULL;
	SDL_Quit();
}

/* kov-viewer the program: what main.c (the window and the frame loop) shares with the files it
 * is split into: options.c (the command line), input.c (keys, text, the pointer), display.c
 * (the window and putting frames on it) and
 * screenshot.c (--screenshot's image and report, E's export). The model and the drawing they
 * work on are viewer.h's. */
#ifndef KOV_VIEWER_APP_H
#define KOV_VIEWER_APP_H

#include <stdbool.h>
#include <SDL.h>
#include "viewer/viewer.h"

/* ---- options.c ------------------------------------------------------------------------- */
struct options {
	const char *hosts[MAX_TARGETS];
	char ports[MAX_TARGETS][8];
	char host_buf[MAX_TARGETS][256];
	size_t n;
	const char *token, *config, *screenshot, *select, *record, *replay;
	const char *config_keys;          /* opens the utility and types these once connected */
	const char *csv;                  /* with --screenshot: the series as CSV too */
	double hover_x, hover_y;
	double click_x, click_y;           /* clicked once, just before the screenshot */
	bool click;
	const char *view;
	const char *keys;                 /* typed into the main view once an object is selected */
	bool sort_metric;
	bool locks;
	double after;
	int w, h;                         /* the window's size at first (--size) */
	int bench_frames;                 /* --bench-frames N: time N frames once samples arrive */
	int resize_w, resize_h;           /* --resize: the window made this size after its first
	                                     frame, as a person would (tests) */
};
/* The command line into o: 0, or 2 after saying what is wrong (a usage error); --help prints
 * the usage and exits. */
int options_parse(int argc, char **argv, struct options *o);

/* ---- input.c --------------------------------------------------------------------------- */
/* One SDL event (keys, text, clicks, pointer, wheel); *quit set on Ctrl-Q or the window
 * closing. */
void input_event(struct view *v, const SDL_Event *e, bool *quit);
/* A key pressed in the main view (or typed by --keys). */
void input_key(struct view *v, SDL_Keycode k, SDL_Keymod mod, bool *quit);
/* Typed text: into the flame graph's search, the tree's filter or the connect line, whichever
 * is being typed; false when none is. */
bool input_text(struct view *v, const char *text);
/* A left click at (x, y) points: a tree row selects (a selected one opens), a flame box zooms. */
void input_click(struct view *v, double x, double y);

/* ---- display.c: the window, and frames put on it ------------------------------------ */
struct display {
	SDL_Window *win;
	SDL_Renderer *ren;
	SDL_Texture *tex;                 /* the frame, uploaded */
	cairo_surface_t *surf;            /* the frame, w x h pixels */
	int w, h;
};
/* Opens a w x h window (points); false after saying why. */
bool display_open(struct display *d, int w, int h);
/* The surface to draw the next frame on, at the window's size in pixels (*w, *h; *scale
 * pixels per point), made again when that changed. */
cairo_surface_t *display_surface(struct display *d, int *w, int *h, double *scale);
/* Puts the frame drawn on the window. */
void display_show(struct display *d);
void display_close(struct display *d);

/* ---- screenshot.c ---------------------------------------------------------------------- */
/* The current target's pane series as CSV: pane, seconds before now, value. */
bool write_csv(const struct view *v, const char *file, uint64_t now);
/* E: the last frame (v->frame) as PNG and the series as CSV, named by the time. */
void export_view(const struct view *v, uint64_t now);
/* --screenshot: writes the frame as PNG (and the CSV asked for), then reports on stdout what it
 * shows (the tests read it); false when a file could not be written. */
bool screenshot_write(const struct view *v, cairo_surface_t *frame, const char *png,
		      const char *csv, SDL_Window *win, uint64_t now);

#endif

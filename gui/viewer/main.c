/* kov-viewer: the SDL2 window and the frame loop: each frame polls the targets, takes the
 * input, builds the tree, draws and presents; --screenshot writes a frame and exits. The
 * command line is options.c's, the input input.c's, the screenshot screenshot.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <SDL.h>
#include "viewer/app.h"
#include "client/pmuconf.h"

/* The program's state between frames. */
struct app {
	struct options o;
	struct target targets[MAX_TARGETS];
	bool configured[MAX_TARGETS];     /* --config sent (or not needed) */
	struct view v;
	struct display d;
	cairo_surface_t *surf;            /* the display's, for this frame */
	char title[400];
	uint64_t *weight;                 /* per scan object: its samples, to sort the tree (M) */
	size_t weight_n;
	uint64_t weight_epoch, weight_scan;   /* when and for which scan the weights were taken */
	bool quit;
};

/* Sends the configuration file and starts monitoring, once, where the viewer controls a
 * target on which nothing is configured. */
static void configure(struct target *t, const char *file, bool *done)
{
	if (*done || t->state != CONN_UP || kov_client_target(t->c)->role != PROTO_ROLE_CONTROLLER)
		return;
	*done = true;
	if (t->st.config_id && t->st.streams) {
		/* Something runs already: watch it, with the lock statistics the panes need. */
		if (!(t->st.streams & PROTO_STREAM_LOCKS))
			target_start(t, t->st.streams | PROTO_STREAM_LOCKS);
		return;
	}
	FILE *f = fopen(file, "rb");
	static char text[65536];
	size_t len = f ? fread(text, 1, sizeof text, f) : 0;
	if (f)
		fclose(f);
	static struct kov_pmuconf conf;
	char err[300];
	if (!f || kov_pmuconf_parse(text, len, &conf, err, sizeof err) < 0) {
		fprintf(stderr, "kov-viewer: %s: %s\n", file, f ? err : "cannot read it");
		return;
	}
	static uint8_t frame[PROTO_MAX_FRAME];
	struct kov_answer a;
	int n = proto_encode_pmu_config(frame, sizeof frame, 0, 0, &conf.cfg);
	if (n < 0 || kov_client_call(t->c, frame, (size_t)n, &a) < 0) {
		fprintf(stderr, "kov-viewer: %s:%s refused the configuration: %s\n", t->host, t->port,
			kov_client_error(t->c));
		return;
	}
	target_take_config(t, &a.frames[a.count - 1].f);
	kov_answer_free(&a);
	target_start(t, PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS | PROTO_STREAM_LOCKS);
}

/* The targets of the command line, or the recording replayed: false after saying why not. */
static bool open_targets(struct app *a)
{
	struct options *o = &a->o;
	for (size_t i = 0; i < o->n; i++)
		target_init(&a->targets[i], o->hosts[i], o->ports[i], o->token);
	if (o->record && !target_record(&a->targets[0], o->record)) {
		fprintf(stderr, "kov-viewer: cannot write %s\n", o->record);
		return false;
	}
	if (o->replay) {
		char why[300];
		const char *base = strrchr(o->replay, '/');
		target_init(&a->targets[0], base ? base + 1 : o->replay, "", NULL);
		if (!target_open_replay(&a->targets[0], o->replay, why, sizeof why)) {
			fprintf(stderr, "kov-viewer: %s\n", why);
			return false;
		}
		o->n = 1;
	}
	a->v = (struct view){ .targets = a->targets, .n_targets = o->n, .window_s = 60, .scale = 1,
			      .show_locks = o->locks, .mouse_x = -1, .mouse_y = -1,
			      .sort_by_metric = o->sort_metric };
	if (o->view && !strcmp(o->view, "flame"))
		flame_cycle(&a->v);
	else if (o->view && !strcmp(o->view, "callers"))
		flame_toggle_callers(&a->v);
	return true;
}

/* The frame's surface at the window's size in pixels (HiDPI: its scale). */
static void fit_surface(struct app *a)
{
	struct view *v = &a->v;
	a->surf = display_surface(&a->d, &v->width, &v->height, &v->scale);
	v->frame = a->surf;
}

/* --keys and --config-keys, typed once the current target is far enough along. */
static void scripted_keys(struct app *a, struct target *t)
{
	struct options *o = &a->o;
	if (o->keys && !o->select && t->have_scan && (t->state == CONN_UP || t->state == CONN_REPLAY)) {
		for (const char *k = o->keys; *k; k++) {   /* printable keys while typing are text */
			char text[2] = { *k, 0 };
			if (*k < ' ' || !input_text(&a->v, text))
				input_key(&a->v, (SDL_Keycode)*k, 0, &a->quit);
		}
		o->keys = NULL;
	}
	if (o->config_keys && t->cat && t->state == CONN_UP) {
		config_open(&a->v.config, t);
		for (const char *k = o->config_keys; *k; k++)
			config_key(&a->v.config, t, *k == 'E' ? '\r' : *k == 'X' ? 27 : *k);
		o->config_keys = NULL;
	}
}

/* The tree of the current target's last scan, sorted by samples under M, and --select's row. */
static void build_tree(struct app *a, const struct target *t)
{
	struct view *v = &a->v;
	/* Sorted by samples, the order moves as they arrive: the weights are taken and the tree
	 * built again four times a second (a weight is a search of the model per object). */
	uint64_t epoch = v->sort_by_metric ? 1 + kov_now_ns() / 250000000ull : 0;
	if (v->sort_by_metric && t->have_scan &&
	    (epoch != a->weight_epoch || t->scan_no != a->weight_scan)) {
		a->weight_epoch = epoch;
		a->weight_scan = t->scan_no;
		if (a->weight_n < t->scan.n_objects) {
			free(a->weight);
			a->weight = calloc(t->scan.n_objects, sizeof *a->weight);
			a->weight_n = a->weight ? t->scan.n_objects : 0;
		}
		for (size_t i = 0; a->weight && i < t->scan.n_objects; i++) {
			const struct kov_scan_object *ob = &t->scan.objects[i];
			const struct obj_stat *os = target_object(t, ob->pid, ob->coid, ob->gen);
			a->weight[i] = os ? os->samples : 0;
		}
	}
	tree_update(&v->tree, t->have_scan ? &t->scan : NULL, t->scan_no,
		    v->sort_by_metric && a->weight_n >= (t->have_scan ? t->scan.n_objects : 0) ?
		    a->weight : NULL, epoch);
	for (size_t i = 0; a->o.select && t->have_scan && i < v->tree.n; i++)
		if (v->tree.rows[i].kind == ROW_OBJECT &&
		    !strcmp(t->scan.objects[v->tree.rows[i].obj].class_name, a->o.select)) {
			v->tree.selected = i;
			a->o.select = NULL;
		}
}

/* Draws the view into the surface and puts it in the window. */
static void draw_frame(struct app *a, uint64_t now)
{
	struct view *v = &a->v;
	if (a->o.hover_x > 0) {
		v->mouse_x = a->o.hover_x;
		v->mouse_y = a->o.hover_y;
	}
	v->hover_shown = false;
	cairo_t *cr = cairo_create(a->surf);
	cairo_scale(cr, v->scale, v->scale);
	draw_view(cr, v, now);
	cairo_destroy(cr);
	display_show(&a->d);
}

/* One frame: the targets polled (and configured), the input taken, the tree built, drawn. */
static void frame(struct app *a, uint64_t now)
{
	struct view *v = &a->v;
	phase_begin(&v->phases);
	for (size_t i = 0; i < v->n_targets; i++) {
		target_poll(&a->targets[i], now);
		if (a->o.config && a->o.token)
			configure(&a->targets[i], a->o.config, &a->configured[i]);
	}
	SDL_Event e;
	while (SDL_PollEvent(&e))
		input_event(v, &e, &a->quit);
	fit_surface(a);
	struct target *t = &a->targets[v->current];
	/* The window's title names the current target and how its CPUs run. */
	char want[sizeof a->title];
	target_window_title(t, want, sizeof want);
	if (strcmp(want, a->title)) {
		memcpy(a->title, want, sizeof a->title);
		SDL_SetWindowTitle(a->d.win, a->title);
	}
	scripted_keys(a, t);
	phase_mark(&v->phases, PH_POLL);
	build_tree(a, t);
	phase_mark(&v->phases, PH_TREE);
	draw_frame(a, now);
	phase_mark(&v->phases, PH_PRESENT);
}

/* --bench-frames: frame times once samples arrive from the current target and 30 frames
 * more have passed (the first answers, symbol tables and scans, are the connection's set-up,
 * not its steady state); a frame from its start to presenting it, the wait between frames
 * left out. False until it has them all. */
static bool bench_frame(struct app *a, uint64_t start, uint64_t cpu_start)
{
	static double *ms, *cpu;
	static struct phase_clock *ph;
	static int n, warm;
	static uint64_t samples_at_start;
	const struct target *t = &a->targets[a->v.current];
	if (!t->samples_total || warm++ < 30)
		return false;
	if (!ms) {
		ms = calloc((size_t)a->o.bench_frames, sizeof *ms);
		cpu = calloc((size_t)a->o.bench_frames, sizeof *cpu);
		ph = calloc((size_t)a->o.bench_frames, sizeof *ph);
		samples_at_start = t->samples_total;
		if (!ms || !cpu || !ph)
			return true;
	}
	ms[n] = (double)(kov_now_ns() - start) / 1e6;
	cpu[n] = (double)(bench_thread_cpu_ns() - cpu_start) / 1e6;
	ph[n] = a->v.phases;
	if (++n < a->o.bench_frames)
		return false;
	bench_report("viewer-live", ms, cpu, ph, n);
	printf("viewer-live: objects=%zu tree_rows=%zu samples_during=%llu\n", t->scan.n_objects,
	       a->v.tree.n, (unsigned long long)(t->samples_total - samples_at_start));
	return true;
}

/* How long --select and --keys may wait for their object before the screenshot is taken anyway. */
#define SCRIPT_WAIT_NS 60000000000ull

/* Frames until quit, or until --screenshot's time (--click's click first, shot the frame
 * after): 0, or 1 when the screenshot could not be written. */
static int run(struct app *a)
{
	struct options *o = &a->o;
	uint64_t start = kov_now_ns();
	bool scripted = o->select || o->keys || o->config_keys;
	while (!a->quit) {
		uint64_t now = kov_now_ns(), cpu_now = o->bench_frames ? bench_thread_cpu_ns() : 0;
		frame(a, now);
		/* --after counts from when the scripted input is done, so a slow host (a late scan)
		 * cannot shoot the screen before --select and --keys had anything to act on. */
		if (scripted && !o->select && !o->keys && !o->config_keys) {
			scripted = false;
			start = now;
		} else if (scripted && now - start >= SCRIPT_WAIT_NS) {
			fprintf(stderr, "kov-viewer: %s%s not done after %llu s; the screenshot shows why\n",
				o->select ? "--select " : "--keys", o->select ? o->select : "",
				SCRIPT_WAIT_NS / 1000000000ull);
			scripted = false;
			o->after = 0;
		}
		if (o->bench_frames && bench_frame(a, now, cpu_now))
			return 0;
		if (o->resize_w) {   /* --resize: as a person would, after the first frame */
			SDL_SetWindowSize(a->d.win, o->resize_w, o->resize_h);
			o->resize_w = 0;
		}
		bool due = o->screenshot && !scripted && now - start >= (uint64_t)(o->after * 1e9);
		if (due && o->click) {
			input_click(&a->v, o->click_x, o->click_y);   /* on what was just drawn */
			o->click = false;
			continue;
		}
		if (due)
			return screenshot_write(&a->v, a->surf, o->screenshot, o->csv, a->d.win, now) ? 0 : -1;
		SDL_Delay(30);
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--bench"))   /* [objects [history seconds]] */
		return viewer_bench(argc > 2 ? atoi(argv[2]) : 10000, argc > 3 ? atoi(argv[3]) : 600,
				    200, 1280, 800);
	static struct app a;
	int rc = options_parse(argc, argv, &a.o);
	if (rc)
		return rc;
	if (!open_targets(&a) || !display_open(&a.d, a.o.w, a.o.h))
		return 1;
	if (run(&a) < 0)
		return 1;
	for (size_t i = 0; i < a.v.n_targets; i++)
		target_free(&a.targets[i]);
	tree_free(&a.v.tree);
	flame_free(&a.v.flame);
	display_close(&a.d);
	return 0;
}

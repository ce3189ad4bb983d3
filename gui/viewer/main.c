/* kov-viewer: the SDL2 window, input, the frame loop and screenshots.
 *   kov-viewer --target HOST:PORT [--target ...] [--token T] [--config FILE]
 *              [--size WxH] [--screenshot FILE.png --after SECONDS] */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <SDL.h>
#include "viewer/viewer.h"
#include "client/pmuconf.h"

static const char usage[] =
	"usage: kov-viewer --target HOST:PORT [--target HOST:PORT ...] [--token T] [--config FILE]\n"
	"                  [--record FILE] [--size WxH] [--select CLASS]\n"
	"                  [--view locks|object|flame|callers] [--config-keys KEYS] [--keys KEYS]\n"
	"                  [--csv FILE] [--hover X,Y] [--click X,Y]\n"
	"                  [--screenshot FILE.png --after SECONDS]\n"
	"       kov-viewer --replay FILE [...]\n"
	"       kov-viewer --bench    (frame time: 10,000 objects, 5 panes of 10 minutes)\n"
	"\n"
	"Shows KOV targets: the Kernel Object Tree coloured by samples, metric panes over time\n"
	"(IPC, measured spin-lock wait, MMU misses, branch mispredictions, lock acquisition\n"
	"success; what the target cannot count says why), the top contributing objects, the\n"
	"selected object's locks and hot spots, every contended lock (L), and a flame graph of the\n"
	"samples' call stacks with the selected object's callers (G, W). With --token and --config FILE (kovctl's configuration\n"
	"format) it configures and starts monitoring on targets where nothing runs yet. --select\n"
	"CLASS selects the first object of that class once it is in the tree. --record FILE writes\n"
	"what the target sends (kovctl's recording format); --replay FILE plays a recording back\n"
	"(kovctl record's or the viewer's) with every view working.\n"
	"keys: arrows move and open, / filter, Esc clear, Tab next target, + - zoom time,\n"
	"      L locks or selected object, C the PMU configuration utility, E export the window\n"
	"      (PNG) and the panes' data (CSV), I count the selected object's (or process's)\n"
	"      method calls (again: stop), M sort the tree by samples, [ ] pan back and forth in time (End: now),\n"
	"      N connect another target, K sleep-lock figures of the selected process off/on,\n"
	"      F full lock counting (every acquisition and hold) of the selected object's or\n"
	"      process's locks on/off (the acquisition pane's software counts need it),\n"
	"      G flame graph: whole target, then selected process, selected object, off;\n"
	"      in it: click a box to zoom, a box above or Esc to zoom out, / search, W the\n"
	"      selected object's callers, Ctrl-Q quit\n"
	"--view flame|callers opens the flame graph (callers: of the --select'ed object);\n"
	"--keys types keys once an object is selected, --hover and --click put the pointer\n"
	"and click (just before the screenshot) at X,Y points, for tests.\n";

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
	int w, h;
};

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "kov-viewer: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

static int parse(int argc, char **argv, struct options *o)
{
	memset(o, 0, sizeof *o);
	o->w = 1280;
	o->h = 800;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			exit(0);
		}
		if (!val)
			return usage_error("option needs a value (or is unknown; try --help)", a);
		i++;
		if (!strcmp(a, "--target")) {
			const char *colon = strrchr(val, ':');
			char *end;
			errno = 0;
			long port = colon ? strtol(colon + 1, &end, 10) : 0;
			if (!colon || colon == val || errno || *end || port < 1 || port > 65535 ||
			    (size_t)(colon - val) >= sizeof o->host_buf[0])
				return usage_error("--target needs HOST:PORT", val);
			if (o->n == MAX_TARGETS)
				return usage_error("at most 4 targets", NULL);
			memcpy(o->host_buf[o->n], val, (size_t)(colon - val));
			o->host_buf[o->n][colon - val] = 0;
			o->hosts[o->n] = o->host_buf[o->n];
			snprintf(o->ports[o->n], sizeof o->ports[0], "%ld", port);
			o->n++;
		} else if (!strcmp(a, "--token")) {
			o->token = val;
		} else if (!strcmp(a, "--record")) {
			o->record = val;
		} else if (!strcmp(a, "--replay")) {
			o->replay = val;
		} else if (!strcmp(a, "--keys")) {
			o->keys = val;
		} else if (!strcmp(a, "--sort")) {
			if (strcmp(val, "metric") && strcmp(val, "name"))
				return usage_error("--sort: metric or name", val);
			o->sort_metric = !strcmp(val, "metric");
		} else if (!strcmp(a, "--hover")) {   /* a pointer position, for tests */
			if (sscanf(val, "%lf,%lf", &o->hover_x, &o->hover_y) != 2)
				return usage_error("--hover needs X,Y", val);
		} else if (!strcmp(a, "--click")) {
			if (sscanf(val, "%lf,%lf", &o->click_x, &o->click_y) != 2)
				return usage_error("--click needs X,Y", val);
			o->click = true;
		} else if (!strcmp(a, "--csv")) {
			o->csv = val;
		} else if (!strcmp(a, "--config-keys")) {
			o->config_keys = val;
		} else if (!strcmp(a, "--view")) {
			if (strcmp(val, "locks") && strcmp(val, "object") && strcmp(val, "flame") &&
			    strcmp(val, "callers"))
				return usage_error("--view: locks, object, flame or callers", val);
			o->locks = !strcmp(val, "locks");
			o->view = val;
		} else if (!strcmp(a, "--select")) {
			o->select = val;
		} else if (!strcmp(a, "--config")) {
			o->config = val;
		} else if (!strcmp(a, "--screenshot")) {
			o->screenshot = val;
		} else if (!strcmp(a, "--after")) {
			char *end;
			o->after = strtod(val, &end);
			if (*end || !(o->after > 0) || o->after > 3600)
				return usage_error("--after needs seconds (0 < S <= 3600)", val);
		} else if (!strcmp(a, "--size")) {
			if (sscanf(val, "%dx%d", &o->w, &o->h) != 2 || o->w < 640 || o->h < 400 ||
			    o->w > 8192 || o->h > 8192)
				return usage_error("--size needs WxH, at least 640x400", val);
		} else {
			return usage_error("unknown option (try --help)", a);
		}
	}
	if (!o->n && !o->replay)
		return usage_error("--target HOST:PORT or --replay FILE is needed", NULL);
	if (o->replay && (o->n || o->record))
		return usage_error("--replay shows a recording: no --target or --record with it", NULL);
	if (o->record && o->n != 1)
		return usage_error("--record records one target", NULL);
	if (!!o->screenshot != (o->after > 0))
		return usage_error("--screenshot and --after go together", NULL);
	return 0;
}

/* Sends the configuration file and starts monitoring, once, where the viewer controls a
 * target on which nothing is configured. */
static void configure(struct target *t, const char *file, bool *done)
{
	if (*done || t->state != CONN_UP || kov_client_target(t->c)->role != PROTO_ROLE_CONTROLLER)
		return;
	*done = true;
	uint8_t buf[64];
	struct kov_answer ans;
	if (t->st.config_id && t->st.streams) {
		/* Something runs already: watch it, with the lock statistics the panes need. */
		struct proto_start s = { t->st.streams | PROTO_STREAM_LOCKS, 0 };
		int n = proto_encode_start(buf, sizeof buf, 0, 0, &s);
		if (!(t->st.streams & PROTO_STREAM_LOCKS) && n > 0 &&
		    kov_client_call(t->c, buf, (size_t)n, &ans) == 0)
			kov_answer_free(&ans);
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
	struct proto_start s = { PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS | PROTO_STREAM_LOCKS, 0 };
	n = proto_encode_start(frame, sizeof frame, 0, 0, &s);
	if (kov_client_call(t->c, frame, (size_t)n, &a) == 0)
		kov_answer_free(&a);
}

/* The current target's pane series as CSV: pane, seconds before now, value. */
static bool write_csv(const struct view *v, const char *file, uint64_t now)
{
	FILE *f = fopen(file, "w");
	if (!f)
		return false;
	const struct target *t = &v->targets[v->current];
	fprintf(f, "pane,seconds_ago,value\n");
	for (int p = 0; p < PANES; p++) {
		uint64_t at;
		double val;
		for (size_t i = 0; t->pane[p].available && series_at(&t->pane[p].s, i, &at, &val); i++)
			fprintf(f, "\"%s\",%.3f,%.6g\n", t->pane[p].title,
				at >= now ? 0.0 : (double)(now - at) / 1e9, val);
	}
	return fclose(f) == 0;
}

static cairo_surface_t *frame_surface;

/* E: the window as PNG and the series as CSV, named by the time. */
static void export_view(const struct view *v, uint64_t now)
{
	char png[64], csv[64];
	long stamp = (long)time(NULL);
	snprintf(png, sizeof png, "kov-viewer-%ld.png", stamp);
	snprintf(csv, sizeof csv, "kov-viewer-%ld.csv", stamp);
	bool ok = frame_surface && cairo_surface_write_to_png(frame_surface, png) == CAIRO_STATUS_SUCCESS;
	ok &= write_csv(v, csv, now);
	fprintf(stderr, "kov-viewer: %s %s and %s\n", ok ? "exported" : "could not export", png, csv);
}

/* Typed text: into the flame graph's search, the tree's filter or the connect line, whichever
 * is being typed; false when none is. */
static bool type_text(struct view *v, const char *text)
{
	char *into = v->typing_filter ? v->tree.filter : v->typing_target ? v->new_target : NULL;
	size_t cap = v->typing_filter ? sizeof v->tree.filter : sizeof v->new_target;
	if (v->flame.typing)
		flame_type(v, text);
	else if (into && strlen(into) + strlen(text) < cap)
		strcat(into, text);
	return v->flame.typing || into;
}

/* A left click at (x, y) points: a tree row selects (a selected one opens), a flame box zooms. */
static void click(struct view *v, double x, double y)
{
	size_t r = view_row_at(v, x, y);
	if (r != (size_t)-1) {
		if (r == v->tree.selected && v->targets[v->current].have_scan)
			tree_toggle(&v->tree, &v->targets[v->current].scan, r);
		v->tree.selected = r;
	} else if (v->flame.open) {
		flame_click(v, x, y);
	}
}

static void key(struct view *v, SDL_Keycode k, SDL_Keymod mod, bool *quit)
{
	struct tree *tr = &v->tree;
	struct target *t = &v->targets[v->current];
	if (v->config.open) {
		int c = k == SDLK_UP ? 'u' : k == SDLK_DOWN ? 'd' : k == SDLK_LEFT ? 'l' :
			k == SDLK_RIGHT ? 'r' : k == SDLK_RETURN ? '\r' : k == SDLK_ESCAPE ? 27 :
			k == SDLK_SPACE ? ' ' : k == SDLK_t ? 't' : k == SDLK_g ? 'g' : k == SDLK_s ? 's' :
			k == SDLK_PLUS || k == SDLK_EQUALS || k == SDLK_KP_PLUS ? '+' :
			k == SDLK_MINUS || k == SDLK_KP_MINUS ? '-' : k == SDLK_COMMA ? '<' :
			k == SDLK_PERIOD ? '>' : 0;
		if (c)
			config_key(&v->config, t, c);
		return;
	}
	if (v->typing_target) {
		size_t n = strlen(v->new_target);
		if (k == SDLK_BACKSPACE && n)
			v->new_target[n - 1] = 0;
		else if (k == SDLK_ESCAPE || k == SDLK_RETURN) {
			v->typing_target = false;
			SDL_StopTextInput();
			const char *colon = strrchr(v->new_target, ':');
			long port = colon ? strtol(colon + 1, NULL, 10) : 0;
			if (k == SDLK_RETURN && colon && colon != v->new_target && port > 0 && port < 65536 &&
			    v->n_targets < MAX_TARGETS) {
				char host[256], p[8];
				snprintf(host, sizeof host, "%.*s", (int)(colon - v->new_target), v->new_target);
				snprintf(p, sizeof p, "%ld", port);
				target_init(&v->targets[v->n_targets], host, p, v->targets[0].token);
				v->current = v->n_targets++;
				tr->selected = tr->scroll = 0;
			}
			v->new_target[0] = 0;
		}
		return;
	}
	if (v->flame.typing) {   /* the flame graph's search; its text comes as text input */
		if (k == SDLK_BACKSPACE)
			flame_backspace(v);
		else if (k == SDLK_RETURN || k == SDLK_ESCAPE) {
			SDL_StopTextInput();
			if (k == SDLK_ESCAPE)
				flame_escape(v);
			v->flame.typing = false;
		}
		return;
	}
	if (v->typing_filter) {
		size_t n = strlen(tr->filter);
		if (k == SDLK_BACKSPACE && n)
			tr->filter[n - 1] = 0;
		else if (k == SDLK_RETURN || k == SDLK_ESCAPE) {
			v->typing_filter = false;
			SDL_StopTextInput();
			if (k == SDLK_ESCAPE)
				tr->filter[0] = 0;
		}
		return;
	}
	switch (k) {
	case SDLK_q: if (mod & KMOD_CTRL) *quit = true; break;
	case SDLK_UP: if (tr->selected) tr->selected--; break;
	case SDLK_DOWN: if (tr->selected + 1 < tr->n) tr->selected++; break;
	case SDLK_PAGEUP: tr->selected = tr->selected > 20 ? tr->selected - 20 : 0; break;
	case SDLK_PAGEDOWN: tr->selected = tr->selected + 20 < tr->n ? tr->selected + 20 : tr->n - 1; break;
	case SDLK_RETURN: case SDLK_RIGHT: case SDLK_LEFT:
		if (t->have_scan && tr->selected < tr->n &&
		    (k == SDLK_RETURN || (k == SDLK_RIGHT) != tr->rows[tr->selected].expanded))
			tree_toggle(tr, &t->scan, tr->selected);
		break;
	case SDLK_SLASH:
		if (v->flame.open)
			v->flame.typing = true;
		else
			v->typing_filter = true;
		SDL_StartTextInput();
		break;
	case SDLK_ESCAPE:
		if (v->flame.open)
			flame_escape(v);
		else
			tr->filter[0] = 0;
		break;
	case SDLK_g: flame_cycle(v); break;
	case SDLK_w: flame_toggle_callers(v); break;
	case SDLK_l: v->show_locks = !v->show_locks; break;
	case SDLK_e: export_view(v, kov_now_ns()); break;
	case SDLK_m: v->sort_by_metric = !v->sort_by_metric; break;
	case SDLK_n:
		if (v->n_targets < MAX_TARGETS) {
			v->typing_target = true;
			SDL_StartTextInput();
		}
		break;
	case SDLK_LEFTBRACKET: v->pan_s += v->window_s / 4; break;                  /* back in time */
	case SDLK_RIGHTBRACKET: v->pan_s = v->pan_s > v->window_s / 4 ? v->pan_s - v->window_s / 4 : 0; break;
	case SDLK_END: v->pan_s = 0; break;
	case SDLK_i:   /* invocation counting for the selected object, or process */
		if (t->have_scan && tr->selected < tr->n && tr->rows[tr->selected].kind != ROW_MACHINE) {
			const struct row *r = &tr->rows[tr->selected];
			const struct kov_scan_object *ob = (r->kind == ROW_OBJECT || r->kind == ROW_REP) ? &t->scan.objects[r->obj] : NULL;
			uint32_t pid = ob ? kov_object_space(ob->pid, ob->coid) : t->scan.procs[r->proc].pid;
			uint64_t coid = ob ? ob->coid : 0;
			bool on = true;   /* I again on something counted turns it off */
			for (size_t c = 0; c < t->n_counted; c++)
				if (t->counted[c].pid == pid && t->counted[c].coid == coid) {
					on = false;
					t->counted[c] = t->counted[--t->n_counted];
					break;
				}
			target_instrument(t, pid, coid, on, PROTO_INSTR_INVOCATIONS);
		}
		break;
	case SDLK_k:   /* sleep-lock figures of the selected process (or object's locks), off/on */
		if (t->have_scan && tr->selected < tr->n && tr->rows[tr->selected].kind != ROW_MACHINE) {
			const struct row *r = &tr->rows[tr->selected];
			const struct kov_scan_object *ob = (r->kind == ROW_OBJECT || r->kind == ROW_REP) ? &t->scan.objects[r->obj] : NULL;
			uint32_t pid = ob ? ob->pid : t->scan.procs[r->proc].pid;
			if (target_instrument(t, pid, ob && ob->coid < KOV_KERNEL_COID_BASE ? ob->coid : 0,
					      v->locks_paused, PROTO_INSTR_SLEEPLOCKS))
				v->locks_paused = !v->locks_paused;
		}
		break;
	case SDLK_f:   /* full lock counting of the selected object's (or process's) locks, on/off */
		if (t->have_scan && tr->selected < tr->n && tr->rows[tr->selected].kind != ROW_MACHINE) {
			const struct row *r = &tr->rows[tr->selected];
			const struct kov_scan_object *ob = (r->kind == ROW_OBJECT || r->kind == ROW_REP) ? &t->scan.objects[r->obj] : NULL;
			uint32_t pid = ob ? kov_object_space(ob->pid, ob->coid) : t->scan.procs[r->proc].pid;
			target_toggle_full_counting(t, pid, ob ? ob->coid : 0);
		}
		break;
	case SDLK_c: if (t->cat) config_open(&v->config, t); break;
	case SDLK_TAB: v->current = (v->current + 1) % v->n_targets; tr->selected = tr->scroll = 0; break;
	case SDLK_PLUS: case SDLK_EQUALS: case SDLK_KP_PLUS: if (v->window_s > 10) v->window_s /= 2; break;
	case SDLK_MINUS: case SDLK_KP_MINUS: if (v->window_s < 600) v->window_s *= 2; break;
	default: break;
	}
}

int main(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "--bench"))   /* [objects [history seconds]] */
		return viewer_bench(argc > 2 ? atoi(argv[2]) : 10000, argc > 3 ? atoi(argv[3]) : 600,
				    200, 1280, 800);
	struct options o;
	int rc = parse(argc, argv, &o);
	if (rc)
		return rc;
	static struct target targets[MAX_TARGETS];
	bool configured[MAX_TARGETS] = { false };
	for (size_t i = 0; i < o.n; i++)
		target_init(&targets[i], o.hosts[i], o.ports[i], o.token);
	if (o.record && !target_record(&targets[0], o.record)) {
		fprintf(stderr, "kov-viewer: cannot write %s\n", o.record);
		return 1;
	}
	if (o.replay) {
		char why[300];
		const char *base = strrchr(o.replay, '/');
		target_init(&targets[0], base ? base + 1 : o.replay, "", NULL);
		if (!target_open_replay(&targets[0], o.replay, why, sizeof why)) {
			fprintf(stderr, "kov-viewer: %s\n", why);
			return 1;
		}
		o.n = 1;
	}
	struct view v = { .targets = targets, .n_targets = o.n, .window_s = 60, .scale = 1,
			  .show_locks = o.locks, .mouse_x = -1, .mouse_y = -1, .sort_by_metric = o.sort_metric };
	if (o.view && !strcmp(o.view, "flame"))
		flame_cycle(&v);
	else if (o.view && !strcmp(o.view, "callers"))
		flame_toggle_callers(&v);

	if (SDL_Init(SDL_INIT_VIDEO) != 0) {
		fprintf(stderr, "kov-viewer: no display: %s (connect with build/host/kovctl instead)\n",
			SDL_GetError());
		return 1;
	}
	SDL_Window *win = SDL_CreateWindow("KOV viewer", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED,
					   o.w, o.h, SDL_WINDOW_RESIZABLE | SDL_WINDOW_ALLOW_HIGHDPI);
	SDL_Renderer *ren = win ? SDL_CreateRenderer(win, -1, 0) : NULL;
	if (!ren) {
		fprintf(stderr, "kov-viewer: cannot open a window: %s\n", SDL_GetError());
		return 1;
	}
	SDL_Texture *tex = NULL;
	cairo_surface_t *surf = NULL;
	uint64_t start = kov_now_ns();
	bool quit = false;
	while (!quit) {
		uint64_t now = kov_now_ns();
		for (size_t i = 0; i < v.n_targets; i++) {
			target_poll(&targets[i], now);
			if (o.config && o.token)
				configure(&targets[i], o.config, &configured[i]);
		}
		SDL_Event e;
		while (SDL_PollEvent(&e)) {
			if (e.type == SDL_QUIT)
				quit = true;
			else if (e.type == SDL_KEYDOWN)
				key(&v, e.key.keysym.sym, SDL_GetModState(), &quit);
			else if (e.type == SDL_TEXTINPUT)
				type_text(&v, e.text.text);
			else if (e.type == SDL_MOUSEBUTTONDOWN && e.button.button == SDL_BUTTON_LEFT)
				click(&v, e.button.x, e.button.y);
			else if (e.type == SDL_MOUSEMOTION) {
				v.mouse_x = e.motion.x;
				v.mouse_y = e.motion.y;
			} else if (e.type == SDL_WINDOWEVENT && e.window.event == SDL_WINDOWEVENT_LEAVE) {
				v.mouse_x = v.mouse_y = -1;
			} else if (e.type == SDL_MOUSEWHEEL) {
				int mx, my;
				SDL_GetMouseState(&mx, &my);
				if (mx < 400) {
					size_t s = v.tree.scroll;
					v.tree.scroll = e.wheel.y > 0 ? (s > 3 ? s - 3 : 0) : s + 3;
					v.tree.selected = v.tree.scroll;
				} else if (e.wheel.y > 0 && v.window_s > 10) {
					v.window_s /= 2;
				} else if (e.wheel.y < 0 && v.window_s < 600) {
					v.window_s *= 2;
				}
			}
		}
		int pw, ph, ww, wh;
		SDL_GetRendererOutputSize(ren, &pw, &ph);
		SDL_GetWindowSize(win, &ww, &wh);
		if (!surf || pw != v.width || ph != v.height) {
			if (surf)
				cairo_surface_destroy(surf);
			if (tex)
				SDL_DestroyTexture(tex);
			surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pw, ph);
			frame_surface = surf;
			tex = SDL_CreateTexture(ren, SDL_PIXELFORMAT_ARGB8888, SDL_TEXTUREACCESS_STREAMING, pw, ph);
			v.width = pw;
			v.height = ph;
			v.scale = ww > 0 ? (double)pw / ww : 1;
		}
		struct target *t = &targets[v.current];
		/* The window's title names the current target and how its CPUs run. */
		static char title[400];
		char want[sizeof title];
		target_window_title(t, want, sizeof want);
		if (strcmp(want, title)) {
			memcpy(title, want, sizeof title);
			SDL_SetWindowTitle(win, title);
		}
		if (o.keys && !o.select && t->have_scan && (t->state == CONN_UP || t->state == CONN_REPLAY)) {
			for (const char *k = o.keys; *k; k++) {   /* printable keys while typing are text */
				char text[2] = { *k, 0 };
				if (*k < ' ' || !type_text(&v, text))
					key(&v, (SDL_Keycode)*k, 0, &quit);
			}
			o.keys = NULL;
		}
		if (o.config_keys && t->cat && t->state == CONN_UP) {
			config_open(&v.config, t);
			for (const char *k = o.config_keys; *k; k++)
				config_key(&v.config, t, *k == 'E' ? '\r' : *k == 'X' ? 27 : *k);
			o.config_keys = NULL;
		}
		static uint64_t *weight;
		static size_t weight_n;
		if (v.sort_by_metric && t->have_scan) {
			if (weight_n < t->scan.n_objects) {
				free(weight);
				weight = calloc(t->scan.n_objects, sizeof *weight);
				weight_n = weight ? t->scan.n_objects : 0;
			}
			for (size_t i = 0; weight && i < t->scan.n_objects; i++) {
				const struct kov_scan_object *ob = &t->scan.objects[i];
				const struct obj_stat *os = target_object(t, ob->pid, ob->coid, ob->gen);
				weight[i] = os ? os->samples : 0;
			}
		}
		tree_build(&v.tree, t->have_scan ? &t->scan : NULL,
			   v.sort_by_metric && weight_n >= (t->have_scan ? t->scan.n_objects : 0) ? weight : NULL);
		for (size_t i = 0; o.select && t->have_scan && i < v.tree.n; i++)
			if (v.tree.rows[i].kind == ROW_OBJECT &&
			    !strcmp(t->scan.objects[v.tree.rows[i].obj].class_name, o.select)) {
				v.tree.selected = i;
				o.select = NULL;
			}
		if (o.hover_x > 0) {
			v.mouse_x = o.hover_x;
			v.mouse_y = o.hover_y;
		}
		v.hover_shown = false;
		cairo_t *cr = cairo_create(surf);
		cairo_scale(cr, v.scale, v.scale);
		draw_view(cr, &v, now);
		cairo_destroy(cr);
		cairo_surface_flush(surf);
		SDL_UpdateTexture(tex, NULL, cairo_image_surface_get_data(surf),
				  cairo_image_surface_get_stride(surf));
		SDL_RenderClear(ren);
		SDL_RenderCopy(ren, tex, NULL, NULL);
		SDL_RenderPresent(ren);
		if (o.screenshot && now - start >= (uint64_t)(o.after * 1e9) && o.click) {
			click(&v, o.click_x, o.click_y);   /* on what was just drawn; shot next frame */
			o.click = false;
			continue;
		}
		if (o.screenshot && now - start >= (uint64_t)(o.after * 1e9)) {
			size_t connected = 0, events = 0;
			for (size_t i = 0; i < v.n_targets; i++)
				if (targets[i].state == CONN_UP || targets[i].state == CONN_REPLAY) {
					connected++;
					events = targets[i].n_cat;
				}
			if (cairo_surface_write_to_png(surf, o.screenshot) != CAIRO_STATUS_SUCCESS ||
			    (o.csv && !write_csv(&v, o.csv, now))) {
				fprintf(stderr, "kov-viewer: cannot write %s\n", o.csv ? o.csv : o.screenshot);
				return 1;
			}
			size_t available = 0, hot = 0;
			for (int p = 0; p < PANES; p++)
				available += t->pane[p].available;
			unsigned long long selected = 0;
			size_t sel_locks = 0, sites = 0, named_sites = 0;
			const struct row *r = v.tree.selected < v.tree.n ? &v.tree.rows[v.tree.selected] : NULL;
			if (r && r->kind == ROW_OBJECT && t->have_scan) {
				const struct kov_scan_object *ob = &t->scan.objects[r->obj];
				const struct obj_stat *os = target_object(t, ob->pid, ob->coid, ob->gen);
				uint32_t space = kov_object_space(ob->pid, ob->coid);
				selected = os ? os->samples : 0;
				for (size_t k = 0; os && k < t->n_hot; k++)
					for (size_t i = 0; i < os->n_pcs; i++)
						hot += t->hot_pid == os->pid && t->hot_coid == os->coid &&
						       t->hot_pcs[k] == os->pcs[i].pc && t->hot_names[k][0] != '0';
				/* Its locks and their call sites, symbolized (the hot spots' lookup). */
				const struct proto_lock *lk[4];
				sel_locks = target_locks_of(t, false, space, ob->coid, ob->gen, lk, 4);
				for (size_t i = 0; i < sel_locks && i < 4; i++)
					for (int k = 0; k < PROTO_LOCK_SITES && lk[i]->site[k].pc; k++) {
						const char *nm = target_symbol(t, space, lk[i]->site[k].pc);
						sites++;
						named_sites += nm && nm[0] != '0';
					}
			}
			printf("viewer: targets=%zu connected=%zu processes=%zu objects=%zu tree_rows=%zu "
			       "events=%zu panes=%d available_panes=%zu series=%zu points=%zu samples=%llu "
			       "contributors=%zu selected_samples=%llu hot_spots=%zu locks=%zu config_open=%d "
			       "config_sent=%d config_groups=%u hover=%d calls=%llu width=%d height=%d\n",
			       v.n_targets, connected,
			       t->have_scan ? t->scan.n_procs : 0, t->have_scan ? t->scan.n_objects : 0,
			       v.drawn_rows, events, PANES, available, v.drawn_series, v.drawn_points,
			       (unsigned long long)t->samples_total, t->n_objs, selected, hot,
			       t->locks ? t->locks->n : 0,
			       v.config.open, v.config.sent, (unsigned)v.config.conf.cfg.n_groups,
			       v.hover_shown, (unsigned long long)t->calls_total, v.width, v.height);
			printf("viewer: top: %s\n", v.drawn_top);
			for (size_t i = 0; t->have_scan && i < v.tree.n; i++) {
				const struct row *rr = &v.tree.rows[i];
				if (rr->kind != ROW_REP)
					continue;
				const struct kov_scan_object *ob = &t->scan.objects[rr->obj];
				const struct obj_stat *os = target_object(t, ob->pid, ob->coid, ob->gen);
				printf("viewer: rep: %s cpu=%d rep=0x%llx samples=%llu\n", ob->class_name, rr->cpu,
				       (unsigned long long)ob->reps[rr->cpu],
				       (unsigned long long)(os ? os->rep_samples[rr->cpu] : 0));
			}
			const struct kov_losses *ls = &t->losses;
			printf("viewer: losses: received=%llu lost=%llu dropped_frames=%llu dropped_samples=%llu "
			       "discarded=%s%llu top_incomplete=%d\n", (unsigned long long)ls->samples,
			       (unsigned long long)ls->lost, (unsigned long long)ls->dropped_frames,
			       (unsigned long long)ls->dropped[KOV_DROP_SAMPLES],
			       ls->discarded_known ? "" : "unknown:", (unsigned long long)ls->discarded,
			       kov_losses_missing_samples(ls) > 0);
			char modes[400];
			target_modes_warning(t, modes, sizeof modes);
			printf("viewer: modes: asked=%s warning=\"%s\"\n", !t->cfg_modes ? "none" :
			       t->cfg_modes == (PROTO_CFG_KERNEL | PROTO_CFG_USER) ? "both" :
			       t->cfg_modes & PROTO_CFG_KERNEL ? "kernel" : "user", modes);
			printf("viewer: selected: selected_locks=%zu lock_sites=%zu symbolized_sites=%zu\n", sel_locks, sites,
			       named_sites);
			/* Each pane: its points, newest value and largest in the window. */
			for (int p = 0; p < PANES; p++) {
				const struct pane *pn = &t->pane[p];
				double mn = 0, avg = 0, mx = 0, last = 0;
				size_t count = 0;
				uint64_t at;
				series_stats(&pn->s, now - (uint64_t)(v.window_s * 1e9), UINT64_MAX, &mn, &avg, &mx,
					     &count);
				series_at(&pn->s, 0, &at, &last);
				printf("viewer: pane \"%s\" available=%d points=%zu last=%.6g max=%.6g second=%zu "
				       "subtitle=\"%s\"\n", pn->title, pn->available, count, last, mx, pn->s2.n,
				       pn->available ? pn->subtitle : pn->why);
			}
			if (v.show_locks)
				printf("viewer: locks: rows=%zu hidden=%zu top: %s\n", v.drawn_locks,
				       v.hidden_locks, v.drawn_lock_top);
			if (v.flame.open)
				flame_report(&v, stdout);
			const char *serial = target_serial_note(t);
			printf("viewer: title: %s\n", SDL_GetWindowTitle(win));
			const char *run = t->have_desc ? kov_cpus_run(&t->desc) : NULL;
			printf("viewer: machine: cpus_run=%s serial_note=\"%s\"\n",
			       run ? run : "not-reported", serial ? serial : "");
			printf("viewer: status: %s\n", t->status);
			if (v.config.open) {
				printf("viewer: config: %s\n", v.config.msg);
				if (v.config.cursor < t->n_cat)
					printf("viewer: config row: %s basis=%s\n", t->cat[v.config.cursor].name,
					       kov_event_basis(&t->desc, &t->cat[v.config.cursor]));
			}
			fflush(stdout);
			break;
		}
		SDL_Delay(30);
	}
	for (size_t i = 0; i < v.n_targets; i++)
		target_free(&targets[i]);
	tree_free(&v.tree);
	flame_free(&v.flame);
	if (surf)
		cairo_surface_destroy(surf);
	SDL_Quit();
	return 0;
}

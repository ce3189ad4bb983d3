/* kov-viewer's command line: the options into struct options, every bad one a usage error
 * (exit 2) that names it. */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/app.h"

static const char usage[] =
	"usage: kov-viewer --target HOST:PORT [--target HOST:PORT ...] [--token T] [--config FILE]\n"
	"                  [--record FILE] [--size WxH] [--resize WxH] [--select CLASS]\n"
	"                  [--view locks|object|flame|callers] [--config-keys KEYS] [--keys KEYS]\n"
	"                  [--csv FILE] [--hover X,Y] [--click X,Y]\n"
	"                  [--screenshot FILE.png --after SECONDS]\n"
	"       kov-viewer --replay FILE [...]\n"
	"       kov-viewer --bench    (frame time: 10,000 objects, 5 panes of 10 minutes)\n"
	"       kov-viewer --target HOST:PORT --bench-frames N [...]   (frame times on a live\n"
	"                 target: N frames once samples arrive, then exits)\n"
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
	"      selected object's callers, X hot-swap the selected object to its peer class\n"
	"      (Counter/DCounter, Warehouse/WarehouseFine, PageViews/PageViewsPerCPU; controller),\n"
	"      ? the keys over the window, Ctrl-Q quit\n"
	"--size WxH is the window's first size: the layout follows the window as it is resized.\n"
	"--view flame|callers opens the flame graph (callers: of the --select'ed object);\n"
	"--keys types keys once an object is selected, --after counts from when --select,\n"
	"--keys and --config-keys are done (at most 60 s), --hover and --click put the pointer\n"
	"and click (just before the screenshot) at X,Y points, --resize WxH resizes the window\n"
	"after its first frame, for tests.\n";

static int usage_error(const char *msg, const char *arg)
{
	fprintf(stderr, "kov-viewer: %s%s%s\n", msg, arg ? ": " : "", arg ? arg : "");
	return 2;
}

/* --target HOST:PORT: one more target. */
static int parse_target(struct options *o, const char *val)
{
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
	return 0;
}

/* Options whose value is checked: 0, 2 after a usage error, or -1 when a is none of them. */
static int parse_checked(struct options *o, const char *a, const char *val)
{
	char *end;
	if (!strcmp(a, "--target"))
		return parse_target(o, val);
	if (!strcmp(a, "--sort")) {
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
	} else if (!strcmp(a, "--view")) {
		if (strcmp(val, "locks") && strcmp(val, "object") && strcmp(val, "flame") &&
		    strcmp(val, "callers"))
			return usage_error("--view: locks, object, flame or callers", val);
		o->locks = !strcmp(val, "locks");
		o->view = val;
	} else if (!strcmp(a, "--after")) {
		o->after = strtod(val, &end);
		if (*end || !(o->after > 0) || o->after > 3600)
			return usage_error("--after needs seconds (0 < S <= 3600)", val);
	} else if (!strcmp(a, "--bench-frames")) {
		o->bench_frames = (int)strtol(val, &end, 10);
		if (*end || o->bench_frames < 20 || o->bench_frames > 100000)
			return usage_error("--bench-frames needs a count of 20 to 100000", val);
	} else if (!strcmp(a, "--resize")) {
		if (sscanf(val, "%dx%d", &o->resize_w, &o->resize_h) != 2 || o->resize_w < 320 ||
		    o->resize_h < 240 || o->resize_w > 8192 || o->resize_h > 8192)
			return usage_error("--resize needs WxH, at least 320x240", val);
	} else if (!strcmp(a, "--size")) {
		if (sscanf(val, "%dx%d", &o->w, &o->h) != 2 || o->w < 640 || o->h < 400 ||
		    o->w > 8192 || o->h > 8192)
			return usage_error("--size needs WxH, at least 640x400", val);
	} else {
		return -1;
	}
	return 0;
}

/* Options taken as they are: where their value goes, or NULL for an unknown option. */
static const char **plain_option(struct options *o, const char *a)
{
	static const struct { const char *name; size_t at; } plain[] = {
		{ "--token", offsetof(struct options, token) },
		{ "--record", offsetof(struct options, record) },
		{ "--replay", offsetof(struct options, replay) },
		{ "--keys", offsetof(struct options, keys) },
		{ "--csv", offsetof(struct options, csv) },
		{ "--config-keys", offsetof(struct options, config_keys) },
		{ "--select", offsetof(struct options, select) },
		{ "--config", offsetof(struct options, config) },
		{ "--screenshot", offsetof(struct options, screenshot) },
	};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		if (!strcmp(a, plain[i].name))
			return (const char **)((char *)o + plain[i].at);
	return NULL;
}

/* The options that only make sense together (or apart). */
static int check_combination(const struct options *o)
{
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

int options_parse(int argc, char **argv, struct options *o)
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
		const char **plain = plain_option(o, a);
		int rc = plain ? 0 : parse_checked(o, a, val);
		if (plain)
			*plain = val;
		else if (rc < 0)
			return usage_error("unknown option (try --help)", a);
		else if (rc)
			return rc;
	}
	return check_combination(o);
}

/* kov-viewer's images and data out: --screenshot's PNG with a report of what the frame shows
 * (the QEMU tests read its "viewer: ..." lines), and E's export of the window and the series. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "viewer/app.h"
#include "viewer/layout.h"

bool write_csv(const struct view *v, const char *file, uint64_t now)
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

void export_view(const struct view *v, uint64_t now)
{
	char png[64], csv[64];
	long stamp = (long)time(NULL);
	snprintf(png, sizeof png, "kov-viewer-%ld.png", stamp);
	snprintf(csv, sizeof csv, "kov-viewer-%ld.csv", stamp);
	bool ok = v->frame && cairo_surface_write_to_png(v->frame, png) == CAIRO_STATUS_SUCCESS;
	ok &= write_csv(v, csv, now);
	fprintf(stderr, "kov-viewer: %s %s and %s\n", ok ? "exported" : "could not export", png, csv);
}

/* What is known of the selected object: its samples, its symbolized hot spots, its locks and
 * their call sites (symbolized by the hot spots' lookup). */
struct selected_report {
	unsigned long long samples;
	size_t hot, locks, sites, named_sites;
};

static struct selected_report selected_report(const struct view *v)
{
	const struct target *t = &v->targets[v->current];
	struct selected_report s = { 0 };
	const struct row *r = v->tree.selected < v->tree.n ? &v->tree.rows[v->tree.selected] : NULL;
	if (!r || r->kind != ROW_OBJECT || !t->have_scan)
		return s;
	const struct kov_scan_object *ob = &t->scan.objects[r->obj];
	const struct obj_stat *os = target_object(t, ob->pid, ob->coid, ob->gen);
	uint32_t space = kov_object_space(ob->pid, ob->coid);
	s.samples = os ? os->samples : 0;
	for (size_t k = 0; os && k < t->n_hot; k++)
		for (size_t i = 0; i < os->n_pcs; i++)
			s.hot += t->hot_pid == os->pid && t->hot_coid == os->coid &&
				 t->hot_pcs[k] == os->pcs[i].pc && t->hot_names[k][0] != '0';
	const struct proto_lock *lk[4];
	s.locks = target_locks_of(t, false, space, ob->coid, ob->gen, lk, 4);
	for (size_t i = 0; i < s.locks && i < 4; i++)
		for (int k = 0; k < PROTO_LOCK_SITES && lk[i]->site[k].pc; k++) {
			const char *nm = target_symbol(t, space, lk[i]->site[k].pc);
			s.sites++;
			s.named_sites += nm && nm[0] != '0';
		}
	return s;
}

/* The first line: the targets, the tree, the panes, the samples, the selection. */
static void report_counts(const struct view *v, const struct selected_report *sel)
{
	const struct target *t = &v->targets[v->current];
	size_t connected = 0, events = 0, available = 0;
	for (size_t i = 0; i < v->n_targets; i++)
		if (v->targets[i].state == CONN_UP || v->targets[i].state == CONN_REPLAY) {
			connected++;
			events = v->targets[i].n_cat;
		}
	for (int p = 0; p < PANES; p++)
		available += t->pane[p].available;
	printf("viewer: targets=%zu connected=%zu processes=%zu objects=%zu tree_rows=%zu "
	       "events=%zu panes=%d available_panes=%zu series=%zu points=%zu samples=%llu "
	       "contributors=%zu selected_samples=%llu hot_spots=%zu locks=%zu config_open=%d "
	       "config_sent=%d config_groups=%u hover=%d calls=%llu width=%d height=%d\n",
	       v->n_targets, connected,
	       t->have_scan ? t->scan.n_procs : 0, t->have_scan ? t->scan.n_objects : 0,
	       v->drawn_rows, events, PANES, available, v->drawn_series, v->drawn_points,
	       (unsigned long long)t->samples_total, t->n_objs, sel->samples, sel->hot,
	       t->locks ? t->locks->n : 0,
	       v->config.open, v->config.sent, (unsigned)v->config.conf.cfg.n_groups,
	       v->hover_shown, (unsigned long long)t->calls_total, v->width, v->height);
}

/* The per-CPU reps shown in the tree, with their samples. */
static void report_reps(const struct view *v)
{
	const struct target *t = &v->targets[v->current];
	for (size_t i = 0; t->have_scan && i < v->tree.n; i++) {
		const struct row *rr = &v->tree.rows[i];
		if (rr->kind != ROW_REP)
			continue;
		const struct kov_scan_object *ob = &t->scan.objects[rr->obj];
		const struct obj_stat *os = target_object(t, ob->pid, ob->coid, ob->gen);
		printf("viewer: rep: %s cpu=%d rep=0x%llx samples=%llu\n", ob->class_name, rr->cpu,
		       (unsigned long long)ob->reps[rr->cpu],
		       (unsigned long long)(os ? os->rep_samples[rr->cpu] : 0));
	}
}

/* The losses and the configuration's modes. */
static void report_losses_modes(const struct target *t)
{
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
}

/* Each pane: its points, newest value and largest in the window. */
static void report_panes(const struct view *v, uint64_t now)
{
	const struct target *t = &v->targets[v->current];
	for (int p = 0; p < PANES; p++) {
		const struct pane *pn = &t->pane[p];
		double mn = 0, avg = 0, mx = 0, last = 0;
		size_t count = 0;
		uint64_t at;
		series_stats(&pn->s, now - (uint64_t)(v->window_s * 1e9), UINT64_MAX, &mn, &avg, &mx,
			     &count);
		series_at(&pn->s, 0, &at, &last);
		printf("viewer: pane \"%s\" available=%d points=%zu last=%.6g max=%.6g second=%zu "
		       "subtitle=\"%s\"\n", pn->title, pn->available, count, last, mx, pn->s2.n,
		       pn->available ? pn->subtitle : pn->why);
	}
}

/* The lock view, the flame view, the window, the machine, the status and the utility. */
static void report_views(const struct view *v, SDL_Window *win)
{
	const struct target *t = &v->targets[v->current];
	if (v->show_locks)
		printf("viewer: locks: rows=%zu hidden=%zu top: %s\n", v->drawn_locks,
		       v->hidden_locks, v->drawn_lock_top);
	if (v->flame.open)
		flame_report(v, stdout);
	const char *serial = target_serial_note(t);
	printf("viewer: title: %s\n", SDL_GetWindowTitle(win));
	const char *run = t->have_desc ? kov_cpus_run(&t->desc) : NULL;
	printf("viewer: machine: cpus_run=%s serial_note=\"%s\"\n",
	       run ? run : "not-reported", serial ? serial : "");
	printf("viewer: status: %s\n", t->status);
	printf("viewer: locks_refused: %s\n", t->locks_refused);
	printf("viewer: layout: width=%d height=%d tree_w=%.0f resizes=%zu help_open=%d help_lines=%zu\n",
	       v->width, v->height, tree_w(v), v->resizes, v->help_open, help_lines());
	printf("viewer: swaps: marks=%zu drawn=%zu\n", t->n_swaps, v->drawn_swaps);
	printf("viewer: throttle: marks=%zu drawn=%zu factor=%u\n", t->n_throttles,
	       v->drawn_throttles, t->n_throttles ? t->throttles[t->n_throttles - 1].factor : 1);
	if (v->config.open) {
		fflush(stdout);
		config_report(&v->config, t, stdout);
	}
}

bool screenshot_write(const struct view *v, cairo_surface_t *frame, const char *png,
		      const char *csv, SDL_Window *win, uint64_t now)
{
	if (cairo_surface_write_to_png(frame, png) != CAIRO_STATUS_SUCCESS ||
	    (csv && !write_csv(v, csv, now))) {
		fprintf(stderr, "kov-viewer: cannot write %s\n", csv ? csv : png);
		return false;
	}
	struct selected_report sel = selected_report(v);
	report_counts(v, &sel);
	printf("viewer: top: %s\n", v->drawn_top);
	report_reps(v);
	report_losses_modes(&v->targets[v->current]);
	printf("viewer: selected: selected_locks=%zu lock_sites=%zu symbolized_sites=%zu\n", sel.locks,
	       sel.sites, sel.named_sites);
	report_panes(v, now);
	report_views(v, win);
	fflush(stdout);
	return true;
}

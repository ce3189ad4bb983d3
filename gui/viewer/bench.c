/* kov-viewer --bench: frame time with a large model, measured without a display. The model is
 * filled through the same paths a target's frames take (scan answers built with the protocol
 * codec and kov_scan_build, SAMPLES frames through target_take_frame) plus ten minutes of
 * points in every pane, then whole frames are drawn into an image surface and timed, a new
 * point arriving in every pane every third frame (30 frames and 10 reports a second). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/grow.h"
#include "viewer/viewer.h"


/* Appends a frame the builder finished to the answer. */
static void keep(struct kov_answer *a, const uint8_t *buf, int n)
{
	struct kov_frame fr = { .bytes = malloc((size_t)n), .len = (uint32_t)n };
	memcpy(fr.bytes, buf, (size_t)n);
	proto_frame_parse(fr.bytes, (size_t)n, &fr.f);
	if (!kov_grow((void **)&a->frames, &a->cap, a->count + 1, sizeof *a->frames))
		abort();   /* the bench's own fixture: no memory is no bench */
	a->frames[a->count++] = fr;
}

static void fill_scan(struct target *t, int procs, int per_proc)
{
	static uint8_t buf[PROTO_MAX_FRAME];
	struct kov_answer a = { 0 };
	struct proto_builder b;
	struct proto_scan_head h = { 0 };
	proto_begin_scan_processes(&b, buf, sizeof buf, 1, PROTO_F_MORE, &h);
	for (int p = 0; p < procs; p++) {
		char name[32];
		snprintf(name, sizeof name, "proc%d", p);
		struct proto_process r = { (uint32_t)p + 1, 0, 1, PROTO_PS_RUNNING, proto_cstr(name) };
		proto_add_process(&b, &r);
	}
	keep(&a, buf, proto_finish(&b));
	static const char *const classes[] = { "Process", "Region", "FCM", "HAT", "SegmentHAT", "FR" };
	for (int p = 0; p < procs; p++) {
		proto_begin_scan_objects(&b, buf, sizeof buf, 1, p + 1 < procs ? PROTO_F_MORE : 0, &h);
		for (int o = 0; o < per_proc; o++) {
			uint64_t rep = 0x10000000ull + (uint64_t)o * 64;
			struct proto_ref child = { 0xD0000000ull + 16ull * (uint64_t)(o + 2), 0 };
			struct proto_object r = {
				.pid = (uint32_t)p + 1, .gen = 0, .coid = 0xD0000000ull + 16ull * (uint64_t)(o + 1),
				.root = rep, .flags = PROTO_OBJ_SINGLE_REP,
				.class_name = proto_cstr(classes[o % 6]),
				.reps = { &rep, NULL, 1 },
				.children = { &child, NULL, o % 4 != 3 && o + 1 < per_proc ? 1u : 0u },
			};
			proto_add_object(&b, &r);
		}
		keep(&a, buf, proto_finish(&b));
	}
	char err[200];
	if (kov_scan_build(&a, &t->scan, err, sizeof err) == 0)
		t->have_scan = true;
	else
		fprintf(stderr, "kov-viewer: bench scan: %s\n", err);
	kov_answer_free(&a);
}

static void fill_samples(struct target *t, int procs, int per_proc, int n)
{
	static uint8_t buf[PROTO_MAX_FRAME];
	struct proto_builder b;
	struct proto_samples_head h = { 1 };
	proto_begin_samples(&b, buf, sizeof buf, 0, 0, &h);
	for (int i = 0; i < n; i++) {
		int p = i % procs, o = (i * 7919) % per_proc;
		struct proto_sample s = { .timebase = (uint64_t)i, .pc = 0x10000400ull + (uint64_t)(i % 64) * 4,
					  .coid = 0xD0000000ull + 16ull * (uint64_t)(o + 1), .pid = (uint32_t)p + 1,
					  .event = (uint16_t)t->ev_inst, .flags = PROTO_SMP_USER };
		if (proto_add_sample(&b, &s) < 0) {
			struct proto_frame f;
			proto_frame_parse(buf, (size_t)proto_finish(&b), &f);
			target_take_frame(t, &f);
			proto_begin_samples(&b, buf, sizeof buf, 0, 0, &h);
			proto_add_sample(&b, &s);
		}
	}
	struct proto_frame f;
	proto_frame_parse(buf, (size_t)proto_finish(&b), &f);
	target_take_frame(t, &f);
}

int viewer_bench(int objects, int history_s, int frames, int w, int h)
{
	static struct target t;
	target_init(&t, "bench", "", NULL);
	static struct kov_event cat[4];
	static const char *const names[] = { "PM_INST_CMPL", "PM_CYC", "SW_HPT_MISS", "SW_SLB_MISS" };
	for (int i = 0; i < 4; i++) {
		snprintf(cat[i].name, sizeof cat[i].name, "%s", names[i]);
		cat[i].flags = PROTO_EV_COUNTS_HERE | PROTO_EV_CAN_SAMPLE | PROTO_EV_SAMPLES_HERE;
		cat[i].description = cat[i].why_not = "";
	}
	t.cat = cat;
	t.n_cat = 4;
	t.state = CONN_REPLAY;
	snprintf(t.status, sizeof t.status, "benchmark model");
	judge_panes(&t);
	int procs = objects / 100 ? objects / 100 : 1, per_proc = objects / procs;
	fill_scan(&t, procs, per_proc);
	fill_samples(&t, procs, per_proc, 200000);
	uint64_t now = kov_now_ns(), span = (uint64_t)history_s * 1000000000ull;
	for (uint64_t k = 0; k < (uint64_t)history_s * 10; k++)   /* 100 ms report intervals */
		for (int p = 0; p < PANES; p++)
			series_push(&t.pane[p].s, now - span + k * 100000000ull, (double)((k * (p + 3)) % 97));
	for (int p = 0; p < PANES; p++)
		t.pane[p].available = true;

	struct view v = { .targets = &t, .n_targets = 1, .window_s = history_s, .scale = 1,
			  .width = w, .height = h };
	cairo_surface_t *surf = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	double *ms = calloc((size_t)frames, sizeof *ms), *cpu = calloc((size_t)frames, sizeof *cpu);
	double *ref = calloc((size_t)frames, sizeof *ref);
	struct phase_clock *ph = calloc((size_t)frames, sizeof *ph);
	/* The first frames, not counted: the first loads the fonts and builds the tree, and the
	 * charts are made one a frame (their time is printed on its own). */
	uint64_t t_first = kov_now_ns();
	tree_update(&v.tree, &t.scan, 1, NULL, 0);   /* as the counted frames call it: built once */
	cairo_t *cr0 = cairo_create(surf);
	for (int k = 0; k < 3; k++)
		draw_view(cr0, &v, kov_now_ns());
	cairo_destroy(cr0);
	printf("viewer-bench: first_frames=3 ms=%.2f (fonts loaded, tree built, charts begun; not counted)\n",
	       (double)(kov_now_ns() - t_first) / 1e6);
	for (int f = 0; f < frames; f++) {
		v.tree.selected = (size_t)(f * 97) % (v.tree.n ? v.tree.n : 1);   /* scroll around */
		/* A new report interval every third frame: 10 points a second at 30 frames a
		 * second, as a live target's 100 ms reports arrive. */
		if (f % 3 == 0)
			for (int p = 0; p < PANES; p++)
				series_push(&t.pane[p].s, kov_now_ns(), (double)((f * (p + 3)) % 97));
		uint64_t t0 = kov_now_ns(), c0 = bench_thread_cpu_ns();
		phase_begin(&v.phases);
		tree_update(&v.tree, &t.scan, 1, NULL, 0);
		phase_mark(&v.phases, PH_TREE);
		cairo_t *cr = cairo_create(surf);
		draw_view(cr, &v, kov_now_ns());
		cairo_destroy(cr);
		cairo_surface_flush(surf);
		ms[f] = (double)(kov_now_ns() - t0) / 1e6;
		cpu[f] = (double)(bench_thread_cpu_ns() - c0) / 1e6;
		ph[f] = v.phases;
		ref[f] = bench_reference_ms();
	}
	bench_report("viewer-bench", ms, cpu, ph, frames);
	bench_reference_report("viewer-bench", ref, cpu, frames);
	printf("viewer-bench: objects=%zu rows=%zu panes=%d history_s=%d points_per_pane=%zu "
	       "frames=%d size=%dx%d charts_redrawn=%zu\n", t.scan.n_objects, v.tree.n, PANES,
	       history_s, t.pane[0].s.n, frames, w, h, v.charts_drawn);
	free(ph);
	free(ref);
	free(cpu);
	free(ms);
	cairo_surface_destroy(surf);
	tree_free(&v.tree);
	target_free(&t);
	return 0;
}

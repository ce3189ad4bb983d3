/* Recording and replay in kovctl's format (gui/client/recording.h). A replayed target gets its
 * catalogue, scans, symbol tables and pushed data from the file, at the times they were
 * recorded, so every view works on it as on a live target. */
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/grow.h"
#include "client/recording.h"

bool target_record(struct target *t, const char *file)
{
	t->rec = fopen(file, "wb");
	if (!t->rec || !kov_rec_begin(t->rec))
		return false;
	t->rec_start = kov_now_ns();
	return true;
}

void target_record_frame(struct target *t, const struct proto_frame *f)
{
	if (t->rec)
		kov_rec_write(t->rec, kov_now_ns() - t->rec_start, f);
}

/* The catalogue as the client library would hold it, from EVENT_CATALOGUE frames. */
static void take_catalogue(struct target *t, const struct proto_frame *f)
{
	struct proto_catalogue_head h;
	struct proto_iter it;
	struct proto_event e;
	if (proto_decode_event_catalogue(f, &h, &it) < 0)
		return;
	if (!t->rp_cat) {
		t->rp_cat = calloc(h.total ? h.total : 1, sizeof *t->rp_cat);
		t->n_cat = h.total;
		t->cat = t->rp_cat;
	}
	for (unsigned i = h.first; t->rp_cat && i < t->n_cat && proto_next_event(&it, &e); i++) {
		struct kov_event *k = &t->rp_cat[i];
		k->source = e.source;
		k->flags = e.flags;
		k->code = e.code;
		snprintf(k->name, sizeof k->name, "%.*s", (int)e.name.len, e.name.s);
		k->description = strndup(e.description.s, e.description.len);
		k->why_not = strndup(e.why_not.s, e.why_not.len);
	}
}

bool target_open_replay(struct target *t, const char *file, char *why, size_t n)
{
	FILE *f = fopen(file, "rb");
	if (!f || !kov_rec_open(f)) {
		snprintf(why, n, "%s is not a KOV recording", file);
		if (f)
			fclose(f);
		return false;
	}
	size_t cap_frames = 0, cap_times = 0, cap_scan = 0;
	struct kov_answer scan = { 0 };
	struct kov_frame fr;
	uint64_t ns;
	int got;
	while ((got = kov_rec_next(f, &fr, &ns)) == 1) {
		if (!kov_grow((void **)&t->rp_frames, &cap_frames, t->rp_n + 1, sizeof *t->rp_frames) ||
		    !kov_grow((void **)&t->rp_times, &cap_times, t->rp_n + 1, sizeof *t->rp_times)) {
			free(fr.bytes);
			got = -2;
			break;
		}
		t->rp_frames[t->rp_n] = fr;
		t->rp_times[t->rp_n++] = ns;
		if (fr.f.type == PROTO_EVENT_CATALOGUE)
			take_catalogue(t, &fr.f);
		if (fr.f.type == PROTO_SCAN_PROCESSES || fr.f.type == PROTO_SCAN_OBJECTS) {
			if (!kov_grow((void **)&scan.frames, &cap_scan, scan.count + 1, sizeof *scan.frames)) {
				got = -2;
				break;
			}
			scan.frames[scan.count++] = fr;   /* borrowed: the frame stays in rp_frames */
			kov_live_frame(&t->stacks, &fr.f);   /* names the call stacks' objects */
		}
	}
	if (got < 0) {
		snprintf(why, n, got == -2 ? "%s: out of memory after %zu frames" :
			 "%s: damaged after %zu frames", file, t->rp_n);
		free(scan.frames);
		fclose(f);
		return false;
	}
	fclose(f);
	char err[200];
	if (scan.count && kov_scan_build(&scan, &t->scan, err, sizeof err) == 0)
		t->have_scan = true;
	free(scan.frames);
	if (!t->cat) {
		snprintf(why, n, "%s has no event catalogue", file);
		return false;
	}
	t->state = CONN_REPLAY;
	judge_panes(t);
	snprintf(t->status, sizeof t->status, "replay of %s: %zu frames over %.1f s", file, t->rp_n,
		 t->rp_n ? (double)t->rp_times[t->rp_n - 1] / 1e9 : 0.0);
	t->rp_start = kov_now_ns();
	return true;
}

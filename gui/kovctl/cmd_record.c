/* kovctl record and replay. A recording (gui/client/recording.h) is the raw protocol stream:
 * the target's description and catalogue, a scan and every program's symbol table (so a replay can name events
 * and objects and tell spin-lock code), then every frame the target pushed, each with the
 * time it arrived. Ctrl-C (SIGINT) or SIGTERM ends a recording as its time running out would:
 * whole frames only, the file closed, exit 0. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/grow.h"
#include "client/scan.h"
#include "client/recording.h"

struct recorder {
	FILE *f;
	uint64_t start;
	uint64_t frames, bytes;
	bool failed;
};

static void write_frame(struct recorder *r, const struct proto_frame *f)
{
	if (!kov_rec_write(r->f, kov_now_ns() - r->start, f))
		r->failed = true;
	r->frames++;
	r->bytes += PROTO_HEADER_SIZE + f->size;
}

static volatile sig_atomic_t record_stop;

static void on_stop_signal(int sig)
{
	(void)sig;
	record_stop = 1;
}

/* Collects pushed frames for `seconds` or until a stop signal. */
static int record_until(struct kovctl *k, double seconds)
{
	uint64_t end = kov_now_ns() + (uint64_t)(seconds * 1e9);
	for (uint64_t now; !record_stop && (now = kov_now_ns()) < end;) {
		int ms = (int)((end - now) / 1000000) + 1;
		int r = kov_client_pump(k->c, ms > 200 ? 200 : ms);
		if (r < 0 && !record_stop)
			return kovctl_client_error(k);
	}
	return EXIT_OK;
}

static void on_push(void *arg, const struct proto_frame *f)
{
	write_frame(arg, f);
}

/* Records an answer; keeps it in *keep (if given) for the caller, else frees it. */
static int record_answer(struct kovctl *k, struct recorder *r, void *frame, size_t len,
			 struct kov_answer *keep)
{
	struct kov_answer a;
	if (kov_client_call(k->c, frame, len, &a) < 0)
		return record_stop ? EXIT_OK : kovctl_client_error(k);
	for (size_t i = 0; i < a.count; i++)
		write_frame(r, &a.frames[i].f);
	if (keep)
		*keep = a;
	else
		kov_answer_free(&a);
	return EXIT_OK;
}

int cmd_record(struct kovctl *k)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;   /* no SA_RESTART: a wait returns and the file is closed */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	struct recorder r = { fopen(k->o->out, "wb"), kov_now_ns(), 0, 0, false };
	if (!r.f) {
		fprintf(stderr, "kovctl: cannot create %s\n", k->o->out);
		return EXIT_USAGE;
	}
	kov_rec_begin(r.f);
	if (!kov_rec_write_target(r.f, 0, kov_client_target(k->c)))
		r.failed = true;
	/* Pushed frames are recorded from the start, before the catalogue, scan and symbols are
	 * asked for: a 1.4 target defines each call chain once (CHAINS), so none may be missed.
	 * Those that came during the handshake first. */
	struct kov_frame early;
	while (kov_client_next_push(k->c, &early) == 1) {
		write_frame(&r, &early.f);
		kov_frame_free(&early);
	}
	kov_client_on_push(k->c, on_push, &r);
	uint8_t frame[64];
	int n = proto_encode_empty(frame, sizeof frame, PROTO_CATALOGUE_GET, 0, 0);
	int rc = record_answer(k, &r, frame, (size_t)n, NULL);
	struct proto_scan_request sr = { PROTO_PID_ALL, PROTO_SCAN_PROCESSES_BIT | PROTO_SCAN_OBJECTS_BIT };
	n = proto_encode_scan_request(frame, sizeof frame, 0, 0, &sr);
	struct kov_answer scan_answer = { 0 };
	if (!rc)
		rc = record_answer(k, &r, frame, (size_t)n, &scan_answer);
	/* The kernel's and every program's symbols, so a replay can tell spin-lock code. */
	struct kov_scan scan;
	char err[200];
	bool have = !rc && kov_scan_build(&scan_answer, &scan, err, sizeof err) == 0;
	for (size_t p = 0; !rc && !record_stop && p <= (have ? scan.n_procs : 0); p++) {
		struct proto_symbol_query q = { p == 0 ? PROTO_PID_KERNEL : scan.procs[p - 1].pid };
		if (p && !q.pid)
			continue;
		n = proto_encode_symbol_table_get(frame, sizeof frame, 0, 0, &q);
		struct kov_answer a;
		if (kov_client_call(k->c, frame, (size_t)n, &a) == 0) {   /* a program may have none */
			for (size_t i = 0; i < a.count; i++)
				write_frame(&r, &a.frames[i].f);
			kov_answer_free(&a);
		} else if (kov_client_error_code(k->c) == 0 && !record_stop) {
			rc = kovctl_client_error(k);
		}
	}
	if (have)
		kov_scan_free(&scan);
	kov_answer_free(&scan_answer);
	struct kov_losses losses = { 0 };
	if (!rc && !record_stop) {
		struct kovctl_period period;
		kovctl_period_begin(k, &period);
		rc = record_until(k, k->o->seconds > 0 ? k->o->seconds : 10);
		/* A last scan: objects made during the recording (the frames of call chains name
		 * them) get their classes too. */
		if (!rc && !record_stop) {
			n = proto_encode_scan_request(frame, sizeof frame, 0, 0, &sr);
			rc = record_answer(k, &r, frame, (size_t)n, NULL);
		}
		if (!rc)
			rc = kovctl_period_end(k, &period, &losses);
	}
	if (fclose(r.f) != 0 || r.failed) {
		fprintf(stderr, "kovctl: writing %s failed\n", k->o->out);
		return EXIT_TARGET;
	}
	if (rc)
		return rc;
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "file", k->o->out);
		json_kv_u64(&k->j, "frames", r.frames);
		json_kv_u64(&k->j, "bytes", r.bytes);
		json_kv_bool(&k->j, "stopped_by_signal", record_stop);
		kovctl_losses_report(k, &losses, true);
		kovctl_json_end(k, false);
	} else {
		printf("recorded %llu frames (%llu bytes) to %s%s\n", (unsigned long long)r.frames,
		       (unsigned long long)r.bytes, k->o->out, record_stop ? " (stopped by a signal)" : "");
		kovctl_losses_report(k, &losses, false);
	}
	return EXIT_OK;
}

/* ---- replay ------------------------------------------------------------------------------ */

struct replay_obj { uint32_t pid, gen; uint64_t coid, n; };

struct replay {
	uint64_t frames, by_type[8], duration_ns;
	uint64_t samples, no_object, intervals, not_ranked;
	uint64_t first_timebase, last_timebase;   /* the samples' span on the target's clock */
	struct kov_losses losses;    /* what the recording says was lost, dropped, discarded */
	uint64_t per_event[256];
	char names[256][PROTO_NAME_MAX + 1];
	struct replay_obj objs[4096];
	size_t n_objs;
	struct kov_answer scan_frames;
	size_t cap_scan;             /* frames scan_frames has room for */
};

static void replay_frame(struct replay *rp, struct kov_frame *fr)
{
	const struct proto_frame *f = &fr->f;
	struct proto_iter it;
	unsigned t = f->type >> 8;
	rp->by_type[t < 8 ? t : 0]++;
	if (f->req == 0)
		kov_losses_note(&rp->losses, f);
	if (f->type == PROTO_EVENT_CATALOGUE) {
		struct proto_catalogue_head h;
		struct proto_event e;
		proto_decode_event_catalogue(f, &h, &it);
		for (unsigned i = h.first; proto_next_event(&it, &e); i++)
			if (i < 256)
				snprintf(rp->names[i], sizeof rp->names[i], "%.*s", (int)e.name.len, e.name.s);
	} else if (f->type == PROTO_SCAN_PROCESSES || f->type == PROTO_SCAN_OBJECTS) {
		struct kov_answer *a = &rp->scan_frames;
		if (!kov_grow((void **)&a->frames, &rp->cap_scan, a->count + 1, sizeof *a->frames))
			return;                     /* out of memory: this scan frame is not kept */
		a->frames[a->count++] = *fr;    /* keeps the bytes */
		fr->bytes = NULL;
	} else if (proto_is_samples(f->type)) {
		struct proto_samples_head h;
		struct proto_sample s;
		proto_decode_any_samples(f, &h, &it);
		while (proto_next_any_sample(&it, &s)) {
			if (!rp->samples || s.timebase < rp->first_timebase)
				rp->first_timebase = s.timebase;
			if (s.timebase > rp->last_timebase)
				rp->last_timebase = s.timebase;
			rp->samples++;
			rp->per_event[s.event & 255]++;
			if (s.flags & PROTO_SMP_NO_OBJECT) {
				rp->no_object++;
				continue;
			}
			uint32_t pid = s.flags & PROTO_SMP_KERNEL ? 0 : s.pid;
			size_t i = 0;
			while (i < rp->n_objs && (rp->objs[i].pid != pid || rp->objs[i].coid != s.coid ||
						  rp->objs[i].gen != s.gen))
				i++;
			if (i == rp->n_objs && rp->n_objs < 4096)
				rp->objs[rp->n_objs++] = (struct replay_obj){ pid, s.gen, s.coid, 0 };
			if (i < rp->n_objs)
				rp->objs[i].n++;
			else
				rp->not_ranked++;
		}
	} else if (f->type == PROTO_INTERVAL_COUNTS) {
		rp->intervals++;
	}
}

int cmd_replay(struct kovctl *k)
{
	FILE *f = fopen(k->o->file, "rb");
	if (!f) {
		fprintf(stderr, "kovctl: cannot open %s\n", k->o->file);
		return EXIT_USAGE;
	}
	static struct replay rp;
	memset(&rp, 0, sizeof rp);
	int rc = EXIT_OK;
	if (!kov_rec_open(f)) {
		fprintf(stderr, "kovctl: %s is not a KOV recording\n", k->o->file);
		fclose(f);
		return EXIT_USAGE;
	}
	struct kov_frame fr;
	uint64_t ns;
	int got;
	while ((got = kov_rec_next(f, &fr, &ns)) == 1) {
		rp.duration_ns = ns;
		rp.frames++;
		replay_frame(&rp, &fr);
		kov_frame_free(&fr);
	}
	if (got < 0) {
		fprintf(stderr, "kovctl: %s: damaged record after %llu frames\n", k->o->file,
			(unsigned long long)rp.frames);
		rc = EXIT_USAGE;
	}
	fclose(f);

	struct kovctl_names names = { 0 };   /* first_ok too: kovctl_names_free reads it */
	char err[200];
	names.ok = rp.scan_frames.count && kov_scan_build(&rp.scan_frames, &names.scan, err, sizeof err) == 0;
	for (size_t i = 1; i < rp.n_objs; i++)   /* by samples, descending */
		for (size_t j = i; j > 0 && rp.objs[j].n > rp.objs[j - 1].n; j--) {
			struct replay_obj x = rp.objs[j];
			rp.objs[j] = rp.objs[j - 1];
			rp.objs[j - 1] = x;
		}
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "file", k->o->file);
		json_kv_u64(&k->j, "frames", rp.frames);
		json_kv_double(&k->j, "seconds", (double)rp.duration_ns / 1e9);
		json_kv_u64(&k->j, "samples", rp.samples);
		json_kv_u64(&k->j, "first_timebase", rp.first_timebase);
		json_kv_u64(&k->j, "last_timebase", rp.last_timebase);
		json_kv_u64(&k->j, "no_object", rp.no_object);
		json_kv_u64(&k->j, "intervals", rp.intervals);
		kovctl_losses_report(k, &rp.losses, false);
		json_kv_u64(&k->j, "not_ranked", rp.not_ranked);
		json_kv_bool(&k->j, "complete", !kov_losses_any(&rp.losses) && !rp.not_ranked);
		json_kv_u64(&k->j, "objects_in_scan", names.ok ? names.scan.n_objects : 0);
		json_key(&k->j, "top");
		json_begin_array(&k->j);
	} else {
		printf("%s: %llu frames over %.3f s: %llu samples (%llu without an object), "
		       "%llu interval reports, %llu samples lost\n", k->o->file,
		       (unsigned long long)rp.frames, (double)rp.duration_ns / 1e9,
		       (unsigned long long)rp.samples, (unsigned long long)rp.no_object,
		       (unsigned long long)rp.intervals, (unsigned long long)rp.losses.lost);
		kovctl_losses_report(k, &rp.losses, false);
		if (rp.not_ranked)
			printf("%llu samples of objects beyond the first 4096 are not ranked\n",
			       (unsigned long long)rp.not_ranked);
		if (kov_losses_any(&rp.losses) || rp.not_ranked)
			printf("this ranking is built from an incomplete recording: it misses what the "
			       "lines above count\n");
		for (int e = 0; e < 256; e++)
			if (rp.per_event[e])
				printf("  event %-22s %llu samples\n", rp.names[e][0] ? rp.names[e] : "?",
				       (unsigned long long)rp.per_event[e]);
		printf("%-4s %8s %-20s %-18s %6s\n", "RANK", "SAMPLES", "CLASS", "OBJECT", "PID");
	}
	for (size_t i = 0; i < rp.n_objs && i < (k->o->top_n ? k->o->top_n : 10); i++) {
		size_t o = names.ok ? kov_scan_find_any(&names.scan, rp.objs[i].pid, rp.objs[i].coid,
							rp.objs[i].gen) : KOV_NOT_IN_SCAN;
		const char *cls = o != KOV_NOT_IN_SCAN ? names.scan.objects[o].class_name : "?";
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_u64(&k->j, "samples", rp.objs[i].n);
			json_kv_str(&k->j, "class", cls);
			json_kv_coid(&k->j, "coid", rp.objs[i].coid);
			json_kv_u64(&k->j, "pid", rp.objs[i].pid);
			json_end_object(&k->j);
		} else {
			char coid[KOV_COID_CHARS];
			printf("%-4zu %8llu %-20s %-18s %6u\n", i + 1, (unsigned long long)rp.objs[i].n,
			       cls, kov_coid_str(rp.objs[i].coid, coid), (unsigned)rp.objs[i].pid);
		}
	}
	kovctl_json_end(k, true);
	kovctl_names_free(&names);
	kov_answer_free(&rp.scan_frames);
	return rc;
}

/* kovctl stream: bulk throughput from the target. Until the monitor pushes data, the bulk
 * source is the answer to SYMBOL_TABLE_GET for the kernel (tens of KiB over several frames),
 * requested back to back with up to --depth requests in flight so the link never idles.
 * Received bytes and frames are sampled at 1-second boundaries; the medians over those
 * windows are the result, so a slow first or last second does not skew it. */
#include <stdio.h>
#include <stdlib.h>
#include "kovctl/kovctl.h"

#define MAX_DEPTH 64

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

struct window_stats {
	size_t n;
	double *mib_s, *frames_s;
};

static int request(struct kovctl *k, uint32_t *req)
{
	uint8_t buf[PROTO_HEADER_SIZE + 4];
	struct proto_symbol_query q = { PROTO_PID_KERNEL };
	int n = proto_encode_symbol_table_get(buf, sizeof buf, 1, 0, &q);
	if (n < 0) {
		fprintf(stderr, "kovctl: cannot encode SYMBOL_TABLE_GET\n");
		return -1;
	}
	return kov_client_send(k->c, buf, (size_t)n, req);
}

static void report(struct kovctl *k, double secs, uint64_t answers, uint64_t frames,
                   uint64_t bytes, struct window_stats *w)
{
	double med_mib = median(w->mib_s, w->n), med_frames = median(w->frames_s, w->n);
	double mean_mib = (double)bytes / (1024.0 * 1024.0) / secs;
	if (k->o->json) {
		struct json *j = &k->j;
		json_begin_object(j);
		json_kv_str(j, "target", k->target);
		json_kv_str(j, "source", "symbol-table answers (SYMBOL_TABLE_GET pid 0)");
		json_kv_u64(j, "depth", k->o->depth);
		json_kv_double(j, "seconds", secs);
		json_kv_u64(j, "answers", answers);
		json_kv_u64(j, "frames", frames);
		json_kv_u64(j, "bytes", bytes);
		json_kv_u64(j, "windows", w->n);
		json_kv_double(j, "median_mib_s", med_mib);
		json_kv_double(j, "median_frames_s", med_frames);
		json_kv_double(j, "mean_mib_s", mean_mib);
		json_end_object(j);
		json_end(j);
		return;
	}
	printf("stream %s (symbol-table answers, depth %u): seconds=%.2f answers=%llu frames=%llu "
	       "bytes=%llu windows=%zu median_mib_s=%.3f median_frames_s=%.1f mean_mib_s=%.3f\n",
	       k->target, k->o->depth, secs, (unsigned long long)answers,
	       (unsigned long long)frames, (unsigned long long)bytes, w->n, med_mib, med_frames,
	       mean_mib);
}

int cmd_stream(struct kovctl *k)
{
	unsigned depth = k->o->depth;
	uint32_t inflight[MAX_DEPTH];
	unsigned head = 0, count = 0;
	size_t max_windows = (size_t)k->o->seconds + 2;
	struct window_stats w = { 0, calloc(max_windows, sizeof(double)),
	                          calloc(max_windows, sizeof(double)) };
	int rc = EXIT_OK;
	if (!w.mib_s || !w.frames_s) {
		fprintf(stderr, "kovctl: out of memory\n");
		rc = EXIT_TARGET;
		goto out;
	}
	struct kov_client_stats s0 = kov_client_stats(k->c), last = s0;
	uint64_t start = kov_now_ns(), end = start + (uint64_t)(k->o->seconds * 1e9);
	uint64_t window_start = start, window_end = start + 1000000000u, answers = 0;
	uint64_t progress = start, limit = (uint64_t)k->o->timeout_ms * 1000000u, seen = s0.bytes_in;
	for (;;) {
		while (count < depth) {
			if (request(k, &inflight[(head + count) % MAX_DEPTH]) < 0)
				goto fail;
			count++;
		}
		uint64_t now = kov_now_ns();
		if (now >= end)
			break;
		uint64_t next = window_end < end ? window_end : end;
		int r = kov_client_pump(k->c, (int)((next - now) / 1000000u) + 1);
		if (r < 0)
			goto fail;
		struct kov_answer a;
		while (count && (r = kov_client_take(k->c, inflight[head], &a)) == 1) {
			kov_answer_free(&a);
			answers++;
			head = (head + 1) % MAX_DEPTH;
			count--;
		}
		if (r < 0)
			goto fail;
		now = kov_now_ns();
		struct kov_client_stats st = kov_client_stats(k->c);
		if (st.bytes_in != seen) {
			progress = now;
			seen = st.bytes_in;
		} else if (now - progress > limit) {
			fprintf(stderr, "kovctl: no symbol-table answer from the target within %d ms\n",
			        k->o->timeout_ms);
			rc = EXIT_TARGET;
			goto out;
		}
		if (now >= window_end && w.n < max_windows) {   /* a full 1-second window */
			double dt = (double)(now - window_start) / 1e9;
			w.mib_s[w.n] = (double)(st.bytes_in - last.bytes_in) / (1024.0 * 1024.0) / dt;
			w.frames_s[w.n] = (double)(st.frames_in - last.frames_in) / dt;
			w.n++;
			last = st;
			window_start = now;
			window_end = now + 1000000000u;
		}
	}
	struct kov_client_stats st = kov_client_stats(k->c);
	double secs = (double)(kov_now_ns() - start) / 1e9;
	if (w.n == 0) {   /* shorter than a second: the whole run is the one window */
		w.mib_s[0] = (double)(st.bytes_in - s0.bytes_in) / (1024.0 * 1024.0) / secs;
		w.frames_s[0] = (double)(st.frames_in - s0.frames_in) / secs;
		w.n = 1;
	}
	report(k, secs, answers, st.frames_in - s0.frames_in, st.bytes_in - s0.bytes_in, &w);
	goto out;
fail:
	rc = kovctl_client_error(k);
out:
	free(w.mib_s);
	free(w.frames_s);
	return rc;
}

/* kovctl ping: PING round trips, back to back, timed on CLOCK_MONOTONIC from before the
 * request is sent to after its answer is read. The summary line is what the benchmark
 * parses. */
#include <stdio.h>
#include <stdlib.h>
#include "kovctl/kovctl.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

int cmd_ping(struct kovctl *k)
{
	unsigned n = k->o->count;
	uint64_t *rtt = calloc(n, sizeof *rtt);
	if (!rtt) {
		fprintf(stderr, "kovctl: out of memory\n");
		return EXIT_TARGET;
	}
	for (unsigned i = 0; i < n; i++) {
		struct proto_pong pong;
		if (kov_client_ping(k->c, 0x4B4F5600000000ull + i, &pong, &rtt[i])) {
			free(rtt);
			return kovctl_client_error(k);
		}
		if (!k->o->json)
			printf("seq=%u rtt_us=%.1f\n", i + 1, (double)rtt[i] / 1e3);
	}
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += rtt[i];
	uint64_t *sorted = malloc(n * sizeof *sorted);
	if (!sorted) {
		free(rtt);
		fprintf(stderr, "kovctl: out of memory\n");
		return EXIT_TARGET;
	}
	for (unsigned i = 0; i < n; i++)
		sorted[i] = rtt[i];
	qsort(sorted, n, sizeof *sorted, cmp_u64);
	double min = (double)sorted[0] / 1e3, max = (double)sorted[n - 1] / 1e3;
	double avg = (double)sum / n / 1e3;
	double med = (n % 2 ? (double)sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0) / 1e3;
	if (k->o->json) {
		struct json *j = &k->j;
		json_begin_object(j);
		json_kv_str(j, "target", k->target);
		json_kv_u64(j, "count", n);
		json_kv_double(j, "min_us", min);
		json_kv_double(j, "avg_us", avg);
		json_kv_double(j, "max_us", max);
		json_kv_double(j, "median_us", med);
		json_key(j, "rtt_us");
		json_begin_array(j);
		for (unsigned i = 0; i < n; i++)
			json_double(j, (double)rtt[i] / 1e3);
		json_end_array(j);
		json_end_object(j);
		json_end(j);
	} else {
		printf("ping %s: count=%u min_us=%.1f avg_us=%.1f max_us=%.1f median_us=%.1f\n",
		       k->target, n, min, avg, max, med);
	}
	free(sorted);
	free(rtt);
	return EXIT_OK;
}

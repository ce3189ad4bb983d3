/* The benchmarks' figures (viewer.h's bench_report): frame times as median, 95th percentile
 * and maximum, and per phase the same, plus where the slowest twentieth of the frames spent
 * their time, which is what says what to fix; and the drawing thread's CPU time per frame,
 * which a busy host's other processes do not lengthen (they do lengthen the wall-clock
 * times: on this 2-core host, beside a test suite, the same model's slowest frame moved
 * between 40 and 93 ms from run to run). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "viewer/viewer.h"

uint64_t bench_thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* Sorts v (n values) and gives its median, 95th percentile and maximum. */
static void quantiles(double *v, int n, double *p50, double *p95, double *max)
{
	qsort(v, (size_t)n, sizeof *v, cmp_double);
	*p50 = v[n / 2];
	*p95 = v[n * 95 / 100];
	*max = v[n - 1];
}

void bench_report(const char *label, const double *ms, const double *cpu_ms,
		  const double (*ph)[PHASES], int n)
{
	if (n <= 0)
		return;
	double *v = malloc((size_t)n * sizeof *v), p50, p95, max;
	if (!v)
		return;
	memcpy(v, ms, (size_t)n * sizeof *v);
	quantiles(v, n, &p50, &p95, &max);
	int slowest = 0;
	for (int f = 1; f < n; f++)
		slowest = ms[f] > ms[slowest] ? f : slowest;
	printf("%s: frames=%d median_ms=%.2f p95_ms=%.2f max_ms=%.2f slowest_frame=%d\n", label, n,
	       p50, p95, max, slowest);
	if (cpu_ms) {
		memcpy(v, cpu_ms, (size_t)n * sizeof *v);
		quantiles(v, n, &p50, &p95, &max);
		printf("%s: cpu median_ms=%.2f p95_ms=%.2f max_ms=%.2f (the drawing thread's own time)\n",
		       label, p50, p95, max);
	}
	double slow[PHASES] = { 0 };
	int n_slow = 0;
	for (int f = 0; f < n; f++)
		if (ms[f] >= p95) {
			n_slow++;
			for (int p = 0; p < PHASES; p++)
				slow[p] += ph[f][p];
		}
	/* The viewer's own work: the frame without putting it on the display (SDL's texture
	 * upload and present, which an X server without a GPU does on the CPU). */
	double presented = 0;
	for (int f = 0; f < n; f++) {
		v[f] = ms[f] - ph[f][PH_PRESENT];
		presented += ph[f][PH_PRESENT];
	}
	quantiles(v, n, &p50, &p95, &max);
	if (presented > 0)
		printf("%s: without_present median_ms=%.2f p95_ms=%.2f max_ms=%.2f\n", label, p50, p95, max);
	for (int p = 0; p < PHASES; p++) {
		for (int f = 0; f < n; f++)
			v[f] = ph[f][p];
		double q50, q95, qmax;
		quantiles(v, n, &q50, &q95, &qmax);
		printf("%s: phase=%s median_ms=%.2f p95_ms=%.2f max_ms=%.2f in_slowest_5%%_ms=%.2f\n",
		       label, phase_name[p], q50, q95, qmax, n_slow ? slow[p] / n_slow : 0);
	}
	free(v);
}

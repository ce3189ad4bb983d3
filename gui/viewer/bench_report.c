/* The benchmarks' figures (viewer.h's bench_report): frame times as median, 95th percentile
 * and maximum, and per phase the same, plus where the slowest twentieth of the frames spent
 * their time, which is what says what to fix; and the drawing thread's CPU time per frame,
 * which leaves out a busy host's waits for a core (on this 2-core host, beside a test suite,
 * the same model's slowest wall-clock frame moved between 40 and 93 ms from run to run), though
 * not the host slowing the thread itself (bench_ref.c). The slowest hundredth of the frames by
 * CPU time is printed frame by frame, phase by phase: a maximum is one or two frames, and a
 * mean over the slowest twentieth hides what they did. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"

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

/* The slowest hundredth of the frames by CPU time (at least one), each with its phases' CPU
 * times, slowest first. */
static void slowest_frames(const char *label, const double *ms, const double *cpu_ms,
			   const struct phase_clock *ph, int n)
{
	double *v = malloc((size_t)n * sizeof *v);
	if (!v)
		return;
	memcpy(v, cpu_ms, (size_t)n * sizeof *v);
	double p50, p95, max;
	quantiles(v, n, &p50, &p95, &max);
	int top = n / 100 > 0 ? n / 100 : 1;
	double bar = v[n - top];
	for (int f = 0, shown = 0; f < n && shown < top; f++) {
		if (cpu_ms[f] < bar)
			continue;
		shown++;
		printf("%s: slow_frame=%d cpu_ms=%.2f ms=%.2f cpu by phase:", label, f, cpu_ms[f], ms[f]);
		double other = cpu_ms[f];
		for (int p = 0; p < PHASES; p++) {
			other -= ph[f].cpu_ms[p];
			if (ph[f].cpu_ms[p] >= 0.05)
				printf(" %s=%.2f", phase_name[p], ph[f].cpu_ms[p]);
		}
		printf(other >= 0.05 ? " outside_phases=%.2f\n" : "\n", other);
	}
	free(v);
}

void bench_report(const char *label, const double *ms, const double *cpu_ms,
		  const struct phase_clock *ph, int n)
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
				slow[p] += ph[f].ms[p];
		}
	/* The viewer's own work: the frame without putting it on the display (SDL's texture
	 * upload and present, which an X server without a GPU does on the CPU). */
	double presented = 0;
	for (int f = 0; f < n; f++) {
		v[f] = ms[f] - ph[f].ms[PH_PRESENT];
		presented += ph[f].ms[PH_PRESENT];
	}
	quantiles(v, n, &p50, &p95, &max);
	if (presented > 0)
		printf("%s: without_present median_ms=%.2f p95_ms=%.2f max_ms=%.2f\n", label, p50, p95, max);
	for (int p = 0; p < PHASES; p++) {
		double q50, q95, qmax, c50, c95, cmax;
		for (int f = 0; f < n; f++)
			v[f] = ph[f].ms[p];
		quantiles(v, n, &q50, &q95, &qmax);
		for (int f = 0; f < n; f++)
			v[f] = ph[f].cpu_ms[p];
		quantiles(v, n, &c50, &c95, &cmax);
		printf("%s: phase=%s median_ms=%.2f p95_ms=%.2f max_ms=%.2f in_slowest_5%%_ms=%.2f "
		       "cpu_median_ms=%.2f cpu_p95_ms=%.2f cpu_max_ms=%.2f\n", label, phase_name[p], q50,
		       q95, qmax, n_slow ? slow[p] / n_slow : 0, c50, c95, cmax);
	}
	free(v);
	if (cpu_ms)
		slowest_frames(label, ms, cpu_ms, ph, n);
}

void bench_reference_report(const char *label, const double *ref_ms, const double *cpu_ms, int n)
{
	double *v = malloc((size_t)n * sizeof *v), r50, r95, rmax, c50, c95, cmax;
	if (n <= 0 || !v) {
		free(v);
		return;
	}
	memcpy(v, ref_ms, (size_t)n * sizeof *v);
	quantiles(v, n, &r50, &r95, &rmax);
	memcpy(v, cpu_ms, (size_t)n * sizeof *v);
	quantiles(v, n, &c50, &c95, &cmax);
	printf("%s: reference median_ms=%.2f p95_ms=%.2f max_ms=%.2f max/median=%.1f, frames' cpu "
	       "max/median=%.1f (the same fixed work after every frame, CPU time: the host's share "
	       "of the slow frames)\n", label, r50, r95, rmax, rmax / r50, cmax / c50);
	free(v);
}

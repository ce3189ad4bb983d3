/* Metric time series: a ring of (host time, value) points per pane. */
#include <stdlib.h>
#include "viewer/viewer.h"

void series_init(struct series *s)
{
	s->v = calloc(SERIES_CAP, sizeof *s->v);
	s->t = calloc(SERIES_CAP, sizeof *s->t);
	s->head = s->n = 0;
}

void series_free(struct series *s)
{
	free(s->v);
	free(s->t);
	s->v = NULL;
	s->t = NULL;
}

void series_push(struct series *s, uint64_t t, double v)
{
	if (!s->v)
		return;
	s->v[s->head] = v;
	s->t[s->head] = t;
	s->head = (s->head + 1) % SERIES_CAP;
	if (s->n < SERIES_CAP)
		s->n++;
}

bool series_at(const struct series *s, size_t i, uint64_t *t, double *v)
{
	if (i >= s->n)
		return false;
	size_t k = (s->head + SERIES_CAP - 1 - i) % SERIES_CAP;
	*t = s->t[k];
	*v = s->v[k];
	return true;
}

size_t series_since(const struct series *s, uint64_t from)
{
	/* Points are pushed with the monotonic clock's time, so the ring holds them oldest to
	 * newest and those at or after `from` are the newest m: a binary search for m (the
	 * charts ask for it every frame, over ten minutes of points). */
	size_t lo = 0, hi = s->n;   /* the i-th newest is at or after from for i < lo, not at hi */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->t[(s->head + SERIES_CAP - 1 - mid) % SERIES_CAP] >= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

bool series_stats(const struct series *s, uint64_t from, uint64_t to, double *min, double *avg,
	double *max, size_t *count)
{
	double sum = 0;
	size_t n = 0, m = series_since(s, from);
	/* The m newest points: [head - m, head) of the ring, or its two ends when it wraps. */
	size_t start = (s->head + SERIES_CAP - m) % SERIES_CAP;
	for (size_t j = 0, k = start; j < m; j++, k = k + 1 < SERIES_CAP ? k + 1 : 0) {
		double v = s->v[k];
		if (s->t[k] >= to)
			continue;
		if (!n || v < *min)
			*min = v;
		if (!n || v > *max)
			*max = v;
		sum += v;
		n++;
	}
	*count = n;
	if (n)
		*avg = sum / (double)n;
	return n > 0;
}

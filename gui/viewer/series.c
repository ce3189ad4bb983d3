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
	/* Newest first, over the ring's two runs of memory without an index computed per point. */
	size_t m = 0;
	for (size_t k = s->head; k-- > 0 && m < s->n; m++)
		if (s->t[k] < from)
			return m;
	for (size_t k = SERIES_CAP; k-- > s->head && m < s->n; m++)
		if (s->t[k] < from)
			return m;
	return m;
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

/* Callgrind's profile format (gui/kovctl/export.h): for each function its self samples, and
 * for each caller -> callee edge the samples of stacks through it (inclusive) and how many
 * distinct stacks pass (as calls). A function twice on one stack (recursion) counts the
 * stack once per edge, as callgrind's own cycles do. Files are programs: "kernel" or the
 * process's name, so main of one program is not main of another. */
#include <stdlib.h>
#include <string.h>
#include "kovctl/export.h"

struct edge { uint32_t from, to; uint64_t inclusive, calls; };

static int edge_cmp(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return x->to < y->to ? -1 : x->to > y->to;
}


int export_callgrind(const struct kov_profile *p, FILE *out)
{
	uint64_t *self = calloc(p->n_names + 1, sizeof *self);
	size_t n_edges = 0;
	for (size_t i = 0; i < p->n_stacks; i++)
		n_edges += p->stacks[i].depth ? p->stacks[i].depth - 1 : 0;
	struct edge *e = malloc((n_edges + 1) * sizeof *e);
	if (!self || !e) {
		free(self), free(e);
		return -1;
	}
	n_edges = 0;
	for (size_t i = 0; i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		if (!s->depth)
			continue;
		self[s->frames[s->depth - 1]] += s->samples;
		for (uint32_t k = 0; k + 1 < s->depth; k++)
			e[n_edges++] = (struct edge){ s->frames[k], s->frames[k + 1], s->samples, 1 };
	}
	qsort(e, n_edges, sizeof *e, edge_cmp);
	size_t m = 0;   /* one edge per (caller, callee) */
	for (size_t i = 0; i < n_edges; i++) {
		if (m && e[m - 1].from == e[i].from && e[m - 1].to == e[i].to) {
			e[m - 1].inclusive += e[i].inclusive;
			e[m - 1].calls += e[i].calls;
		} else {
			e[m++] = e[i];
		}
	}
	fprintf(out, "# callgrind format\nversion: 1\ncreator: kovctl export\n"
		"cmd: KOV samples\npositions: line\nevents: Samples\nsummary: %llu\n\n",
		(unsigned long long)p->samples);
	size_t j = 0;
	for (uint32_t fn = 0; fn < p->n_names; fn++) {
		bool calls = j < m && e[j].from == fn;
		if (!self[fn] && !calls)
			continue;
		fprintf(out, "fl=%s\nfn=%s\n0 %llu\n", p->files[fn], p->names[fn],
			(unsigned long long)self[fn]);
		for (; j < m && e[j].from == fn; j++)
			fprintf(out, "cfl=%s\ncfn=%s\ncalls=%llu 0\n0 %llu\n", p->files[e[j].to],
				p->names[e[j].to], (unsigned long long)e[j].calls,
				(unsigned long long)e[j].inclusive);
		fputc('\n', out);
	}
	free(self), free(e);
	return ferror(out) ? -1 : 0;
}

/* Chain tables of a connection (gui/client/chains.h). */
#include <stdlib.h>
#include <string.h>
#include "client/chains.h"
#include "client/grow.h"

static size_t lower_bound(const struct kov_chains *t, uint32_t id)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->items[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static int add(struct kov_chains *t, const struct proto_chain *c)
{
	size_t i = lower_bound(t, c->id);
	if (i < t->n && t->items[i].id == c->id) {
		t->items[i] = *c;
		return 0;
	}
	if (!kov_grow((void **)&t->items, &t->cap, t->n + 1, sizeof *t->items))
		return -1;
	memmove(&t->items[i + 1], &t->items[i], (t->n - i) * sizeof *t->items);
	t->items[i] = *c;
	t->n++;
	return 0;
}

int kov_chains_note(struct kov_chains *t, const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_chain c;
	if (proto_decode_chains(f, &h, &it) != 0)
		return -1;
	while (proto_next_chain(&it, &c))
		if (add(t, &c) != 0)
			return -1;
	return 0;
}

const struct proto_chain *kov_chains_get(const struct kov_chains *t, uint32_t id)
{
	size_t i = lower_bound(t, id);
	return i < t->n && t->items[i].id == id ? &t->items[i] : NULL;
}

void kov_chains_free(struct kov_chains *t)
{
	free(t->items);
	memset(t, 0, sizeof *t);
}

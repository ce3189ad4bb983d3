/* Flame graph call trees and callers (gui/client/flame.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "client/flame.h"
#include "client/grow.h"

static uint64_t slot_hash(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9E3779B97F4A7C15ull;
	return h ^ (h >> 31);
}

static bool grow_slots(struct kov_flame *fl)
{
	size_t m = fl->slots ? fl->slots : 1024;
	while (m < 2 * (fl->n + 1))
		m *= 2;
	if (m == fl->slots)
		return true;
	uint32_t *s = calloc(m, sizeof *s);
	if (!s)
		return false;
	for (size_t i = 1; i < fl->n; i++) {   /* the root is never looked up */
		size_t k = slot_hash(fl->nodes[i].parent, fl->nodes[i].name) & (m - 1);
		while (s[k])
			k = (k + 1) & (m - 1);
		s[k] = (uint32_t)i + 1;
	}
	free(fl->slot);
	fl->slot = s;
	fl->slots = m;
	return true;
}

static long new_node(struct kov_flame *fl, uint32_t name, uint32_t parent)
{
	if (!kov_grow((void **)&fl->nodes, &fl->cap, fl->n + 1, sizeof *fl->nodes))
		return -1;
	uint32_t depth = parent == KOV_FLAME_NONE ? 0 : fl->nodes[parent].depth + 1;
	fl->nodes[fl->n] = (struct kov_flame_node){ name, parent, KOV_FLAME_NONE, KOV_FLAME_NONE, depth, 0, 0 };
	return (long)fl->n++;
}

/* The child of parent named name, made when new. */
static long child(struct kov_flame *fl, uint32_t parent, uint32_t name)
{
	if (!grow_slots(fl))
		return -1;
	size_t k = slot_hash(parent, name) & (fl->slots - 1);
	for (; fl->slot[k]; k = (k + 1) & (fl->slots - 1)) {
		const struct kov_flame_node *n = &fl->nodes[fl->slot[k] - 1];
		if (n->parent == parent && n->name == name)
			return fl->slot[k] - 1;
	}
	long i = new_node(fl, name, parent);
	if (i >= 0)
		fl->slot[k] = (uint32_t)i + 1;
	return i;
}

bool kov_flame_is_object(const struct kov_profile *p, uint32_t i, const struct kov_profile_obj *o)
{
	const struct kov_profile_obj *x = p->objects && i < p->n_names ? &p->objects[i] : NULL;
	return x && o->coid && x->coid == o->coid && x->space == o->space && x->gen == o->gen;
}

/* Where stack s enters the scope: the index of its first frame under the root, or -1 when
 * it is not in the scope. */
static int entry(const struct kov_profile *p, const struct kov_profile_stack *s,
		 const struct kov_flame_filter *f)
{
	switch (f->scope) {
	case KOV_FLAME_TARGET:
		return 0;
	case KOV_FLAME_PROCESS:
		return s->depth && p->objects[s->frames[0]].space == f->pid ? 1 : -1;
	case KOV_FLAME_OBJECT:
		for (uint32_t k = 1; k < s->depth; k++)   /* frame 0 is the process */
			if (kov_flame_is_object(p, s->frames[k], &f->obj))
				return (int)k;
		return -1;
	}
	return -1;
}

struct weighed { uint64_t total; uint32_t node; };

static int by_total(const void *a, const void *b)
{
	const struct weighed *x = a, *y = b;
	if (x->total != y->total)
		return x->total > y->total ? -1 : 1;
	return x->node < y->node ? -1 : x->node > y->node;   /* ties in order of appearance */
}

/* Links every node's children, heaviest first. */
static bool link_children(struct kov_flame *fl)
{
	struct weighed *order = malloc(fl->n * sizeof *order);
	if (!order)
		return false;
	for (size_t i = 0; i < fl->n; i++) {
		order[i] = (struct weighed){ fl->nodes[i].total, (uint32_t)i };
		fl->nodes[i].child = fl->nodes[i].sibling = KOV_FLAME_NONE;
	}
	/* Sorting all nodes by weight, then linking in reverse, leaves each list heaviest first. */
	qsort(order, fl->n, sizeof *order, by_total);
	for (size_t i = fl->n; i-- > 0;) {
		struct kov_flame_node *n = &fl->nodes[order[i].node];
		if (n->parent == KOV_FLAME_NONE)
			continue;
		n->sibling = fl->nodes[n->parent].child;
		fl->nodes[n->parent].child = order[i].node;
	}
	free(order);
	return true;
}

int kov_flame_build(struct kov_flame *fl, const struct kov_profile *p, const struct kov_flame_filter *f)
{
	fl->n = 0;
	fl->total = 0;
	fl->stacks = 0;
	if (fl->slot)
		memset(fl->slot, 0, fl->slots * sizeof *fl->slot);
	if (f->scope != KOV_FLAME_TARGET && !p->objects && p->n_names)
		return -1;
	if (new_node(fl, KOV_FLAME_NONE, KOV_FLAME_NONE) < 0)
		return -1;
	bool root_named = f->scope != KOV_FLAME_PROCESS;
	for (size_t i = 0; i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		int e = entry(p, s, f);
		if (e < 0 || !s->samples)
			continue;
		if (!root_named) {   /* the process's own frame is the root */
			fl->nodes[0].name = s->frames[0];
			root_named = true;
		}
		uint32_t at = 0;
		fl->nodes[0].total += s->samples;
		for (uint32_t k = (uint32_t)e; k < s->depth; k++) {
			long c = child(fl, at, s->frames[k]);
			if (c < 0)
				return -1;
			at = (uint32_t)c;
			fl->nodes[at].total += s->samples;
		}
		fl->nodes[at].self += s->samples;
		fl->stacks++;
	}
	fl->total = fl->nodes[0].total;
	return link_children(fl) ? 0 : -1;
}

void kov_flame_free(struct kov_flame *fl)
{
	free(fl->nodes);
	free(fl->slot);
	memset(fl, 0, sizeof *fl);
}

static bool contains(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++) {
		size_t k = 0;
		while (k < n && hay[k] && tolower((unsigned char)hay[k]) == tolower((unsigned char)needle[k]))
			k++;
		if (k == n)
			return true;
	}
	return false;
}

uint64_t kov_flame_search(const struct kov_flame *fl, const struct kov_profile *p, const char *text,
			  bool *match)
{
	uint64_t matched = 0;
	/* Parents come before their children, so an ancestor's match is known when a node's is. */
	for (size_t i = 0; i < fl->n; i++) {
		const struct kov_flame_node *n = &fl->nodes[i];
		match[i] = text[0] && n->name != KOV_FLAME_NONE && n->name < p->n_names &&
			   contains(p->names[n->name], text);
		bool above = false;
		for (uint32_t a = n->parent; match[i] && !above && a != KOV_FLAME_NONE;
		     a = fl->nodes[a].parent)
			above = match[a];
		if (match[i] && !above)
			matched += n->total;
	}
	return matched;
}

static int by_samples(const void *a, const void *b)
{
	const struct kov_flame_caller *x = a, *y = b;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

int kov_flame_callers(struct kov_flame_callers *c, const struct kov_profile *p,
		      const struct kov_profile_obj *o)
{
	memset(c, 0, sizeof *c);
	struct kov_flame_filter f = { KOV_FLAME_OBJECT, 0, *o };
	size_t cap = 0;
	if (!p->objects && p->n_names)
		return -1;
	for (size_t i = 0; i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		int e = entry(p, s, &f);
		if (e < 1 || !s->samples)
			continue;
		uint32_t name = s->frames[e - 1];
		size_t k = 0;
		while (k < c->n && c->items[k].name != name)
			k++;
		if (k == c->n) {
			if (!kov_grow((void **)&c->items, &cap, c->n + 1, sizeof *c->items)) {
				kov_flame_callers_free(c);
				return -1;
			}
			c->items[c->n++] = (struct kov_flame_caller){ name, 0, 0 };
		}
		c->items[k].samples += s->samples;
		c->total += s->samples;
	}
	for (size_t k = 0; k < c->n; k++)
		c->items[k].share = 100.0 * (double)c->items[k].samples / (double)c->total;
	if (c->n)
		qsort(c->items, c->n, sizeof *c->items, by_samples);
	return 0;
}

void kov_flame_callers_free(struct kov_flame_callers *c)
{
	free(c->items);
	memset(c, 0, sizeof *c);
}

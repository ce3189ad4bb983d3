/* Raw stacks counted as samples arrive, named into a profile (gui/client/livestacks.h). */
#include <stdlib.h>
#include <string.h>
#include "client/livestacks.h"
#include "client/grow.h"

struct kov_live_raw {
	uint32_t pid, user_pid;
	uint16_t depth;
	struct proto_chain_frame *frames;   /* depth of them, innermost first */
	uint64_t samples, events;
	long named;                         /* its stack in prof, -1 when naming failed */
};

static uint64_t raw_hash(const struct kov_raw_stack *r)
{
	uint64_t h = 1469598103934665603ull ^ r->pid ^ ((uint64_t)r->user_pid << 32);
	for (int i = 0; i < r->depth; i++) {
		const struct proto_chain_frame *f = &r->frames[i];
		h = (h ^ f->pc) * 1099511628211ull;
		h = (h ^ f->coid ^ ((uint64_t)f->gen << 40) ^ f->flags) * 1099511628211ull;
	}
	return h ^ (h >> 29);
}

static bool same(const struct kov_live_raw *a, const struct kov_raw_stack *r)
{
	return a->pid == r->pid && a->user_pid == r->user_pid && a->depth == r->depth &&
	       proto_chain_frames_equal(a->frames, r->frames, r->depth);
}

static void raw_stack(const struct kov_live_raw *a, struct kov_raw_stack *r)
{
	r->pid = a->pid;
	r->user_pid = a->user_pid;
	r->depth = a->depth;
	memcpy(r->frames, a->frames, a->depth * sizeof *a->frames);
}

bool kov_live_init(struct kov_live_stacks *l, size_t max)
{
	memset(l, 0, sizeof *l);
	l->max_raw = max;
	l->prof.by_object = true;
	l->slots = 1;
	while (l->slots < 2 * max + 2)
		l->slots *= 2;
	l->slot = calloc(l->slots, sizeof *l->slot);
	l->names = kov_profile_names_new();
	return l->slot && l->names;
}

void kov_live_free(struct kov_live_stacks *l)
{
	for (size_t i = 0; i < l->n_raw; i++)
		free(l->raw[i].frames);
	free(l->raw);
	free(l->slot);
	kov_profile_names_free(l->names);
	kov_profile_free(&l->prof);
	memset(l, 0, sizeof *l);
}

static void count(struct kov_live_stacks *l, const struct kov_raw_stack *r, uint64_t events)
{
	uint64_t h = raw_hash(r);
	size_t k = h & (l->slots - 1);
	for (; l->slot[k]; k = (k + 1) & (l->slots - 1)) {
		struct kov_live_raw *a = &l->raw[l->slot[k] - 1];
		if (!same(a, r))
			continue;
		a->samples++;
		a->events += events;
		l->samples++;
		if (a->named >= 0) {   /* the named stack follows without naming again */
			l->prof.stacks[a->named].samples++;
			l->prof.stacks[a->named].events += events;
			l->prof.samples++;
		}
		return;
	}
	if (l->n_raw >= l->max_raw) {
		size_t bit = (h >> 20) % (8 * sizeof l->seen);
		l->not_kept_stacks += !(l->seen[bit / 8] & (1u << bit % 8));
		l->seen[bit / 8] |= (uint8_t)(1u << bit % 8);
		l->not_kept++;
		return;
	}
	if (!kov_grow((void **)&l->raw, &l->cap_raw, l->n_raw + 1, sizeof *l->raw)) {
		l->oom = true;
		return;
	}
	struct proto_chain_frame *fr = malloc(r->depth * sizeof *fr);
	if (!fr) {
		l->oom = true;
		return;
	}
	memcpy(fr, r->frames, r->depth * sizeof *fr);
	struct kov_live_raw *a = &l->raw[l->n_raw];
	*a = (struct kov_live_raw){ r->pid, r->user_pid, r->depth, fr, 1, events, -1 };
	a->named = kov_profile_add(&l->prof, l->names, r, 1, events);
	l->slot[k] = (uint32_t)++l->n_raw;
	l->samples++;
}

void kov_live_frame(struct kov_live_stacks *l, const struct proto_frame *f)
{
	if (l->oom || !l->names)
		return;
	if (!proto_is_samples(f->type)) {
		if (!kov_profile_names_note(l->names, f))
			l->oom = true;
		return;   /* what it changed shows when the stacks are named again */
	}
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample s;
	if (proto_decode_any_samples(f, &h, &it) != 0)
		return;
	while (proto_next_any_sample(&it, &s) && !l->oom) {
		const struct proto_chain *c = s.chain_id ? kov_profile_names_chain(l->names, s.chain_id) : NULL;
		struct kov_raw_stack r;
		l->unknown_chain += s.chain_id && !c;
		l->chained += c != NULL;
		kov_raw_stack_of(&s, c, &r);
		count(l, &r, s.period);
	}
	l->version++;
}

void kov_live_rename(struct kov_live_stacks *l)
{
	if (!l->names || l->named_gen == kov_profile_names_gen(l->names))
		return;
	kov_profile_free(&l->prof);
	for (size_t i = 0; i < l->n_raw; i++) {
		struct kov_raw_stack r;
		raw_stack(&l->raw[i], &r);
		l->raw[i].named = kov_profile_add(&l->prof, l->names, &r, l->raw[i].samples, l->raw[i].events);
	}
	l->named_gen = kov_profile_names_gen(l->names);
	l->version++;
}

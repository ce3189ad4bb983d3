/* Call stacks from samples (gui/client/profile.h): naming a raw stack's frames, interning
 * names and stacks, and reading a recording whole (so symbols, scans and chain definitions
 * are known whatever their order among the samples). */
#include <stdlib.h>
#include <string.h>
#include "client/profile_priv.h"
#include "client/recording.h"

/* name -> index and stack -> index: open addressing, sized for at most half full */
struct kov_profile_index {
	uint32_t *name_slot;
	size_t name_slots, cap_names, cap_files, cap_objects;
	uint32_t *stack_slot;
	size_t stack_slots, cap_stacks;
};

static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

static uint64_t key_hash(const char *name, const char *file, const struct kov_profile_obj *o)
{
	uint64_t h = hash_bytes(name, strlen(name) + 1, 1469598103934665603ull);
	h = hash_bytes(file, strlen(file), h);
	return hash_bytes(&o->coid, sizeof o->coid, h) ^ ((uint64_t)o->space << 7) ^ o->gen;
}

static const struct kov_profile_obj no_obj;

static const struct kov_profile_obj *obj_of(const struct kov_profile *p, uint32_t i)
{
	return p->objects ? &p->objects[i] : &no_obj;
}

static uint64_t name_hash(const struct kov_profile *p, uint32_t i)
{
	return key_hash(p->names[i], p->files[i], obj_of(p, i));
}

static uint64_t stack_hash(const struct kov_profile *p, uint32_t i)
{
	return hash_bytes(p->stacks[i].frames, p->stacks[i].depth * sizeof(uint32_t),
			  1469598103934665603ull);
}

/* Rebuilds a hash index of n entries into at least 2n slots. */
static bool rehash(uint32_t **slot, size_t *slots, size_t n,
		   uint64_t (*h)(const struct kov_profile *, uint32_t), const struct kov_profile *p)
{
	size_t m = *slots ? *slots : 256;
	while (m < 2 * (n + 1))
		m *= 2;
	if (m == *slots)
		return true;
	uint32_t *s = calloc(m, sizeof *s);
	if (!s)
		return false;
	for (uint32_t i = 0; i < n; i++) {
		size_t k = h(p, i) & (m - 1);
		while (s[k])
			k = (k + 1) & (m - 1);
		s[k] = i + 1;
	}
	free(*slot);
	*slot = s;
	*slots = m;
	return true;
}

static bool same_obj(const struct kov_profile_obj *a, const struct kov_profile_obj *b)
{
	return a->space == b->space && a->coid == b->coid && a->gen == b->gen;
}

/* The index of frame (name, file, object), added if new; -1 when memory ran out. */
static long intern(struct kov_profile *p, const char *name, const char *file,
		   const struct kov_profile_obj *o)
{
	struct kov_profile_index *x = p->index;
	if (!p->by_object)
		o = &no_obj;
	if (!rehash(&x->name_slot, &x->name_slots, p->n_names, name_hash, p))
		return -1;
	size_t k = key_hash(name, file, o) & (x->name_slots - 1);
	for (; x->name_slot[k]; k = (k + 1) & (x->name_slots - 1)) {
		uint32_t i = x->name_slot[k] - 1;
		if (!strcmp(p->names[i], name) && !strcmp(p->files[i], file) && same_obj(obj_of(p, i), o))
			return i;
	}
	char *d = strdup(name), *fd = strdup(file);
	if (!d || !fd || !kov_grow((void **)&p->names, &x->cap_names, p->n_names + 1, sizeof *p->names) ||
	    !kov_grow((void **)&p->files, &x->cap_files, p->n_names + 1, sizeof *p->files) ||
	    (p->by_object && !kov_grow((void **)&p->objects, &x->cap_objects, p->n_names + 1, sizeof *p->objects))) {
		free(d), free(fd);
		return -1;
	}
	p->names[p->n_names] = d;
	p->files[p->n_names] = fd;
	if (p->by_object)
		p->objects[p->n_names] = *o;
	x->name_slot[k] = (uint32_t)++p->n_names;
	return (long)p->n_names - 1;
}

static long add_stack(struct kov_profile *p, const uint32_t *f, uint32_t depth, uint64_t samples,
		      uint64_t events)
{
	struct kov_profile_index *x = p->index;
	if (!rehash(&x->stack_slot, &x->stack_slots, p->n_stacks, stack_hash, p))
		return -1;
	size_t k = hash_bytes(f, depth * sizeof *f, 1469598103934665603ull) & (x->stack_slots - 1);
	for (; x->stack_slot[k]; k = (k + 1) & (x->stack_slots - 1)) {
		struct kov_profile_stack *s = &p->stacks[x->stack_slot[k] - 1];
		if (s->depth == depth && !memcmp(s->frames, f, depth * sizeof *f)) {
			s->samples += samples;
			s->events += events;
			p->samples += samples;
			return x->stack_slot[k] - 1;
		}
	}
	uint32_t *copy = malloc(depth * sizeof *copy);
	if (!copy || !kov_grow((void **)&p->stacks, &x->cap_stacks, p->n_stacks + 1, sizeof *p->stacks)) {
		free(copy);
		return -1;
	}
	memcpy(copy, f, depth * sizeof *f);
	p->stacks[p->n_stacks] = (struct kov_profile_stack){ copy, depth, samples, events };
	p->samples += samples;
	x->stack_slot[k] = (uint32_t)++p->n_stacks;
	return (long)p->n_stacks - 1;
}

static long frame(struct kov_profile *p, const struct kov_profile_names *n, const char *root,
		  uint32_t pid, const struct proto_chain_frame *cf)
{
	char name[PROTO_SYMBOL_MAX + PROTO_NAME_MAX + 40], fn[PROTO_SYMBOL_MAX + 24];
	bool kernel = !(cf->flags & PROTO_FRAME_USER), object = cf->flags & PROTO_FRAME_OBJECT;
	uint32_t space = kernel ? 0 : pid;
	const char *s = kov_names_symbol(n, space, cf->pc);
	if (s)
		snprintf(fn, sizeof fn, "%s", s);
	else
		snprintf(fn, sizeof fn, "0x%llx", (unsigned long long)cf->pc);
	const char *cls = object ? kov_names_class(n, space, cf->coid) : NULL;
	if (object && cls)
		snprintf(name, sizeof name, "%s::%s%s", cls, fn, kernel ? "_[k]" : "");
	else if (object)
		snprintf(name, sizeof name, "object@0x%llx::%s%s", (unsigned long long)cf->coid, fn,
			 kernel ? "_[k]" : "");
	else
		snprintf(name, sizeof name, "%s%s", fn, kernel ? "_[k]" : "");
	struct kov_profile_obj o = { 0 };
	if (object)
		o = (struct kov_profile_obj){ space, cf->coid, cf->gen };
	return intern(p, name, kernel ? "kernel" : root, &o);
}

void kov_raw_stack_of(const struct proto_sample *s, const struct proto_chain *c,
		      struct kov_raw_stack *r)
{
	r->pid = s->pid;
	if (c) {
		r->user_pid = c->pid;
		r->depth = c->depth;
		memcpy(r->frames, c->frames, c->depth * sizeof *c->frames);
		return;
	}
	bool object = !(s->flags & PROTO_SMP_NO_OBJECT);
	r->user_pid = s->pid;
	r->depth = 1;
	r->frames[0] = (struct proto_chain_frame){
		(uint8_t)((s->flags & PROTO_SMP_KERNEL ? 0 : PROTO_FRAME_USER) | (object ? PROTO_FRAME_OBJECT : 0)),
		s->pc, object ? s->coid : 0, object ? s->gen : 0 };
}

long kov_profile_add(struct kov_profile *p, const struct kov_profile_names *n,
		     const struct kov_raw_stack *r, uint64_t samples, uint64_t events)
{
	if (!p->index && !(p->index = calloc(1, sizeof *p->index)))
		return -1;
	uint32_t f[PROTO_MAX_CHAIN_DEPTH + 1], depth = 0;
	char root[PROTO_NAME_MAX + 16];
	const char *pn = r->pid ? kov_names_process(n, r->pid) : "kernel";
	if (pn)
		snprintf(root, sizeof root, "%s", pn);
	else
		snprintf(root, sizeof root, "pid %u", (unsigned)r->pid);
	struct kov_profile_obj ro = { r->pid, 0, 0 };
	long i = intern(p, root, root, &ro);
	if (i < 0)
		return -1;
	f[depth++] = (uint32_t)i;
	for (int k = r->depth - 1; k >= 0 && k < PROTO_MAX_CHAIN_DEPTH; k--) {
		if ((i = frame(p, n, root, r->user_pid, &r->frames[k])) < 0)
			return -1;
		f[depth++] = (uint32_t)i;
	}
	return add_stack(p, f, depth, samples, events);
}

int kov_profile_load(FILE *f, const char *event, struct kov_profile *p, char *err, size_t n)
{
	memset(p, 0, sizeof *p);
	struct kov_profile_names *names = kov_profile_names_new();
	struct kov_frame *frames = NULL;
	size_t n_frames = 0, cap_frames = 0;
	bool oom = !names;
	int rc = -1;
	if (oom) {
		snprintf(err, n, "out of memory");
		return -1;
	}
	if (!kov_rec_open(f)) {
		snprintf(err, n, "not a KOV recording");
		goto out;
	}
	struct kov_frame fr;
	uint64_t ns;
	int got;
	while ((got = kov_rec_next(f, &fr, &ns)) == 1) {
		if (!kov_grow((void **)&frames, &cap_frames, n_frames + 1, sizeof *frames)) {
			kov_frame_free(&fr);
			oom = true;
			break;
		}
		frames[n_frames++] = fr;
	}
	if (got < 0) {
		snprintf(err, n, "the recording is broken after %zu frames", n_frames);
		goto out;
	}
	for (size_t i = 0; i < n_frames && !oom; i++)
		oom = !kov_profile_names_note(names, &frames[i].f);
	int want = event ? kov_names_event(names, event) : -1;
	if (event && want < 0 && !oom) {
		snprintf(err, n, "event %s is not in the recording's catalogue", event);
		goto out;
	}
	for (size_t i = 0; i < n_frames && !oom; i++) {
		const struct proto_frame *pf = &frames[i].f;
		struct proto_samples_head h;
		struct proto_iter it;
		struct proto_sample s;
		if (!proto_is_samples(pf->type) || proto_decode_any_samples(pf, &h, &it) != 0)
			continue;
		while (proto_next_any_sample(&it, &s) && !oom) {
			if (want >= 0 && s.event != want) {
				p->skipped++;
				continue;
			}
			const struct proto_chain *c = s.chain_id ? kov_profile_names_chain(names, s.chain_id) : NULL;
			struct kov_raw_stack r;
			p->unknown_chain += s.chain_id && !c;
			p->chained += c != NULL;
			kov_raw_stack_of(&s, c, &r);
			oom = kov_profile_add(p, names, &r, 1, s.period) < 0;
		}
	}
	if (oom)
		snprintf(err, n, "out of memory");
	else
		rc = 0;
out:
	for (size_t i = 0; i < n_frames; i++)
		kov_frame_free(&frames[i]);
	free(frames);
	kov_profile_names_free(names);
	if (rc)
		kov_profile_free(p);
	return rc;
}

bool kov_profile_kernel(const struct kov_profile *p, uint32_t i)
{
	size_t len = i < p->n_names ? strlen(p->names[i]) : 0;
	return len >= 4 && !strcmp(p->names[i] + len - 4, "_[k]");
}

void kov_profile_free(struct kov_profile *p)
{
	bool by_object = p->by_object;
	for (size_t i = 0; i < p->n_names; i++)
		free(p->names[i]), free(p->files[i]);
	free(p->names);
	free(p->files);
	free(p->objects);
	for (size_t i = 0; i < p->n_stacks; i++)
		free(p->stacks[i].frames);
	free(p->stacks);
	if (p->index) {
		free(p->index->name_slot);
		free(p->index->stack_slot);
		free(p->index);
	}
	memset(p, 0, sizeof *p);
	p->by_object = by_object;   /* a setting, not content */
}

/* Call stacks from a recording (gui/client/profile.h). The recording is read whole first, so
 * symbols, scans and chain definitions are known whatever their order among the samples. */
#include <stdlib.h>
#include <string.h>
#include "client/chains.h"
#include "client/profile.h"
#include "client/recording.h"

struct sym { uint64_t start; uint32_t size; char *name; };
struct symtab { uint32_t pid; struct sym *s; size_t n, cap; };
struct obj { uint32_t pid; uint64_t coid; char *cls; };
struct proc { uint32_t pid; char *name; };

struct builder {
	struct symtab *tabs; size_t n_tabs;
	struct obj *objs; size_t n_objs, cap_objs;
	struct proc *procs; size_t n_procs, cap_procs;
	struct kov_chains chains;
	char names_ev[1024][PROTO_NAME_MAX + 1];   /* catalogue */
	/* name -> index and stack -> index: open addressing, sized for at most half full */
	uint32_t *name_slot; size_t name_slots;
	uint32_t *stack_slot; size_t stack_slots;
	size_t cap_names, cap_stacks;
	bool oom;
};

static void *grow(void *p, size_t *cap, size_t need, size_t size, bool *oom)
{
	if (need <= *cap)
		return p;
	size_t c = *cap ? *cap * 2 : 64;
	while (c < need)
		c *= 2;
	void *q = realloc(p, c * size);
	if (!q) {
		*oom = true;
		return p;
	}
	*cap = c;
	return q;
}

static char *dup_str(struct proto_str s)
{
	char *d = malloc((size_t)s.len + 1);
	if (d) {
		memcpy(d, s.s, s.len);
		d[s.len] = 0;
	}
	return d;
}

static uint64_t hash_bytes(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ull;
	return h;
}

/* Rebuilds a hash index of n entries into at least 2n slots. */
static bool rehash(uint32_t **slot, size_t *slots, size_t n, uint64_t (*h)(const struct kov_profile *, uint32_t),
		   const struct kov_profile *p)
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

static uint64_t pair_hash(const char *name, const char *file)
{
	return hash_bytes(name, strlen(name)) ^ (hash_bytes(file, strlen(file)) * 31);
}

static uint64_t name_hash(const struct kov_profile *p, uint32_t i)
{
	return pair_hash(p->names[i], p->files[i]);
}

static uint64_t stack_hash(const struct kov_profile *p, uint32_t i)
{
	return hash_bytes(p->stacks[i].frames, p->stacks[i].depth * sizeof(uint32_t));
}

static uint32_t intern(struct kov_profile *p, struct builder *b, const char *name,
		       const char *file)
{
	if (!rehash(&b->name_slot, &b->name_slots, p->n_names, name_hash, p)) {
		b->oom = true;
		return 0;
	}
	size_t k = pair_hash(name, file) & (b->name_slots - 1);
	for (; b->name_slot[k]; k = (k + 1) & (b->name_slots - 1))
		if (!strcmp(p->names[b->name_slot[k] - 1], name) &&
		    !strcmp(p->files[b->name_slot[k] - 1], file))
			return b->name_slot[k] - 1;
	size_t cap = b->cap_names;
	p->names = grow(p->names, &cap, p->n_names + 1, sizeof *p->names, &b->oom);
	p->files = grow(p->files, &b->cap_names, p->n_names + 1, sizeof *p->files, &b->oom);
	char *d = strdup(name), *fd = strdup(file);
	if (b->oom || !d || !fd) {
		free(d), free(fd);
		b->oom = true;
		return 0;
	}
	p->names[p->n_names] = d;
	p->files[p->n_names] = fd;
	b->name_slot[k] = (uint32_t)++p->n_names;
	return (uint32_t)p->n_names - 1;
}

static void add_stack(struct kov_profile *p, struct builder *b, const uint32_t *f, uint32_t depth,
		      uint64_t events)
{
	if (!rehash(&b->stack_slot, &b->stack_slots, p->n_stacks, stack_hash, p)) {
		b->oom = true;
		return;
	}
	size_t k = hash_bytes(f, depth * sizeof *f) & (b->stack_slots - 1);
	for (; b->stack_slot[k]; k = (k + 1) & (b->stack_slots - 1)) {
		struct kov_profile_stack *s = &p->stacks[b->stack_slot[k] - 1];
		if (s->depth == depth && !memcmp(s->frames, f, depth * sizeof *f)) {
			s->samples++;
			s->events += events;
			return;
		}
	}
	p->stacks = grow(p->stacks, &b->cap_stacks, p->n_stacks + 1, sizeof *p->stacks, &b->oom);
	uint32_t *copy = malloc(depth * sizeof *copy);
	if (b->oom || !copy) {
		free(copy);
		b->oom = true;
		return;
	}
	memcpy(copy, f, depth * sizeof *f);
	p->stacks[p->n_stacks] = (struct kov_profile_stack){ copy, depth, 1, events };
	b->stack_slot[k] = (uint32_t)++p->n_stacks;
}

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int obj_cmp(const void *a, const void *b)
{
	const struct obj *x = a, *y = b;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->coid < y->coid ? -1 : x->coid > y->coid;
}

static struct symtab *symtab(struct builder *b, uint32_t pid, bool make)
{
	for (size_t i = 0; i < b->n_tabs; i++)
		if (b->tabs[i].pid == pid)
			return &b->tabs[i];
	if (!make)
		return NULL;
	struct symtab *t = realloc(b->tabs, (b->n_tabs + 1) * sizeof *t);
	if (!t) {
		b->oom = true;
		return NULL;
	}
	b->tabs = t;
	t[b->n_tabs] = (struct symtab){ pid, NULL, 0, 0 };
	return &t[b->n_tabs++];
}

static const char *symbol(struct builder *b, uint32_t pid, uint64_t pc)
{
	struct symtab *t = symtab(b, pid, false);
	if (!t || !t->n)
		return NULL;
	size_t lo = 0, hi = t->n;   /* the last symbol starting at or below pc */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (t->s[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	const struct sym *s = &t->s[lo - 1];
	uint64_t end = s->size ? s->start + s->size : lo < t->n ? t->s[lo].start : s->start + 1;
	return pc < end || (!s->size && lo == t->n) ? s->name : NULL;
}

static const char *class_of(struct builder *b, uint32_t pid, uint64_t coid)
{
	struct obj key = { pid, coid, NULL };
	const struct obj *o = bsearch(&key, b->objs, b->n_objs, sizeof key, obj_cmp);
	return o ? o->cls : NULL;
}

static const char *proc_name(struct builder *b, uint32_t pid)
{
	for (size_t i = 0; i < b->n_procs; i++)
		if (b->procs[i].pid == pid)
			return b->procs[i].name;
	return NULL;
}

static uint32_t frame(struct kov_profile *p, struct builder *b, const char *root, uint32_t pid,
		      bool kernel, uint64_t pc, bool object, uint64_t coid)
{
	char name[PROTO_SYMBOL_MAX + PROTO_NAME_MAX + 40], fn[PROTO_SYMBOL_MAX + 24];
	const char *s = symbol(b, kernel ? 0 : pid, pc);
	if (s)
		snprintf(fn, sizeof fn, "%s", s);
	else
		snprintf(fn, sizeof fn, "0x%llx", (unsigned long long)pc);
	const char *cls = object ? class_of(b, kernel ? 0 : pid, coid) : NULL;
	if (object && cls)
		snprintf(name, sizeof name, "%s::%s%s", cls, fn, kernel ? "_[k]" : "");
	else if (object)
		snprintf(name, sizeof name, "object@0x%llx::%s%s", (unsigned long long)coid, fn,
			 kernel ? "_[k]" : "");
	else
		snprintf(name, sizeof name, "%s%s", fn, kernel ? "_[k]" : "");
	return intern(p, b, name, kernel ? "kernel" : root);
}

static void note_sample(struct kov_profile *p, struct builder *b, const struct proto_sample *s)
{
	uint32_t f[PROTO_MAX_CHAIN_DEPTH + 1], depth = 0;
	char root[PROTO_NAME_MAX + 16];
	const char *pn = s->pid ? proc_name(b, s->pid) : "kernel";
	if (pn)
		snprintf(root, sizeof root, "%s", pn);
	else
		snprintf(root, sizeof root, "pid %u", (unsigned)s->pid);
	f[depth++] = intern(p, b, root, root);
	const struct proto_chain *c = s->chain_id ? kov_chains_get(&b->chains, s->chain_id) : NULL;
	if (s->chain_id && !c)
		p->unknown_chain++;
	if (c) {
		for (int i = c->depth - 1; i >= 0; i--) {
			const struct proto_chain_frame *cf = &c->frames[i];
			f[depth++] = frame(p, b, root, c->pid, !(cf->flags & PROTO_FRAME_USER), cf->pc,
					   cf->flags & PROTO_FRAME_OBJECT, cf->coid);
		}
		p->chained++;
	} else {
		f[depth++] = frame(p, b, root, s->pid, s->flags & PROTO_SMP_KERNEL, s->pc,
				   !(s->flags & PROTO_SMP_NO_OBJECT), s->coid);
	}
	add_stack(p, b, f, depth, s->period);
	p->samples++;
}

/* First pass over one frame: what names things. */
static void note_names(struct builder *b, const struct proto_frame *f)
{
	struct proto_iter it;
	if (f->type == PROTO_EVENT_CATALOGUE) {
		struct proto_catalogue_head h;
		struct proto_event e;
		if (proto_decode_event_catalogue(f, &h, &it) == 0)
			for (unsigned i = h.first; proto_next_event(&it, &e); i++)
				if (i < 1024)
					proto_str_copy(b->names_ev[i], sizeof b->names_ev[i], e.name);
	} else if (f->type == PROTO_SYMBOLS) {
		struct proto_symbols_head h;
		struct proto_symbol s;
		struct symtab *t;
		if (proto_decode_symbols(f, &h, &it) != 0 || !(t = symtab(b, h.pid, true)))
			return;
		while (proto_next_symbol(&it, &s)) {
			if (!s.name.len)
				continue;
			t->s = grow(t->s, &t->cap, t->n + 1, sizeof *t->s, &b->oom);
			char *name = dup_str(s.name);
			if (b->oom || !name) {
				free(name);
				b->oom = true;
				return;
			}
			t->s[t->n++] = (struct sym){ s.start, s.size, name };
		}
	} else if (f->type == PROTO_SCAN_OBJECTS) {
		struct proto_scan_head h;
		struct proto_object o;
		if (proto_decode_scan_objects(f, &h, &it) != 0)
			return;
		while (proto_next_object(&it, &o)) {
			b->objs = grow(b->objs, &b->cap_objs, b->n_objs + 1, sizeof *b->objs, &b->oom);
			char *cls = dup_str(o.class_name);
			if (b->oom || !cls) {
				free(cls);
				b->oom = true;
				return;
			}
			b->objs[b->n_objs++] = (struct obj){ o.pid, o.coid, cls };
		}
	} else if (f->type == PROTO_SCAN_PROCESSES) {
		struct proto_scan_head h;
		struct proto_process pr;
		if (proto_decode_scan_processes(f, &h, &it) != 0)
			return;
		while (proto_next_process(&it, &pr)) {
			if (proc_name(b, pr.pid))
				continue;
			b->procs = grow(b->procs, &b->cap_procs, b->n_procs + 1, sizeof *b->procs, &b->oom);
			char *name = dup_str(pr.name);
			if (b->oom || !name) {
				free(name);
				b->oom = true;
				return;
			}
			b->procs[b->n_procs++] = (struct proc){ pr.pid, name };
		}
	} else if (f->type == PROTO_CHAINS) {
		if (kov_chains_note(&b->chains, f) != 0)
			b->oom = true;   /* decoded before it was recorded: only memory fails here */
	}
}

static void builder_free(struct builder *b)
{
	for (size_t i = 0; i < b->n_tabs; i++) {
		for (size_t k = 0; k < b->tabs[i].n; k++)
			free(b->tabs[i].s[k].name);
		free(b->tabs[i].s);
	}
	free(b->tabs);
	for (size_t i = 0; i < b->n_objs; i++)
		free(b->objs[i].cls);
	free(b->objs);
	for (size_t i = 0; i < b->n_procs; i++)
		free(b->procs[i].name);
	free(b->procs);
	kov_chains_free(&b->chains);
	free(b->name_slot);
	free(b->stack_slot);
	free(b);
}

int kov_profile_load(FILE *f, const char *event, struct kov_profile *p, char *err, size_t n)
{
	memset(p, 0, sizeof *p);
	struct builder *b = calloc(1, sizeof *b);
	struct kov_frame *frames = NULL;
	size_t n_frames = 0, cap_frames = 0;
	int rc = -1;
	if (!b) {
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
		frames = grow(frames, &cap_frames, n_frames + 1, sizeof *frames, &b->oom);
		if (b->oom) {
			kov_frame_free(&fr);
			break;
		}
		frames[n_frames++] = fr;
	}
	if (got < 0) {
		snprintf(err, n, "the recording is broken after %zu frames", n_frames);
		goto out;
	}
	for (size_t i = 0; i < n_frames && !b->oom; i++)
		note_names(b, &frames[i].f);
	for (size_t t = 0; t < b->n_tabs; t++)
		qsort(b->tabs[t].s, b->tabs[t].n, sizeof *b->tabs[t].s, sym_cmp);
	qsort(b->objs, b->n_objs, sizeof *b->objs, obj_cmp);
	int want = -1;
	if (event) {
		for (int i = 0; i < 1024 && want < 0; i++)
			if (!strcmp(b->names_ev[i], event))
				want = i;
		if (want < 0) {
			snprintf(err, n, "event %s is not in the recording's catalogue", event);
			goto out;
		}
	}
	for (size_t i = 0; i < n_frames && !b->oom; i++) {
		const struct proto_frame *pf = &frames[i].f;
		struct proto_samples_head h;
		struct proto_iter it;
		struct proto_sample s;
		if (!proto_is_samples(pf->type) || proto_decode_any_samples(pf, &h, &it) != 0)
			continue;
		while (proto_next_any_sample(&it, &s) && !b->oom) {
			if (want >= 0 && s.event != want)
				p->skipped++;
			else
				note_sample(p, b, &s);
		}
	}
	if (b->oom)
		snprintf(err, n, "out of memory");
	else
		rc = 0;
out:
	for (size_t i = 0; i < n_frames; i++)
		kov_frame_free(&frames[i]);
	free(frames);
	builder_free(b);
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
	for (size_t i = 0; i < p->n_names; i++)
		free(p->names[i]), free(p->files[i]);
	free(p->names);
	free(p->files);
	for (size_t i = 0; i < p->n_stacks; i++)
		free(p->stacks[i].frames);
	free(p->stacks);
	memset(p, 0, sizeof *p);
}

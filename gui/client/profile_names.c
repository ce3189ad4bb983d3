/* What names a profile's frames (gui/client/profile.h): symbol tables, objects' classes,
 * processes' names and chain definitions, noted frame by frame. Tables are kept sorted after
 * each note, so lookups never change them. */
#include <stdlib.h>
#include <string.h>
#include "client/chains.h"
#include "client/profile_priv.h"
#include "client/scan.h"

struct sym { uint64_t start; uint32_t size; char *name; };
struct symtab { uint32_t pid; struct sym *s; size_t n, cap; };
struct obj { uint32_t pid; uint64_t coid; char *cls; };
struct proc { uint32_t pid; char *name; };

#define EVENTS 1024

struct kov_profile_names {
	struct symtab *tabs;
	size_t n_tabs, cap_tabs;
	struct obj *objs;            /* sorted by (pid, coid), one entry each */
	size_t n_objs, cap_objs;
	struct proc *procs;
	size_t n_procs, cap_procs;
	struct kov_chains chains;
	char events[EVENTS][PROTO_NAME_MAX + 1];   /* the catalogue's names */
	uint64_t gen;
};

static char *dup_str(struct proto_str s)
{
	char *d = malloc((size_t)s.len + 1);
	if (d) {
		memcpy(d, s.s, s.len);
		d[s.len] = 0;
	}
	return d;
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

struct kov_profile_names *kov_profile_names_new(void)
{
	return calloc(1, sizeof(struct kov_profile_names));
}

void kov_profile_names_free(struct kov_profile_names *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->n_tabs; i++) {
		for (size_t k = 0; k < n->tabs[i].n; k++)
			free(n->tabs[i].s[k].name);
		free(n->tabs[i].s);
	}
	free(n->tabs);
	for (size_t i = 0; i < n->n_objs; i++)
		free(n->objs[i].cls);
	free(n->objs);
	for (size_t i = 0; i < n->n_procs; i++)
		free(n->procs[i].name);
	free(n->procs);
	kov_chains_free(&n->chains);
	free(n);
}

uint64_t kov_profile_names_gen(const struct kov_profile_names *n)
{
	return n->gen;
}

const struct proto_chain *kov_profile_names_chain(const struct kov_profile_names *n, uint32_t id)
{
	return kov_chains_get(&n->chains, id);
}

static struct symtab *symtab(const struct kov_profile_names *n, uint32_t pid)
{
	for (size_t i = 0; i < n->n_tabs; i++)
		if (n->tabs[i].pid == pid)
			return &n->tabs[i];
	return NULL;
}

const char *kov_names_symbol(const struct kov_profile_names *n, uint32_t space, uint64_t pc)
{
	const struct symtab *t = symtab(n, space);
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

const char *kov_names_class(const struct kov_profile_names *n, uint32_t space, uint64_t coid)
{
	struct obj key = { space, coid, NULL };
	const struct obj *o = n->n_objs ? bsearch(&key, n->objs, n->n_objs, sizeof key, obj_cmp) : NULL;
	return o ? o->cls : NULL;
}

const char *kov_names_process(const struct kov_profile_names *n, uint32_t pid)
{
	for (size_t i = 0; i < n->n_procs; i++)
		if (n->procs[i].pid == pid)
			return n->procs[i].name;
	return NULL;
}

int kov_names_event(const struct kov_profile_names *n, const char *name)
{
	for (int i = 0; i < EVENTS; i++)
		if (n->events[i][0] && !strcmp(n->events[i], name))
			return i;
	return -1;
}

static bool note_symbols(struct kov_profile_names *n, const struct proto_frame *f)
{
	struct proto_symbols_head h;
	struct proto_iter it;
	struct proto_symbol s;
	if (proto_decode_symbols(f, &h, &it) != 0)
		return true;
	struct symtab *t = symtab(n, h.pid);
	if (!t) {
		if (!kov_grow((void **)&n->tabs, &n->cap_tabs, n->n_tabs + 1, sizeof *n->tabs))
			return false;
		t = &n->tabs[n->n_tabs++];
		*t = (struct symtab){ h.pid, NULL, 0, 0 };
	}
	bool ok = true;
	while (ok && proto_next_symbol(&it, &s)) {
		if (!s.name.len)
			continue;
		char *name = NULL;
		ok = kov_grow((void **)&t->s, &t->cap, t->n + 1, sizeof *t->s) && (name = dup_str(s.name));
		if (ok)
			t->s[t->n++] = (struct sym){ s.start, s.size, name };
	}
	if (t->n)
		qsort(t->s, t->n, sizeof *t->s, sym_cmp);
	n->gen++;
	return ok;
}

/* Objects: the sorted table is searched for each; new ones are appended, then all sorted. */
static bool note_objects(struct kov_profile_names *n, const struct proto_frame *f)
{
	struct proto_scan_head h;
	struct proto_iter it;
	struct proto_object o;
	if (proto_decode_scan_objects(f, &h, &it) != 0)
		return true;
	size_t sorted = n->n_objs;
	bool ok = true;
	while (ok && proto_next_object(&it, &o)) {
		/* A kernel object is listed under the process owning it; frames name it in the
		 * kernel's space. */
		struct obj key = { kov_object_space(o.pid, o.coid), o.coid, NULL };
		struct obj *old = sorted ? bsearch(&key, n->objs, sorted, sizeof key, obj_cmp) : NULL;
		if (old && strlen(old->cls) == o.class_name.len &&
		    !memcmp(old->cls, o.class_name.s, o.class_name.len))
			continue;
		char *cls = dup_str(o.class_name);
		if (!cls || (!old && !kov_grow((void **)&n->objs, &n->cap_objs, n->n_objs + 1, sizeof *n->objs))) {
			free(cls);
			ok = false;
			break;
		}
		if (old) {
			free(old->cls);
			old->cls = cls;
		} else {
			n->objs[n->n_objs++] = (struct obj){ key.pid, o.coid, cls };
		}
		n->gen++;
	}
	if (n->n_objs)
		qsort(n->objs, n->n_objs, sizeof *n->objs, obj_cmp);
	return ok;
}

static bool note_processes(struct kov_profile_names *n, const struct proto_frame *f)
{
	struct proto_scan_head h;
	struct proto_iter it;
	struct proto_process pr;
	if (proto_decode_scan_processes(f, &h, &it) != 0)
		return true;
	while (proto_next_process(&it, &pr)) {
		if (kov_names_process(n, pr.pid))
			continue;
		char *name = dup_str(pr.name);
		if (!name || !kov_grow((void **)&n->procs, &n->cap_procs, n->n_procs + 1, sizeof *n->procs)) {
			free(name);
			return false;
		}
		n->procs[n->n_procs++] = (struct proc){ pr.pid, name };
		n->gen++;
	}
	return true;
}

bool kov_profile_names_note(struct kov_profile_names *n, const struct proto_frame *f)
{
	struct proto_iter it;
	switch (f->type) {
	case PROTO_EVENT_CATALOGUE: {
		struct proto_catalogue_head h;
		struct proto_event e;
		if (proto_decode_event_catalogue(f, &h, &it) == 0)
			for (unsigned i = h.first; proto_next_event(&it, &e); i++)
				if (i < EVENTS)
					proto_str_copy(n->events[i], sizeof n->events[i], e.name);
		return true;
	}
	case PROTO_SYMBOLS: return note_symbols(n, f);
	case PROTO_SCAN_OBJECTS: return note_objects(n, f);
	case PROTO_SCAN_PROCESSES: return note_processes(n, f);
	case PROTO_CHAINS:
		/* A frame that does not decode is not one a target sent: only memory fails here. */
		return kov_chains_note(&n->chains, f) == 0 || proto_decode_chains(f, &(struct proto_samples_head){ 0 }, &it) != 0;
	default: return true;
	}
}

/* Building the in-memory scan from SCAN_PROCESSES and SCAN_OBJECTS frames. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/client_priv.h"
#include "client/scan.h"
#include "client/grow.h"

/* qsort and bsearch of possibly empty arrays: the C library takes no NULL base, even with no
 * elements (an empty scan has none). */
static void sort_n(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n)
		qsort(base, n, size, cmp);
}

static void *search_n(const void *key, const void *base, size_t n, size_t size,
		      int (*cmp)(const void *, const void *))
{
	return n ? bsearch(key, base, n, size, cmp) : NULL;
}

static int cmp_proc(const void *a, const void *b)
{
	const struct kov_scan_process *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

static int cmp_key(uint32_t pa, uint64_t ca, uint32_t ga, uint32_t pb, uint64_t cb, uint32_t gb)
{
	if (pa != pb)
		return pa < pb ? -1 : 1;
	if (ca != cb)
		return ca < cb ? -1 : 1;
	return (ga > gb) - (ga < gb);
}

static int cmp_obj(const void *a, const void *b)
{
	const struct kov_scan_object *x = a, *y = b;
	return cmp_key(x->pid, x->coid, x->gen, y->pid, y->coid, y->gen);
}

static int cmp_kref(const void *a, const void *b)
{
	const struct kov_scan_kref *x = a, *y = b;
	return cmp_key(0, x->coid, x->gen, 0, y->coid, y->gen);
}

size_t kov_scan_find(const struct kov_scan *s, uint32_t pid, uint64_t coid, uint32_t gen)
{
	size_t lo = 0, hi = s->n_objects;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct kov_scan_object *o = &s->objects[mid];
		int c = cmp_key(o->pid, o->coid, o->gen, pid, coid, gen);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return KOV_NOT_IN_SCAN;
}

size_t kov_scan_find_any(const struct kov_scan *s, uint32_t pid, uint64_t coid, uint32_t gen)
{
	size_t i = kov_scan_find(s, pid, coid, gen);
	if (i != KOV_NOT_IN_SCAN || pid != 0 || coid < KOV_KERNEL_COID_BASE)
		return i;
	struct kov_scan_kref key = { coid, gen, 0 };
	const struct kov_scan_kref *k = search_n(&key, s->kernel, s->n_kernel, sizeof key, cmp_kref);
	return k ? k->index : KOV_NOT_IN_SCAN;
}

size_t kov_scan_find_child(const struct kov_scan *s, const struct kov_scan_object *o, uint32_t c)
{
	if (c >= o->n_children)
		return KOV_NOT_IN_SCAN;
	if (o->child[c] != KOV_NOT_IN_SCAN)
		return o->child[c];
	/* Only kernel COIDs name the same object from every process's listing. */
	return o->coid >= KOV_KERNEL_COID_BASE ?
	       kov_scan_find_any(s, 0, o->children[c].coid, o->children[c].gen) : KOV_NOT_IN_SCAN;
}

void kov_scan_free(struct kov_scan *s)
{
	for (size_t i = 0; i < s->n_objects; i++) {
		free(s->objects[i].reps);
		free(s->objects[i].children);
		free(s->objects[i].child);
	}
	free(s->objects);
	free(s->procs);
	free(s->kernel);
	memset(s, 0, sizeof *s);
}

static bool add_object(struct kov_scan *s, size_t *cap, const struct proto_object *o)
{
	if (!kov_grow((void **)&s->objects, cap, s->n_objects + 1, sizeof *s->objects))
		return false;
	struct kov_scan_object *k = &s->objects[s->n_objects];
	memset(k, 0, sizeof *k);
	k->pid = o->pid;
	k->gen = o->gen;
	k->coid = o->coid;
	k->root = o->root;
	k->flags = o->flags;
	proto_str_copy(k->class_name, sizeof k->class_name, o->class_name);
	s->n_objects++;   /* now, so kov_scan_free releases what follows even if it fails */
	k->n_reps = (uint16_t)o->reps.count;
	k->n_children = o->children.count;
	k->reps = calloc(k->n_reps ? k->n_reps : 1, sizeof *k->reps);
	k->children = calloc(k->n_children ? k->n_children : 1, sizeof *k->children);
	k->child = calloc(k->n_children ? k->n_children : 1, sizeof *k->child);
	if (!k->reps || !k->children || !k->child)
		return false;
	for (uint32_t i = 0; i < k->n_reps; i++)
		k->reps[i] = proto_u64_at(&o->reps, i);
	for (uint32_t i = 0; i < k->n_children; i++)
		k->children[i] = proto_ref_at(&o->children, i);
	return true;
}

static bool add_process(struct kov_scan *s, size_t *cap, const struct proto_process *p)
{
	if (!kov_grow((void **)&s->procs, cap, s->n_procs + 1, sizeof *s->procs))
		return false;
	struct kov_scan_process *k = &s->procs[s->n_procs++];
	memset(k, 0, sizeof *k);
	k->pid = p->pid;
	k->ppid = p->ppid;
	k->threads = p->threads;
	k->state = p->state;
	proto_str_copy(k->name, sizeof k->name, p->name);
	return true;
}

/* Kernel objects are listed under the process owning them, but named by (0, COID, gen) in
 * samples and in other processes' children: an index by COID finds them without a walk. */
static bool index_kernel(struct kov_scan *s)
{
	s->kernel = malloc((s->n_objects ? s->n_objects : 1) * sizeof *s->kernel);
	if (!s->kernel)
		return false;
	for (size_t i = 0; i < s->n_objects; i++)
		if (s->objects[i].coid >= KOV_KERNEL_COID_BASE)
			s->kernel[s->n_kernel++] = (struct kov_scan_kref){ s->objects[i].coid,
									    s->objects[i].gen, i };
	sort_n(s->kernel, s->n_kernel, sizeof *s->kernel, cmp_kref);
	return true;
}

static struct kov_scan_process *find_proc(struct kov_scan *s, uint32_t pid)
{
	struct kov_scan_process key = { .pid = pid };
	return search_n(&key, s->procs, s->n_procs, sizeof key, cmp_proc);
}

const struct kov_scan_process *kov_scan_process(const struct kov_scan *s, uint32_t pid)
{
	struct kov_scan_process key = { .pid = pid };
	return search_n(&key, s->procs, s->n_procs, sizeof key, cmp_proc);
}

/* Sorts, gives every object a process (one that exited between the two lists gets a
 * placeholder) and resolves children: COIDs are per address space, so within the pid. */
static bool link_up(struct kov_scan *s, size_t *pcap)
{
	sort_n(s->procs, s->n_procs, sizeof *s->procs, cmp_proc);
	sort_n(s->objects, s->n_objects, sizeof *s->objects, cmp_obj);
	for (size_t i = 0; i < s->n_objects; i++) {
		uint32_t pid = s->objects[i].pid;
		if (find_proc(s, pid))
			continue;
		struct proto_process ph = { .pid = pid, .name = PROTO_STR("?") };
		if (!add_process(s, pcap, &ph))
			return false;
		sort_n(s->procs, s->n_procs, sizeof *s->procs, cmp_proc);
	}
	for (size_t i = 0; i < s->n_objects; i++) {
		struct kov_scan_process *p = find_proc(s, s->objects[i].pid);
		if (p->count++ == 0)
			p->first = i;
	}
	for (size_t i = 0; i < s->n_objects; i++) {
		struct kov_scan_object *o = &s->objects[i];
		for (uint32_t j = 0; j < o->n_children; j++) {
			size_t k = kov_scan_find(s, o->pid, o->children[j].coid, o->children[j].gen);
			o->child[j] = k;
			if (k != KOV_NOT_IN_SCAN)
				s->objects[k].parents++;
		}
	}
	return index_kernel(s);
}

int kov_scan_build(const struct kov_answer *a, struct kov_scan *out, char *err, size_t n)
{
	struct kov_scan s = { 0 };
	size_t pcap = 0, ocap = 0;
	bool ok = true;
	for (size_t i = 0; i < a->count && ok; i++) {
		const struct proto_frame *f = &a->frames[i].f;
		struct proto_scan_head h;
		struct proto_iter it;
		if (f->type == PROTO_SCAN_PROCESSES && proto_decode_scan_processes(f, &h, &it) == 0) {
			struct proto_process p;
			while (ok && proto_next_process(&it, &p))
				ok = add_process(&s, &pcap, &p);
		} else if (f->type == PROTO_SCAN_OBJECTS && proto_decode_scan_objects(f, &h, &it) == 0) {
			struct proto_object o;
			while (ok && proto_next_object(&it, &o))
				ok = add_object(&s, &ocap, &o);
		} else {
			snprintf(err, n, "a scan answer holds a %s frame", proto_type_name(f->type));
			kov_scan_free(&s);
			return -1;
		}
		if (i == 0 || h.timebase > s.timebase)
			s.timebase = h.timebase;
	}
	if (!ok || !link_up(&s, &pcap)) {
		snprintf(err, n, "out of memory for the scan");
		kov_scan_free(&s);
		return -2;
	}
	*out = s;
	return 0;
}

int kov_scan_collect(struct kov_client *c, uint32_t pid, struct kov_scan *out)
{
	uint8_t buf[64];
	struct proto_scan_request rq = { pid, PROTO_SCAN_PROCESSES_BIT | PROTO_SCAN_OBJECTS_BIT };
	int n = proto_encode_scan_request(buf, sizeof buf, 1, 0, &rq);
	if (n < 0)
		return kov_fail(c, KOV_E_USAGE, "cannot encode SCAN_REQUEST");
	struct kov_answer a;
	int err = kov_client_call(c, buf, (size_t)n, &a);
	if (err)
		return err;
	char why[128];
	int r = kov_scan_build(&a, out, why, sizeof why);
	if (r < 0)
		err = kov_fail(c, r == -2 ? KOV_E_USAGE : KOV_E_PROTOCOL, "%s", why);
	kov_answer_free(&a);
	return err;
}

int kov_scan_rep_cpu(const struct kov_scan_object *o, uint64_t addr)
{
	if (!(o->flags & PROTO_OBJ_PER_CPU))
		return -1;
	int best = -1;
	for (unsigned i = 0; i < o->n_reps; i++)
		if (o->reps[i] && o->reps[i] <= addr && (best < 0 || o->reps[i] > o->reps[best]))
			best = (int)i;
	return best;
}

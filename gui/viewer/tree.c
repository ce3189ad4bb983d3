/* The Kernel Object Tree as rows: machine -> processes -> each process's objects, those no
 * other object lists as a child first, then their children along the links (each object once).
 * With a filter, the objects whose class or process matches, flat under their process.
 * Processes start open and objects closed; `open` lists the nodes toggled from that. An open
 * per-CPU object lists its reps (one row per CPU that made one) before its children. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "viewer/viewer.h"
#include "client/grow.h"

static bool add(struct tree *tr, struct row r)
{
	if (!kov_grow((void **)&tr->rows, &tr->cap, tr->n + 1, sizeof *tr->rows))
		return false;
	tr->rows[tr->n++] = r;
	return true;
}

static bool is_open(const struct tree *tr, uint32_t pid, uint64_t coid)
{
	for (size_t i = 0; i < tr->n_open; i++)
		if (tr->open[i].pid == pid && tr->open[i].coid == coid)
			return true;
	return false;
}

static void add_object(struct tree *tr, const struct kov_scan *s, size_t o, int depth, bool *seen)
{
	const struct kov_scan_object *ob = &s->objects[o];
	seen[o] = true;
	bool kids = false;
	for (uint32_t c = 0; c < ob->n_children; c++)
		kids |= ob->child[c] != KOV_NOT_IN_SCAN && !seen[ob->child[c]];
	bool per_cpu = ob->flags & PROTO_OBJ_PER_CPU;
	for (unsigned c = 0; per_cpu && c < ob->n_reps; c++)
		kids |= ob->reps[c] != 0;
	bool open = kids && is_open(tr, ob->pid, ob->coid);
	size_t p = 0;
	while (p < s->n_procs && s->procs[p].pid != ob->pid)
		p++;
	add(tr, (struct row){ .kind = ROW_OBJECT, .depth = depth, .proc = p, .obj = o,
			       .has_children = kids, .expanded = open, .cpu = -1 });
	if (!open)
		return;
	for (unsigned c = 0; per_cpu && c < ob->n_reps; c++)
		if (ob->reps[c])
			add(tr, (struct row){ .kind = ROW_REP, .depth = depth + 1, .proc = p, .obj = o,
					       .has_children = false, .expanded = false, .cpu = (int)c });
	for (uint32_t c = 0; c < ob->n_children; c++) {
		size_t k = ob->child[c];
		if (k != KOV_NOT_IN_SCAN && !seen[k] && depth < 32)
			add_object(tr, s, k, depth + 1, seen);
	}
}

static bool matches(const struct tree *tr, const struct kov_scan *s, size_t o)
{
	const struct kov_scan_object *ob = &s->objects[o];
	if (strcasestr(ob->class_name, tr->filter))
		return true;
	for (size_t p = 0; p < s->n_procs; p++)
		if (s->procs[p].pid == ob->pid && strcasestr(s->procs[p].name, tr->filter))
			return true;
	return false;
}

static const uint64_t *sort_weight;

static int heavier(const void *a, const void *b)
{
	uint64_t x = sort_weight[*(const size_t *)a], y = sort_weight[*(const size_t *)b];
	return x < y ? 1 : x > y ? -1 : (*(const size_t *)a > *(const size_t *)b) - (*(const size_t *)a < *(const size_t *)b);
}

/* The rows' identities from the scan they index, so that the next build can find them. */
static void name_rows(struct tree *tr, const struct kov_scan *s)
{
	for (size_t i = 0; s && i < tr->n; i++) {
		struct row *r = &tr->rows[i];
		if (r->kind == ROW_PROCESS) {
			r->pid = s->procs[r->proc].pid;
		} else if (r->kind != ROW_MACHINE) {
			r->pid = s->objects[r->obj].pid;
			r->gen = s->objects[r->obj].gen;
			r->coid = s->objects[r->obj].coid;
		}
	}
}

static bool same_row(const struct row *a, const struct row *b)
{
	return a->kind == b->kind && a->pid == b->pid && a->coid == b->coid && a->gen == b->gen &&
	       a->cpu == b->cpu;
}

static void build_rows(struct tree *tr, const struct kov_scan *s, const uint64_t *weight);

/* A new scan moves rows (processes and objects come and go above the selected one): the
 * selection stays on what it showed while that is still there. */
void tree_build(struct tree *tr, const struct kov_scan *s, const uint64_t *weight)
{
	bool had = tr->selected < tr->n;
	struct row was = had ? tr->rows[tr->selected] : (struct row){ 0 };
	build_rows(tr, s, weight);
	name_rows(tr, s);
	for (size_t i = 0; had && i < tr->n; i++)
		if (same_row(&tr->rows[i], &was)) {
			tr->selected = i;
			break;
		}
	if (tr->selected >= tr->n)
		tr->selected = tr->n ? tr->n - 1 : 0;
}

static void build_rows(struct tree *tr, const struct kov_scan *s, const uint64_t *weight)
{
	tr->n = 0;
	add(tr, (struct row){ .kind = ROW_MACHINE, .depth = 0, .proc = 0, .obj = 0,
			       .has_children = s && s->n_procs, .expanded = !tr->machine_closed, .cpu = -1 });
	if (!s || tr->machine_closed)
		return;
	bool *seen = calloc(s->n_objects + 1, sizeof *seen);
	if (!seen)
		return;
	for (size_t p = 0; p < s->n_procs; p++) {
		const struct kov_scan_process *pr = &s->procs[p];
		/* Processes start open (their entry in `open` means closed), objects closed. */
		bool open = tr->filter[0] || !is_open(tr, pr->pid, 0);
		add(tr, (struct row){ .kind = ROW_PROCESS, .depth = 1, .proc = p, .obj = 0,
				       .has_children = pr->count > 0, .expanded = open, .cpu = -1 });
		if (!open)
			continue;
		/* In scan order (by COID), or heaviest first by the selected metric. */
		size_t *order = malloc((pr->count ? pr->count : 1) * sizeof *order);
		if (!order)
			break;
		for (size_t k = 0; k < pr->count; k++)
			order[k] = pr->first + k;
		if (weight) {
			sort_weight = weight;
			qsort(order, pr->count, sizeof *order, heavier);
		}
		for (size_t k = 0; k < pr->count; k++) {
			size_t o = order[k];
			if (tr->filter[0]) {
				if (matches(tr, s, o))
					add(tr, (struct row){ .kind = ROW_OBJECT, .depth = 2, .proc = p, .obj = o,
							       .has_children = false, .expanded = false, .cpu = -1 });
			} else if (!s->objects[o].parents && !seen[o]) {
				add_object(tr, s, o, 2, seen);
			}
		}
		free(order);
		/* Objects only reachable through a cycle of children: still shown. */
		for (size_t o = pr->first; !tr->filter[0] && o < pr->first + pr->count; o++)
			if (!seen[o])
				add_object(tr, s, o, 2, seen);
	}
	free(seen);
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 1099511628211ull;
}

/* What the rows are built from: the scan (which one, and its number), the filter, the nodes
 * toggled, the sort's epoch. */
static uint64_t tree_key(const struct tree *tr, const struct kov_scan *s, uint64_t scan_no,
			 uint64_t weight_epoch)
{
	uint64_t h = mix(mix(mix(14695981039346656037ull, scan_no), (uintptr_t)s), weight_epoch);
	h = mix(mix(h, s ? s->n_objects : 0), tr->machine_closed);
	for (const char *c = tr->filter; *c; c++)
		h = mix(h, (uint8_t)*c);
	for (size_t i = 0; i < tr->n_open; i++)
		h = mix(mix(h, tr->open[i].pid), tr->open[i].coid);
	return mix(h, tr->n_open);
}

bool tree_update(struct tree *tr, const struct kov_scan *s, uint64_t scan_no, const uint64_t *weight,
		 uint64_t weight_epoch)
{
	uint64_t key = tree_key(tr, s, scan_no, weight_epoch);
	if (tr->n && key == tr->built_key)
		return false;
	tree_build(tr, s, weight);
	tr->built_key = key;
	return true;
}

void tree_toggle(struct tree *tr, const struct kov_scan *s, size_t row)
{
	if (row >= tr->n || !tr->rows[row].has_children)
		return;
	const struct row *r = &tr->rows[row];
	if (r->kind == ROW_MACHINE) {
		tr->machine_closed = !tr->machine_closed;
		return;
	}
	uint32_t pid = s->procs[r->proc].pid;
	uint64_t coid = r->kind == ROW_OBJECT ? s->objects[r->obj].coid : 0;
	for (size_t i = 0; i < tr->n_open; i++)
		if (tr->open[i].pid == pid && tr->open[i].coid == coid) {
			tr->open[i] = tr->open[--tr->n_open];
			return;
		}
	if (tr->n_open < sizeof tr->open / sizeof tr->open[0]) {
		tr->open[tr->n_open].pid = pid;
		tr->open[tr->n_open++].coid = coid;
	}
}

void tree_free(struct tree *tr)
{
	free(tr->rows);
	tr->rows = NULL;
	tr->n = tr->cap = 0;
}

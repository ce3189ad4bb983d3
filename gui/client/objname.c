/* Names that outlive objects, and folding gone ones (objname.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/objname.h"

void kov_objname_update(struct kov_objname *n, const struct kov_scan *s, uint32_t pid,
			uint64_t coid, uint32_t gen)
{
	size_t k = kov_scan_find_any(s, pid, coid, gen);
	if (k == KOV_NOT_IN_SCAN) {
		if (n->cls[0]) {
			n->gone = true;
			n->proc_gone = n->proc_pid && !kov_scan_process(s, n->proc_pid);
		}
		return;
	}
	const struct kov_scan_object *o = &s->objects[k];
	const struct kov_scan_process *p = kov_scan_process(s, o->pid);
	snprintf(n->cls, sizeof n->cls, "%s", o->class_name);
	snprintf(n->proc, sizeof n->proc, "%s", p ? p->name : "?");
	n->proc_pid = o->pid;
	n->gone = n->proc_gone = false;
}

/* Items that share a row: gone with their process (same class and program), or unnamed
 * (same address space). */
static bool folds(const struct kov_top_item *it)
{
	return !it->name->cls[0] || (it->name->gone && it->name->proc_gone);
}

static bool same_fold(const struct kov_top_item *a, const struct kov_top_item *b)
{
	if (!a->name->cls[0] || !b->name->cls[0])
		return !a->name->cls[0] && !b->name->cls[0] && a->pid == b->pid;
	return !strcmp(a->name->cls, b->name->cls) && !strcmp(a->name->proc, b->name->proc);
}

size_t kov_top_fold(const struct kov_top_item *in, size_t n, struct kov_top_row *out)
{
	size_t rows = 0;
	for (size_t i = 0; i < n; i++) {
		size_t r = rows;
		if (folds(&in[i]))   /* folded rows are few: a linear search */
			for (r = 0; r < rows; r++)
				if (folds(&in[out[r].item]) && same_fold(&in[out[r].item], &in[i]))
					break;
		if (r == rows)
			out[rows++] = (struct kov_top_row){ i, 0, { 0, 0 } };
		out[r].objects++;
		out[r].v[0] += in[i].v[0];
		out[r].v[1] += in[i].v[1];
	}
	return rows;
}

static int by_values(const void *a, const void *b)
{
	const struct kov_top_row *x = a, *y = b;
	if (x->v[0] != y->v[0])
		return x->v[0] < y->v[0] ? 1 : -1;
	if (x->v[1] != y->v[1])
		return x->v[1] < y->v[1] ? 1 : -1;
	return (x->item > y->item) - (x->item < y->item);
}

void kov_top_sort(struct kov_top_row *rows, size_t n)
{
	qsort(rows, n, sizeof *rows, by_values);
}

void kov_top_names(const struct kov_top_item *in, const struct kov_top_row *r, bool with_pid,
		   char *cls, size_t cn, char *proc, size_t pn)
{
	const struct kov_top_item *it = &in[r->item];
	const struct kov_objname *nm = it->name;
	if (!nm->cls[0]) {
		if (r->objects > 1)
			snprintf(cls, cn, "(gone before a scan, %zu objects)", r->objects);
		else
			snprintf(cls, cn, "(gone before a scan)");
		if (it->pid)
			snprintf(proc, pn, "pid %u", (unsigned)it->pid);
		else
			snprintf(proc, pn, "kernel");
		return;
	}
	if (r->objects > 1)
		snprintf(cls, cn, "%s (gone, %zu objects)", nm->cls, r->objects);
	else
		snprintf(cls, cn, "%s%s", nm->cls, nm->gone ? " (gone)" : "");
	if (!nm->proc_pid || !with_pid)
		snprintf(proc, pn, "%s%s", nm->proc, nm->proc_gone ? " (exited)" : "");
	else if (nm->proc_gone)
		snprintf(proc, pn, "%s (exited)", nm->proc);
	else
		snprintf(proc, pn, "%s pid %u", nm->proc, (unsigned)nm->proc_pid);
}

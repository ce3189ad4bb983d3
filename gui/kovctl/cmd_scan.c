/* kovctl scan: the live objects of the target, per process, as a tree along the children
 * links. An object listed as the child of several others is printed under the first and
 * referred to afterwards, so cycles end; what no root reaches is printed as a root. A
 * kernel object's child listed under another process (the ProcessAnnex's Processes) is a
 * link to that listing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/scan.h"
#include "kovctl/kovctl.h"
#include "client/metrics.h"

#define MAX_INDENT 64                /* deeper chains continue as roots, nothing is lost */

/* Distinct reps: the scan lists the rep each CPU's table holds, so a single-rep object
 * used on four CPUs shows the same address four times. */
static unsigned live_reps(const struct kov_scan_object *o)
{
	unsigned n = 0;
	for (unsigned i = 0; i < o->n_reps; i++) {
		bool seen = !o->reps[i];
		for (unsigned k = 0; k < i && !seen; k++)
			seen = o->reps[k] == o->reps[i];
		n += !seen;
	}
	return n;
}

static bool wanted(const struct kovctl *k, const struct kov_scan_object *o)
{
	return !k->o->class_name || !strcmp(o->class_name, k->o->class_name);
}

/* The request already names the pid; checking again costs nothing and keeps the output
 * right whatever the answer holds. */
static bool process_wanted(const struct kovctl *k, const struct kov_scan_process *p)
{
	return !k->o->has_pid || p->pid == k->o->pid;
}

static void print_object(const struct kov_scan_object *o, int depth)
{
	char coid[KOV_COID_CHARS];
	printf("%*s%s  %s  gen %u  reps %u%s  children %u%s%s\n", 2 + 2 * depth, "",
	       o->class_name, kov_coid_str(o->coid, coid), (unsigned)o->gen, live_reps(o),
	       o->flags & PROTO_OBJ_PER_CPU ? " (per CPU)" : "",
	       (unsigned)o->n_children, o->flags & PROTO_OBJ_DYING ? "  dying" : "",
	       o->flags & PROTO_OBJ_CHILDREN_CUT ? "  (children cut)" : "");
	if (!(o->flags & PROTO_OBJ_PER_CPU))
		return;
	/* Each CPU's rep, the rows kovctl top --by rep ranks. */
	printf("%*sreps:", 4 + 2 * depth, "");
	for (unsigned i = 0; i < o->n_reps; i++)
		if (o->reps[i])
			printf("  cpu%u 0x%llx", i, (unsigned long long)o->reps[i]);
	printf("\n");
}

/* Where child c of o is, when it is not printed under o here. */
static void print_link(const struct kov_scan *s, const struct kov_scan_object *o, uint32_t c,
		       int depth)
{
	size_t k = kov_scan_find_child(s, o, c);
	printf("%*s-> ", 4 + 2 * depth, "");
	if (k != KOV_NOT_IN_SCAN)
		printf("%s  ", s->objects[k].class_name);
	char coid[KOV_COID_CHARS];
	printf("%s gen %u (", kov_coid_str(o->children[c].coid, coid), (unsigned)o->children[c].gen);
	if (k == KOV_NOT_IN_SCAN) {
		printf("not in the scan)\n");
	} else if (s->objects[k].pid == o->pid) {
		printf("shown above)\n");
	} else {
		const struct kov_scan_process *p = kov_scan_process(s, s->objects[k].pid);
		printf("listed under pid %u, %s)\n", (unsigned)s->objects[k].pid, p ? p->name : "?");
	}
}

static void print_tree(const struct kov_scan *s, bool *shown, size_t i, int depth)
{
	const struct kov_scan_object *o = &s->objects[i];
	shown[i] = true;
	print_object(o, depth);
	if (depth >= MAX_INDENT)
		return;
	for (uint32_t c = 0; c < o->n_children; c++) {
		size_t ci = o->child[c];
		if (ci != KOV_NOT_IN_SCAN && !shown[ci])
			print_tree(s, shown, ci, depth + 1);
		else
			print_link(s, o, c, depth);
	}
}

static void print_process(const struct kov_scan_process *p)
{
	printf("%s  pid %u  ppid %u  threads %u  %s\n", p->name, (unsigned)p->pid, (unsigned)p->ppid,
	       (unsigned)p->threads, kov_state_name(p->state));
}

/* Whether a process is listed under the filters, and how many of its objects match. */
static bool shown_process(const struct kovctl *k, const struct kov_scan *s,
                          const struct kov_scan_process *pr, size_t *matches)
{
	*matches = 0;
	if (!process_wanted(k, pr))
		return false;
	for (size_t i = pr->first; i < pr->first + pr->count; i++)
		*matches += wanted(k, &s->objects[i]);
	return !k->o->class_name || *matches;
}

static void scan_text(const struct kovctl *k, const struct kov_scan *s, size_t *np, size_t *no)
{
	bool *shown = calloc(s->n_objects ? s->n_objects : 1, sizeof *shown);
	for (size_t p = 0; p < s->n_procs; p++) {
		const struct kov_scan_process *pr = &s->procs[p];
		size_t end = pr->first + pr->count, matches;
		if (!shown_process(k, s, pr, &matches))
			continue;
		print_process(pr);
		(*np)++;
		*no += matches;
		if (k->o->class_name || !shown) {
			for (size_t i = pr->first; i < end; i++)
				if (wanted(k, &s->objects[i]))
					print_object(&s->objects[i], 0);
			continue;
		}
		for (size_t i = pr->first; i < end; i++)     /* roots: no parent in the scan */
			if (!s->objects[i].parents && !shown[i])
				print_tree(s, shown, i, 0);
		for (size_t i = pr->first; i < end; i++)     /* cycles, or below MAX_INDENT */
			if (!shown[i])
				print_tree(s, shown, i, 0);
	}
	free(shown);
}

static void object_json(struct json *j, const struct kov_scan *s, const struct kov_scan_object *o)
{
	json_begin_object(j);
	json_kv_str(j, "class", o->class_name);
	json_kv_coid(j, "coid", o->coid);
	json_kv_u64(j, "gen", o->gen);
	json_kv_hex(j, "root", o->root);
	json_kv_u64(j, "flags", o->flags);
	json_kv_bool(j, "dying", o->flags & PROTO_OBJ_DYING);
	json_kv_bool(j, "children_cut", o->flags & PROTO_OBJ_CHILDREN_CUT);
	json_key(j, "reps");
	json_begin_array(j);
	for (unsigned i = 0; i < o->n_reps; i++)
		json_hex(j, o->reps[i]);
	json_end_array(j);
	json_key(j, "children");
	json_begin_array(j);
	for (uint32_t i = 0; i < o->n_children; i++) {
		json_begin_object(j);
		json_kv_coid(j, "coid", o->children[i].coid);
		json_kv_u64(j, "gen", o->children[i].gen);
		size_t k = kov_scan_find_child(s, o, i);
		json_kv_bool(j, "in_scan", k != KOV_NOT_IN_SCAN);
		json_key(j, "listed_under");     /* the pid whose objects list it */
		if (k != KOV_NOT_IN_SCAN)
			json_u64(j, s->objects[k].pid);
		else
			json_null(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void scan_json(struct kovctl *k, const struct kov_scan *s, size_t *np, size_t *no)
{
	struct json *j = &k->j;
	json_begin_object(j);
	json_kv_str(j, "target", k->target);
	json_kv_u64(j, "timebase", s->timebase);
	json_key(j, "processes");
	json_begin_array(j);
	for (size_t p = 0; p < s->n_procs; p++) {
		const struct kov_scan_process *pr = &s->procs[p];
		size_t end = pr->first + pr->count, matches;
		if (!shown_process(k, s, pr, &matches))
			continue;
		(*np)++;
		*no += matches;
		json_begin_object(j);
		json_kv_u64(j, "pid", pr->pid);
		json_kv_u64(j, "ppid", pr->ppid);
		json_kv_str(j, "name", pr->name);
		json_kv_u64(j, "threads", pr->threads);
		json_kv_str(j, "state", kov_state_name(pr->state));
		json_key(j, "objects");
		json_begin_array(j);
		for (size_t i = pr->first; i < end; i++)
			if (wanted(k, &s->objects[i]))
				object_json(j, s, &s->objects[i]);
		json_end_array(j);
		json_end_object(j);
	}
	json_end_array(j);
	json_key(j, "totals");
	json_begin_object(j);
	json_kv_u64(j, "processes", *np);
	json_kv_u64(j, "objects", *no);
	json_end_object(j);
	json_end_object(j);
	json_end(j);
}

int cmd_scan(struct kovctl *k)
{
	struct kov_scan s;
	uint32_t pid = k->o->has_pid ? k->o->pid : PROTO_PID_ALL;
	if (kov_scan_collect(k->c, pid, &s))
		return kovctl_client_error(k);
	size_t np = 0, no = 0;
	if (k->o->json) {
		scan_json(k, &s, &np, &no);
	} else {
		const struct kov_target *t = kov_client_target(k->c);
		printf("machine %s  %s  %u CPU%s  scan at %.6f s\n", k->target, t->profile,
		       (unsigned)t->cpus, t->cpus == 1 ? "" : "s",
		       kov_ticks_to_s(s.timebase, t->timebase_hz));
		scan_text(k, &s, &np, &no);
		printf("total: %zu process%s, %zu object%s%s%s\n", np, np == 1 ? "" : "es", no,
		       no == 1 ? "" : "s", k->o->class_name ? " of class " : "",
		       k->o->class_name ? k->o->class_name : "");
	}
	kov_scan_free(&s);
	return EXIT_OK;
}

/* What the monitoring commands (top, lockstat, record, replay) share around their runs and
 * reports: a stream started only where it does not run and this client holds control, the
 * end of a --json document, and the scan that names objects and the owners of locks. */
#include <stdio.h>
#include "kovctl/kovctl.h"

int kovctl_need_stream(struct kovctl *k, const struct proto_status *st, uint32_t need,
		       uint32_t add, const char *what, bool *stop_after)
{
	*stop_after = false;
	if (st->streams & need)
		return EXIT_OK;
	if (kov_client_target(k->c)->role != PROTO_ROLE_CONTROLLER) {
		fprintf(stderr, "kovctl: the target is not streaming %s, and starting them needs the "
			"controller token (--token)\n", what);
		return EXIT_NOT_CONTROLLER;
	}
	int rc = kovctl_start(k, st->streams | need | add, 0);
	*stop_after = rc == EXIT_OK && !st->streams;   /* nothing ran before: nothing runs after */
	return rc;
}

void kovctl_json_end(struct kovctl *k, bool in_list)
{
	if (!k->o->json)
		return;
	if (in_list)
		json_end_array(&k->j);
	json_end_object(&k->j);
	json_end(&k->j);
}

void kovctl_names_begin(struct kovctl *k, struct kovctl_names *n)
{
	n->first_ok = kov_scan_collect(k->c, PROTO_PID_ALL, &n->first) == 0;
}

void kovctl_names_get(struct kovctl *k, struct kovctl_names *n)
{
	n->ok = kov_scan_collect(k->c, PROTO_PID_ALL, &n->scan) == 0;
}

void kovctl_names_free(struct kovctl_names *n)
{
	if (n->ok)
		kov_scan_free(&n->scan);
	if (n->first_ok)
		kov_scan_free(&n->first);
	n->ok = n->first_ok = false;
}

/* Names from one scan; false when it lists neither the object nor the process. */
static void names_from(const struct kov_scan *s, uint32_t pid, uint64_t coid, uint32_t gen,
		       const char **cls, const char **proc, bool *found_cls, bool *found_proc)
{
	for (size_t p = 0; !*found_proc && pid && p < s->n_procs; p++)
		if (s->procs[p].pid == pid) {
			*proc = s->procs[p].name;
			*found_proc = true;
		}
	size_t i = !*found_cls && coid ? kov_scan_find_any(s, pid, coid, gen) : KOV_NOT_IN_SCAN;
	if (i != KOV_NOT_IN_SCAN) {
		*cls = s->objects[i].class_name;
		*found_cls = true;
	}
}

void kovctl_owner(const struct kovctl_names *n, uint32_t pid, uint64_t coid, uint32_t gen,
		  const char *no_object, const char **cls, const char **proc)
{
	*cls = coid ? "(gone)" : no_object;
	*proc = pid ? "?" : "kernel";
	bool found_cls = !coid, found_proc = !pid;
	if (n->ok)
		names_from(&n->scan, pid, coid, gen, cls, proc, &found_cls, &found_proc);
	if (n->first_ok)   /* gone by the end: as the scan before the collection saw it */
		names_from(&n->first, pid, coid, gen, cls, proc, &found_cls, &found_proc);
}

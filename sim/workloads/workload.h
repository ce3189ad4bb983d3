/* Helpers the workload programs share. */
#ifndef KOV_WORKLOAD_H
#define KOV_WORKLOAD_H

#include <kov.h>
#include <cobj.h>

/* A decimal argument, or fallback when it is missing. */
static inline long wl_number(const char *s, long fallback)
{
	long v = 0;
	if (!s || !*s)
		return fallback;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return v;
}

static inline void *wl_existing_rep(struct co_root *root, unsigned int cpu)
{
	(void)cpu;
	return root->reps[0];
}

static inline void wl_never_freed(struct co_root *root, void *rep)
{
	(void)root, (void)rep;
}

/* A single-rep object around a rep that lives as long as the program (0 if out of memory). */
static inline coid_t wl_static_object(const struct co_class *cls, void *rep)
{
	struct co_root *root = malloc(sizeof *root);
	if (!root)
		return 0;
	memset(root, 0, sizeof *root);
	root->cls = cls;
	root->kind = CO_SINGLE_REP;
	root->make_rep = wl_existing_rep;
	root->free = wl_never_freed;
	root->reps[0] = rep;
	return co_create(root);
}

#endif

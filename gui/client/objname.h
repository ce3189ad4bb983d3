/* Names of sampled objects that outlive the objects: what a scan last said about each one
 * (class, and the process it was listed under), so a report made after an object or its
 * process is gone still names it; and the folding of gone objects of exited processes into
 * one row per class and program, which kovctl top and the viewer's top contributors share.
 * Objects no scan ever listed (created and destroyed between two scans) stay unnamed and
 * are folded per address space. */
#ifndef KOV_CLIENT_OBJNAME_H
#define KOV_CLIENT_OBJNAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "client/scan.h"

struct kov_objname {
	char cls[PROTO_NAME_MAX + 1];    /* "" until a scan lists the object */
	char proc[PROTO_NAME_MAX + 1];   /* the process it was listed under ("kernel": pid 0) */
	uint32_t proc_pid;
	bool gone;                       /* the latest scan no longer lists it */
	bool proc_gone;                  /* nor its process */
};

/* Takes what scan s says about the object samples name (pid, coid, gen) (pid 0 for kernel
 * objects): its name when listed, else marks a known name gone. */
void kov_objname_update(struct kov_objname *n, const struct kov_scan *s, uint32_t pid,
			uint64_t coid, uint32_t gen);

/* One object's figures for a ranking: v[0] ranks, v[1] breaks ties; both are summed when
 * objects are folded. pid is the space samples name it in (0: kernel). */
struct kov_top_item {
	const struct kov_objname *name;
	uint32_t pid;
	uint64_t v[2];
};

struct kov_top_row {
	size_t item;                     /* the item it shows (the first, when folded) */
	size_t objects;                  /* items it stands for */
	uint64_t v[2];                   /* their sums */
};

/* One row per item, except gone items of exited processes (one row per class and program)
 * and unnamed items (one row per address space). Rows in the items' order; out holds n.
 * Returns the number of rows. */
size_t kov_top_fold(const struct kov_top_item *in, size_t n, struct kov_top_row *out);
/* Ranks rows by v[0], then v[1], descending. */
void kov_top_sort(struct kov_top_row *rows, size_t n);
/* A row's class and process as shown: "Region", "Region (gone)", "Region (gone, 12 objects)",
 * "(gone before a scan, 40 objects)"; "pagestorm pid 57" ("pagestorm" without
 * with_pid), "pagestorm (exited)", "kernel", "pid 9". */
void kov_top_names(const struct kov_top_item *in, const struct kov_top_row *r, bool with_pid,
		   char *cls, size_t cn, char *proc, size_t pn);

#endif

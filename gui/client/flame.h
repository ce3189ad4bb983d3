/* A flame graph's call tree (a prefix tree of call stacks, root first) and an object's
 * callers, from a profile's stacks (profile.h), for the viewer. Each node is a frame under
 * its caller's node with its samples: total (the stacks through it) and self (the stacks
 * ending in it). Scopes:
 *  - the whole target: the root stands for every stack, its children are the processes;
 *  - one process (by pid: the profile must tell objects apart, by_object): the root is the
 *    process's frame, its children its outermost functions;
 *  - one object (space, COID, generation; by_object): the stacks passing through one of the
 *    object's frames, each from its outermost frame of the object down (what the object does
 *    and calls); the root stands for the object. What called into it is the callers view. */
#ifndef KOV_CLIENT_FLAME_H
#define KOV_CLIENT_FLAME_H

#include <stdbool.h>
#include <stdint.h>
#include "client/profile.h"

#define KOV_FLAME_NONE UINT32_MAX

struct kov_flame_node {
	uint32_t name;               /* profile name index; KOV_FLAME_NONE: the root of the
	                                whole target or of an object */
	uint32_t parent, child, sibling;   /* node indices (KOV_FLAME_NONE: none); children
	                                      heaviest first; a parent's index is below its
	                                      children's */
	uint32_t depth;              /* the root 0 */
	uint64_t total, self;
};

enum kov_flame_scope { KOV_FLAME_TARGET, KOV_FLAME_PROCESS, KOV_FLAME_OBJECT };

struct kov_flame_filter {
	enum kov_flame_scope scope;
	uint32_t pid;                     /* KOV_FLAME_PROCESS */
	struct kov_profile_obj obj;       /* KOV_FLAME_OBJECT */
};

struct kov_flame {
	struct kov_flame_node *nodes;     /* nodes[0] the root */
	size_t n, cap;
	uint64_t total;                   /* samples in the scope: the root's total */
	size_t stacks;                    /* profile stacks in the scope */
	uint32_t *slot;                   /* (parent, name) -> node while building */
	size_t slots;
};

/* Builds fl (emptied first) from p's stacks in scope f. 0, or -1 when memory ran out or the
 * scope needs a profile by object that p is not. */
int kov_flame_build(struct kov_flame *fl, const struct kov_profile *p,
		    const struct kov_flame_filter *f);
void kov_flame_free(struct kov_flame *fl);
/* Whether frame name i is one of object o's frames. */
bool kov_flame_is_object(const struct kov_profile *p, uint32_t i, const struct kov_profile_obj *o);

/* Search: match[i] for each node whose name contains text (ASCII case ignored; fl->n
 * entries); returns the samples under matched nodes, each counted once (a match below a
 * match adds nothing). An empty text matches nothing. */
uint64_t kov_flame_search(const struct kov_flame *fl, const struct kov_profile *p,
			  const char *text, bool *match);

/* The callers of object o: for each stack through it, the frame just above the object's
 * outermost frame (the process's root frame when nothing else is), samples summed per
 * caller frame, heaviest first; shares in percent of all stacks through the object. */
struct kov_flame_caller {
	uint32_t name;                    /* profile name index */
	uint64_t samples;
	double share;
};
struct kov_flame_callers {
	struct kov_flame_caller *items;
	size_t n;
	uint64_t total;                   /* samples through the object */
};
int kov_flame_callers(struct kov_flame_callers *c, const struct kov_profile *p,
		      const struct kov_profile_obj *o);
void kov_flame_callers_free(struct kov_flame_callers *c);

#endif

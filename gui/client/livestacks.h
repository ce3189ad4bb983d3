/* Call stacks of a live target (or a recording played back) as samples arrive, for the
 * viewer's flame graph: each sample's raw stack (its chain's pcs and objects, before naming)
 * is counted in a table of at most `max` distinct stacks, and named into a profile by object
 * (profile.h) at once; when names change (a program's symbol table or a scan arrived), every
 * stack is named again from the raw table, so early samples get the names learnt later.
 * Samples beyond the table's room are counted, never silently lost. */
#ifndef KOV_CLIENT_LIVESTACKS_H
#define KOV_CLIENT_LIVESTACKS_H

#include "client/profile.h"

struct kov_live_raw;

struct kov_live_stacks {
	struct kov_profile prof;           /* named, by object; stacks' samples kept current */
	struct kov_profile_names *names;   /* symbols, scans and chains noted so far */
	struct kov_live_raw *raw;          /* distinct raw stacks */
	size_t n_raw, cap_raw, max_raw;
	uint32_t *slot;                    /* raw stack hash index */
	size_t slots;
	uint64_t samples;                  /* counted in stacks */
	uint64_t chained;                  /* ... of them with a call chain */
	uint64_t unknown_chain;            /* samples naming a chain never defined (alone then) */
	uint64_t not_kept;                 /* samples whose stack found the table full */
	uint64_t not_kept_stacks;          /* ... their distinct stacks, at least (a bit per
	                                      stack hash: two may share one) */
	uint64_t named_gen;                /* the names' generation prof was named with */
	uint64_t version;                  /* changes with every count or name change */
	bool oom;                          /* memory ran out: what came after is not counted */
	uint8_t seen[4096];                /* the not-kept stacks' filter */
};

/* An empty table of at most max distinct stacks; false when memory ran out. */
bool kov_live_init(struct kov_live_stacks *l, size_t max);
void kov_live_free(struct kov_live_stacks *l);
/* A frame the target sent: CHAINS, SYMBOLS, scans and the catalogue name things; SAMPLES and
 * SAMPLES_CHAINED are counted. Others are ignored. */
void kov_live_frame(struct kov_live_stacks *l, const struct proto_frame *f);
/* Names every stack again if the names changed since they were named (the caller decides
 * how often: it costs a pass over the table). */
void kov_live_rename(struct kov_live_stacks *l);

#endif

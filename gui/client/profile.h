/* A recording's samples as call stacks, for the profilers' formats (kovctl export) and the
 * viewer: every sample becomes a stack of named frames, root first (the process, then the
 * outermost function ... the function the sample was taken in), identical stacks summed.
 * Names come from the recording alone: functions from its symbol tables (hex addresses
 * where none covers a pc), a frame inside an object's method is "Class::function" (the
 * object's class from the recording's scan), kernel frames end in "_[k]" (the folded-stacks
 * convention), and a sample without a chain is its process and its own function. */
#ifndef KOV_CLIENT_PROFILE_H
#define KOV_CLIENT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct kov_profile_stack {
	uint32_t *frames;            /* indices into names, root first */
	uint32_t depth;
	uint64_t samples;
	uint64_t events;             /* the samples' periods summed (0 when not known) */
};

struct kov_profile {
	char **names;                /* frame names */
	char **files;                /* ... and the program each is in: "kernel", a process's
	                                name; a (name, file) pair is one frame, kept once */
	size_t n_names;
	struct kov_profile_stack *stacks;
	size_t n_stacks;
	uint64_t samples;            /* in stacks */
	uint64_t chained;            /* ... of them with a call chain */
	uint64_t unknown_chain;      /* samples naming a chain the recording never defined */
	uint64_t skipped;            /* samples of other events than the one asked for */
};

/* Reads recording f (positioned at its start) into p. event: only that event's samples
 * (NULL: all). 0, or -1 with the reason in err (not a recording, a broken frame, no memory,
 * an unknown event). */
int kov_profile_load(FILE *f, const char *event, struct kov_profile *p, char *err, size_t n);
void kov_profile_free(struct kov_profile *p);
/* Whether frame name i is a kernel frame. */
bool kov_profile_kernel(const struct kov_profile *p, uint32_t i);

#endif

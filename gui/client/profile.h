/* Samples as call stacks, for the profilers' formats (kovctl export) and the viewer's flame
 * graph: every sample becomes a stack of named frames, root first (the process, then the
 * outermost function ... the function the sample was taken in), identical stacks summed.
 * Names come from what the target said (a recording's or a live connection's frames):
 * functions from its symbol tables (hex addresses where none covers a pc), a frame inside an
 * object's method is "Class::function" (the object's class from a scan), kernel frames end in
 * "_[k]" (the folded-stacks convention), and a sample without a chain is its process and its
 * own function. One builder for both: a recording is read whole (kov_profile_load); the viewer
 * counts raw stacks as they arrive and names them again when names change (livestacks.h). */
#ifndef KOV_CLIENT_PROFILE_H
#define KOV_CLIENT_PROFILE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "proto/proto.h"

struct kov_profile_stack {
	uint32_t *frames;            /* indices into names, root first */
	uint32_t depth;
	uint64_t samples;
	uint64_t events;             /* the samples' periods summed (0 when not known) */
};

/* Whose a frame is, when a profile tells objects apart (by_object): a method's frame its
 * object (space 0 for the kernel's, else the process; coid, generation), a root its process
 * (space = pid, coid 0); other frames all zero. */
struct kov_profile_obj {
	uint32_t space;
	uint64_t coid;
	uint32_t gen;
};

struct kov_profile_index;

struct kov_profile {
	char **names;                /* frame names */
	char **files;                /* ... and the program each is in: "kernel", a process's
	                                name; a (name, file) pair is one frame, kept once */
	struct kov_profile_obj *objects;   /* by_object: each name's object (the third part of
	                                      its key); NULL otherwise */
	bool by_object;              /* set before adding: the same method of two objects (and
	                                the roots of two processes of one program) are two frames */
	size_t n_names;
	struct kov_profile_stack *stacks;
	size_t n_stacks;
	uint64_t samples;            /* in stacks */
	uint64_t chained;            /* ... of them with a call chain */
	uint64_t unknown_chain;      /* samples naming a chain the recording never defined */
	uint64_t skipped;            /* samples of other events than the one asked for */
	struct kov_profile_index *index;   /* private: name and stack hash indexes */
};

/* Reads recording f (positioned at its start) into p. event: only that event's samples
 * (NULL: all). 0, or -1 with the reason in err (not a recording, a broken frame, no memory,
 * an unknown event). */
int kov_profile_load(FILE *f, const char *event, struct kov_profile *p, char *err, size_t n);
void kov_profile_free(struct kov_profile *p);
/* Whether frame name i is a kernel frame. */
bool kov_profile_kernel(const struct kov_profile *p, uint32_t i);

/* What names frames: symbol tables by program, objects' classes, processes' names, and the
 * chains defined so far (CHAINS frames), as noted from the target's frames. */
struct kov_profile_names;
struct kov_profile_names *kov_profile_names_new(void);
void kov_profile_names_free(struct kov_profile_names *n);
/* Notes SYMBOLS, SCAN_PROCESSES, SCAN_OBJECTS, CHAINS and EVENT_CATALOGUE frames (others are
 * ignored); an object noted again keeps its latest class, a process its first name. false when memory ran out. */
bool kov_profile_names_note(struct kov_profile_names *n, const struct proto_frame *f);
/* Changes whenever a note changed a name some frame could get (symbols, classes, processes). */
uint64_t kov_profile_names_gen(const struct kov_profile_names *n);
/* The chain of that id among the noted CHAINS, or NULL. */
const struct proto_chain *kov_profile_names_chain(const struct kov_profile_names *n, uint32_t id);

/* A sample's stack before it is named: its process (the root), and its chain's frames, or
 * the sample's own pc as its only frame when it has no chain. */
struct kov_raw_stack {
	uint32_t pid;                /* the sample's process, 0 for the kernel */
	uint32_t user_pid;           /* whose program the user frames are in */
	uint16_t depth;              /* 1..PROTO_MAX_CHAIN_DEPTH */
	struct proto_chain_frame frames[PROTO_MAX_CHAIN_DEPTH];   /* innermost first */
};
/* Sample s's raw stack: chain c (NULL: s's own pc, kernel or user, its object if known). */
void kov_raw_stack_of(const struct proto_sample *s, const struct proto_chain *c,
		      struct kov_raw_stack *r);
/* Names r's frames with n and adds `samples` samples (their periods summed: events) to its
 * stack in p: the stack's index, or -1 when memory ran out (the stack is not added). */
long kov_profile_add(struct kov_profile *p, const struct kov_profile_names *n,
		     const struct kov_raw_stack *r, uint64_t samples, uint64_t events);

#endif

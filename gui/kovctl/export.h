/* kovctl export's writers: one call stack profile (gui/client/profile.h) in each format.
 * Each returns 0, or -1 when writing failed. */
#ifndef KOV_KOVCTL_EXPORT_H
#define KOV_KOVCTL_EXPORT_H

#include <stdio.h>
#include "client/profile.h"

/* Brendan Gregg's folded stacks: "root;caller;...;leaf count" per line. */
int export_folded(const struct kov_profile *p, FILE *out);
/* Callgrind's format (callgrind_annotate, KCachegrind): self samples per function and
 * inclusive samples per call edge; kernel functions in file "kernel", the others in their
 * process's. */
int export_callgrind(const struct kov_profile *p, FILE *out);
/* pprof's profile.proto, gzipped: sample types samples/count and events/count, one location
 * and function per frame name, the process as a label. */
int export_pprof(const struct kov_profile *p, FILE *out);
/* speedscope's file format (https://www.speedscope.app/file-format-schema.json): one sampled
 * profile, weights in samples. */
int export_speedscope(const struct kov_profile *p, FILE *out);

#endif

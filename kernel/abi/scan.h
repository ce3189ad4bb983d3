/* The KM's live-object scan (thesis 3.2.1): every live clustered object of the kernel, with its
 * class, GTT index and generation, root and per-CPU reps, children, and the process it belongs
 * to (found by walking from the ProcessAnnex through each Process's children). Costs nothing
 * unless a scan runs. */
#ifndef KOV_SCAN_H
#define KOV_SCAN_H

#include <stdint.h>
#include "kov_limits.h"

#define SCAN_MAX_CHILDREN 16
#define SCAN_MAX_CPUS KOV_MAX_CPUS

/* One object, as handed to user space (layout shared with libc-instr's users). */
struct scan_record {
	uint32_t index, generation;         /* the object's identity */
	uint32_t pid;                       /* owning process, 0 for the kernel's own */
	uint32_t nchildren;                 /* may exceed SCAN_MAX_CHILDREN (list truncated) */
	uint64_t root;                      /* root address */
	uint64_t reps[SCAN_MAX_CPUS];       /* rep installed on each CPU, 0 if none */
	uint32_t children[SCAN_MAX_CHILDREN];   /* GTT indices */
	char class_name[24];
	char process_name[32];
	uint32_t flags;                     /* SCAN_USER: an object of a process's own runtime */
	uint32_t pad;
	uint64_t invocations;               /* method calls counted (SCAN_COUNTED) */
};

#define SCAN_USER 1u
#define SCAN_COUNTED 2u                     /* invocation counting is on for the object */
#define SCAN_PER_CPU 4u                     /* its root makes a rep per CPU (even if one so far) */

struct scan_totals {
	uint32_t objects;      /* live objects found (also those that did not fit) */
	uint32_t written;      /* records written */
	uint64_t tb_ticks;     /* timebase ticks the scan took */
	uint32_t user_objects; /* of them, objects of processes' own runtimes */
	uint32_t processes_asked, processes_silent;   /* runtimes asked to scan themselves;
	                                                 those that did not answer in time */
	uint32_t silent_pid;   /* the first silent one */
};

/* How long a process's runtime gets to answer (microseconds). */
#define SCAN_USER_TIMEOUT_US 200000
/* ... when it turns instrumentation on or off for all its objects: a counting table is made or
 * freed for each, which for jbb's thousands of objects on a 4-CPU machine under -icount took
 * longer than 200 ms (the evaluation's "calls" state was refused as unanswered). */
#define INSTRUMENT_USER_TIMEOUT_US 2000000
/* A requested hot swap (SYS_KM_SWAP): each of its drain and block phases may take this long
 * (on a machine whose CPUs take turns, QEMU's 100 ms round robin alone made drains of 440 ms),
 * and the runtime then answers as it does a scan. */
#define SWAP_PHASE_TIMEOUT_US 1000000
#define SWAP_USER_TIMEOUT_US (2 * SWAP_PHASE_TIMEOUT_US + SCAN_USER_TIMEOUT_US)

/* Scans the kernel's objects into out[0..max); returns the totals. */
struct scan_totals km_scan(struct scan_record *out, uint32_t max);
/* Then asks every process with a runtime scanner to scan itself and appends its records
 * (thread context: waits up to SCAN_USER_TIMEOUT_US for each). */
void km_scan_user(struct scan_record *out, uint32_t max, struct scan_totals *t);

#endif

/* A live-object scan of the target held in memory: processes, each with its objects sorted
 * by COID, and the children links resolved to indices, so a viewer or kovctl can walk the
 * object tree (Process -> HAT -> SegmentHATs ...) without the frames it came in. */
#ifndef KOV_CLIENT_SCAN_H
#define KOV_CLIENT_SCAN_H

#include "client/client.h"

#define KOV_NOT_IN_SCAN ((size_t)-1)

struct kov_scan_object {
	uint32_t pid, gen;
	uint64_t coid, root;
	uint16_t flags;                  /* PROTO_OBJ_* */
	char class_name[PROTO_NAME_MAX + 1];
	uint16_t n_reps;
	uint64_t *reps;                  /* rep address per CPU, 0 = none yet */
	uint32_t n_children;
	struct proto_ref *children;      /* as the target listed them */
	size_t *child;                   /* index in kov_scan.objects when listed under the same
	                                    process (the tree), else KOV_NOT_IN_SCAN: see
	                                    kov_scan_find_child for links to other processes */
	uint32_t parents;                /* objects of the same process listing it as a child */
};

struct kov_scan_process {
	uint32_t pid, ppid, threads;
	uint16_t state;                  /* proto_process_state; 0 when only its objects came */
	char name[PROTO_NAME_MAX + 1];
	size_t first, count;             /* its objects: objects[first .. first + count) */
};

struct kov_scan {
	uint64_t timebase;               /* when the target took the scan */
	struct kov_scan_process *procs;  /* by pid */
	size_t n_procs;
	struct kov_scan_object *objects; /* by pid, then COID, then generation */
	size_t n_objects;
	struct kov_scan_kref { uint64_t coid; uint32_t gen; size_t index; } *kernel;
	size_t n_kernel;                 /* kernel objects, by COID and generation */
};

/* Asks for processes and objects (pid: one process, or PROTO_PID_ALL) and builds the scan.
 * A pid the target does not know is KOV_E_TARGET (NOT_FOUND). */
int kov_scan_collect(struct kov_client *c, uint32_t pid, struct kov_scan *out);
/* Builds a scan from the frames of a SCAN_REQUEST's answer: 0, or with why in err -1 for a
 * frame that does not belong in it, -2 out of memory. */
int kov_scan_build(const struct kov_answer *a, struct kov_scan *out, char *err, size_t n);
/* The object (pid, coid, gen): its index, or KOV_NOT_IN_SCAN. */
size_t kov_scan_find(const struct kov_scan *s, uint32_t pid, uint64_t coid, uint32_t gen);
/* Kernel objects (COIDs from KOV_KERNEL_COID_BASE) are listed under the process that owns
 * them, but samples and counts name them under pid 0: with pid 0 this also finds a kernel
 * object whatever process it is listed under. */
#define KOV_KERNEL_COID_BASE 0xD000000000000000ull
/* The space samples and lock records name object (pid, coid) in: 0 (the kernel) for a kernel
 * COID, else pid. */
static inline uint32_t kov_object_space(uint32_t pid, uint64_t coid)
{
	return coid >= KOV_KERNEL_COID_BASE ? 0 : pid;
}
size_t kov_scan_find_any(const struct kov_scan *s, uint32_t pid, uint64_t coid, uint32_t gen);
/* The CPU whose rep of per-CPU object o holds address addr (a lock inside a rep: the nearest
 * rep at or below it); -1 for a single-rep object or when no rep lies at or below addr. */
int kov_scan_rep_cpu(const struct kov_scan_object *o, uint64_t addr);
/* Child c of object o wherever it is listed: a kernel object's child may be listed under
 * another process (the ProcessAnnex's Processes are under their own pids). Its index, or
 * KOV_NOT_IN_SCAN when the scan does not hold it at all. */
size_t kov_scan_find_child(const struct kov_scan *s, const struct kov_scan_object *o, uint32_t c);
/* The process pid of the scan, or NULL. */
const struct kov_scan_process *kov_scan_process(const struct kov_scan *s, uint32_t pid);
void kov_scan_free(struct kov_scan *s);

#endif

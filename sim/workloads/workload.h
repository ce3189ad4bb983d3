/* Helpers the workload programs share. */
#ifndef KOV_WORKLOAD_H
#define KOV_WORKLOAD_H

#include <kov.h>
#include <cobj.h>
#include "../../kernel/abi/syscall_nr.h"

/* Inline assembly: 1000 instructions of dependent adds on operand %0 (125 passes of seven adds
 * and a bdnz), so the processor completes one per cycle at best. Clobbers r0 and CTR; uses
 * local label 1. */
#define WL_ADDS_1000                   \
	"	li	0, 125\n"             \
	"	mtctr	0\n"                  \
	"1:	add	%0, %0, %0\n"         \
	"	add	%0, %0, %0\n"         \
	"	add	%0, %0, %0\n"         \
	"	add	%0, %0, %0\n"         \
	"	add	%0, %0, %0\n"         \
	"	add	%0, %0, %0\n"         \
	"	add	%0, %0, %0\n"         \
	"	bdnz	1b\n"

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

/* A single-rep root around rep, not yet an object (0 if out of memory). */
static inline struct co_root *wl_single_root(const struct co_class *cls, void *rep,
					     void (*free_fn)(struct co_root *root, void *rep))
{
	struct co_root *root = malloc(sizeof *root);
	if (!root)
		return 0;
	memset(root, 0, sizeof *root);
	root->cls = cls;
	root->kind = CO_SINGLE_REP;
	root->make_rep = wl_existing_rep;
	root->free = free_fn;
	root->reps[0] = rep;
	return root;
}

/* A single-rep object around a rep that lives as long as the program (0 if out of memory). */
static inline coid_t wl_static_object(const struct co_class *cls, void *rep)
{
	struct co_root *root = wl_single_root(cls, rep, wl_never_freed);
	return root ? co_create(root) : 0;
}

/* A thread pinned to one CPU touches fresh pages there (see wl_warm_every_cpu). */
static void wl_touch_pages_here(void *arg)
{
	(void)arg;
	char *p = sbrk(4 * 4096);   /* fresh pages: each touch is a fault on this CPU */
	if (p != (char *)-1)
		for (int i = 0; i < 4 * 4096; i += 4096)
			p[i] = 1;
}

/* Makes the kernel's per-CPU reps that are created at a CPU's first use (the page manager's,
 * on a CPU's first frame) exist on every CPU before a heap census, so a rep first made during
 * the measured run does not read as a leaked block (threadexit once saw 136 -> 137 blocks, the
 * kernel's report naming make_cpu_rep in pm.c). Each CPU faults in a few fresh pages of this
 * program's heap (16 KiB per CPU, never given back). */
static inline void wl_warm_every_cpu(void)
{
	long cpus = meminfo(MEMINFO_CPUS);
	for (long cpu = 0; cpu < cpus; cpu++) {
		int tid = thread_create(wl_touch_pages_here, 0, (int)cpu);
		if (tid > 0)
			thread_join(tid);
	}
}

/* Kernel heap blocks no other live process can move: the caller's own, the kernel's and those
 * of processes already reaped (kernel/mm/kmem.h's accounts). A child's blocks are among them
 * once it is reaped, and the blocks other processes hold come and go outside them. */
static inline long wl_heap_blocks_mine(void)
{
	return meminfo(MEMINFO_HEAP_OWN) + meminfo(MEMINFO_HEAP_UNOWNED);
}

/* wl_heap_blocks_mine once deferred destruction has caught up. A destroyed clustered object is
 * freed only after every CPU has passed a quiescent point, so a count read just after a child is
 * reaped may still hold its objects (38 blocks, seen once on a loaded 4-CPU host). Waits until
 * the count has held for 100 ms, at most 3 s. */
static inline long wl_settled_heap_blocks(void)
{
	long last = wl_heap_blocks_mine();
	uint64_t start = clock_ns(), since = start;
	while (clock_ns() - since < 100000000ull && clock_ns() - start < 3000000000ull) {
		yield();
		long now = wl_heap_blocks_mine();
		if (now != last)
			last = now, since = clock_ns();
	}
	return last;
}

/* The timebase register. */
static inline uint64_t wl_tb(void)
{
	uint64_t t;
	__asm__ volatile("mftb %0" : "=r"(t));
	return t;
}

/* Timebase ticks per second, against the kernel's clock over 20 ms. */
static inline uint64_t wl_tb_hz(void)
{
	uint64_t n0 = clock_ns(), t0 = wl_tb();
	while (clock_ns() - n0 < 20000000)
		;
	return (wl_tb() - t0) * 1000000000ull / (clock_ns() - n0);
}

/* The median timebase ticks of a spin-lock acquisition that does not wait (with its two
 * timebase reads): what a ground-truth measurement subtracts from every acquisition, so that
 * one that did not wait adds nothing. */
static inline uint64_t wl_uncontended_ticks(void)
{
	static uint64_t d[501];
	struct spinlock l = SPINLOCK_INIT;
	for (int i = 0; i < 501; i++) {
		uint64_t t0 = wl_tb();
		spin_lock(&l);
		d[i] = wl_tb() - t0;
		spin_unlock(&l);
	}
	for (int i = 1; i < 501; i++)   /* insertion sort: the C library has no qsort */
		for (int j = i; j > 0 && d[j - 1] > d[j]; j--) {
			uint64_t t = d[j];
			d[j] = d[j - 1];
			d[j - 1] = t;
		}
	return d[250];
}

#endif

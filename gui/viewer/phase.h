/* Where a frame's time goes: each drawing phase's share of the frame, so the benchmarks can
 * say which part makes a slow frame slow (tree rebuilds, charts, text) rather than only that
 * it was slow. Cheap enough to stay on: two clock reads per phase (the wall clock and the
 * thread's CPU time). */
#ifndef KOV_VIEWER_PHASE_H
#define KOV_VIEWER_PHASE_H

#include <stdint.h>

enum phase { PH_POLL, PH_TREE, PH_BAR, PH_OBJTREE, PH_PANES, PH_TOP, PH_SELECTED, PH_OVERLAY,
	     PH_PRESENT, PHASES };

struct phase_clock {
	uint64_t last;                    /* when the previous phase ended, ns */
	uint64_t last_cpu;                /* ... in the drawing thread's CPU time */
	double ms[PHASES];                /* this frame's time in each phase */
	double cpu_ms[PHASES];            /* ... of the thread's own CPU time: a busy host's
					   * waits for a core are in ms, not here */
};

extern const char *const phase_name[PHASES];
/* A new frame: every phase at zero, the clock started. */
void phase_begin(struct phase_clock *c);
/* The time since the last mark goes to phase p. */
void phase_mark(struct phase_clock *c, enum phase p);
/* The calling thread's CPU time: a frame's own cost, without the host's other work. */
uint64_t bench_thread_cpu_ns(void);

#endif

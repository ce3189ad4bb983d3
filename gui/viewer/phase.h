/* Where a frame's time goes: each drawing phase's share of the frame, so the benchmarks can
 * say which part makes a slow frame slow (tree rebuilds, charts, text) rather than only that
 * it was slow. Cheap enough to stay on: one clock read per phase. */
#ifndef KOV_VIEWER_PHASE_H
#define KOV_VIEWER_PHASE_H

#include <stdint.h>

enum phase { PH_POLL, PH_TREE, PH_BAR, PH_OBJTREE, PH_PANES, PH_TOP, PH_SELECTED, PH_OVERLAY,
	     PH_PRESENT, PHASES };

struct phase_clock {
	uint64_t last;                    /* when the previous phase ended, ns */
	double ms[PHASES];                /* this frame's time in each phase */
};

extern const char *const phase_name[PHASES];
/* A new frame: every phase at zero, the clock started. */
void phase_begin(struct phase_clock *c);
/* The time since the last mark goes to phase p. */
void phase_mark(struct phase_clock *c, enum phase p);

#endif

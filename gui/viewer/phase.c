/* Per-phase frame times (viewer/phase.h). */
#include <string.h>
#include "viewer/phase.h"
#include "client/client.h"

const char *const phase_name[PHASES] = {
	"poll", "tree_build", "bar", "object_tree", "panes", "top", "selected", "overlay", "present",
};

void phase_begin(struct phase_clock *c)
{
	memset(c->ms, 0, sizeof c->ms);
	c->last = kov_now_ns();
}

void phase_mark(struct phase_clock *c, enum phase p)
{
	uint64_t now = kov_now_ns();
	c->ms[p] += (double)(now - c->last) / 1e6;
	c->last = now;
}

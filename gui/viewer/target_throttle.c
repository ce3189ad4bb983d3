/* The monitor's cost bound in the viewer (viewer.h): each pushed THROTTLE (protocol 1.7) is a
 * mark on the panes' time axes, and the status line says what the periods are now and why. */
#include <stdio.h>
#include <string.h>
#include "viewer/viewer.h"

void target_take_throttle(struct target *t, const struct proto_frame *f)
{
	struct proto_throttle m;
	if (proto_decode_throttle(f, &m) != 0)
		return;
	if (t->n_throttles == THROTTLE_MARKS) {
		memmove(t->throttles, t->throttles + 1, (THROTTLE_MARKS - 1) * sizeof t->throttles[0]);
		t->n_throttles--;
	}
	t->throttles[t->n_throttles++] = (struct throttle_mark){ kov_now_ns(), m.factor, m.cost_bp,
								  m.limit_bp };
	if (m.factor > 1)
		snprintf(t->status, sizeof t->status, "sampling periods x%u from now: the monitor cost "
			 "%u.%02u%% of the CPUs' time, over its limit of %u.%02u%%", (unsigned)m.factor,
			 (unsigned)(m.cost_bp / 100), (unsigned)(m.cost_bp % 100),
			 (unsigned)(m.limit_bp / 100), (unsigned)(m.limit_bp % 100));
	else
		snprintf(t->status, sizeof t->status, "sampling periods as configured again: the "
			 "monitor's cost is %u.%02u%% of the CPUs' time", (unsigned)(m.cost_bp / 100),
			 (unsigned)(m.cost_bp % 100));
}

/* The monitor's cost bound in the viewer (viewer.h): each pushed THROTTLE (protocol 1.7) is a
 * mark on the panes' time axes, and while the periods are lengthened the window's title says
 * so (target.c); the status line stays the user's own actions'. */
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
}

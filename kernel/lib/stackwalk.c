#include "stackwalk.h"

int stack_walk(const struct stack_walk *w, uint64_t *pcs, int max, enum walk_end *end)
{
	uint64_t sp = w->sp;
	int n = 0;
	for (;;) {
		uint64_t next, ret;
		if (sp & 15 || !w->read(w->ctx, sp, &next)) {
			*end = WALK_END_BAD;
			return n;
		}
		if (next == 0) {
			*end = WALK_END_CHAIN;
			return n;
		}
		if (next <= sp || next - sp > w->max_frame || next & 15 ||
		    !w->read(w->ctx, next + STACK_LR_SAVE, &ret)) {
			*end = WALK_END_BAD;
			return n;
		}
		if (n == max) {
			*end = WALK_END_TRUNCATED;
			return n;
		}
		pcs[n++] = ret;
		sp = next;
	}
}

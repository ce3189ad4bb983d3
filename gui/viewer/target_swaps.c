/* Hot swaps in the viewer (viewer.h): asking for one on the selected object, and the marks that
 * show each swap, this viewer's or another client's, on the time axis and in the tree. */
#include <stdio.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/optimizer.h"

static void note(struct target *t, const struct kov_swapped *s)
{
	if (t->n_swaps == SWAP_MARKS) {
		memmove(t->swaps, t->swaps + 1, (SWAP_MARKS - 1) * sizeof t->swaps[0]);
		t->n_swaps--;
	}
	struct swap_mark *m = &t->swaps[t->n_swaps++];
	*m = (struct swap_mark){ kov_now_ns(), s->m.pid, s->m.coid, s->m.result == PROTO_SWAP_OK, "" };
	snprintf(m->to, sizeof m->to, "%s", s->to);
	if (m->swapped)
		snprintf(t->status, sizeof t->status, "pid %u object 0x%llx: %s -> %s; drain %.1f ms, "
			 "block %.1f ms, %llu calls held", (unsigned)s->m.pid,
			 (unsigned long long)s->m.coid, s->from, s->to, s->m.forward_ns / 1e6,
			 s->m.block_ns / 1e6, (unsigned long long)s->m.held);
	else
		snprintf(t->status, sizeof t->status, "pid %u object 0x%llx: not swapped to %s: %s",
			 (unsigned)s->m.pid, (unsigned long long)s->m.coid, s->to,
			 proto_swap_result_name(s->m.result));
}

bool target_swap(struct target *t, uint32_t pid, uint64_t coid, const char *cls)
{
	struct kov_opt_params pairs;
	kov_opt_defaults(&pairs);
	bool to_fine;
	const char *to = kov_opt_peer(&pairs, cls, &to_fine);
	if (!to) {
		snprintf(t->status, sizeof t->status, "%s has no peer class to swap to", cls);
		return false;
	}
	if (t->state != CONN_UP || kov_client_target(t->c)->role != PROTO_ROLE_CONTROLLER) {
		snprintf(t->status, sizeof t->status, "a hot swap needs the controller role (--token)");
		return false;
	}
	struct kov_swapped s;
	if (kov_client_swap(t->c, pid, coid, to, &s)) {
		snprintf(t->status, sizeof t->status, "swap to %s refused: %s", to, kov_client_error(t->c));
		return false;
	}
	note(t, &s);
	t->next_scan_ns = 0;   /* the tree shows the new class at once */
	return s.m.result == PROTO_SWAP_OK;
}

void target_take_swapped(struct target *t, const struct proto_frame *f)
{
	struct kov_swapped s;
	if (kov_swapped_read(f, &s) == 0) {
		note(t, &s);
		t->next_scan_ns = 0;
	}
}

const struct swap_mark *target_swap_mark(const struct target *t, uint32_t pid, uint64_t coid)
{
	for (size_t i = t->n_swaps; i-- > 0;)
		if (t->swaps[i].pid == pid && t->swaps[i].coid == coid)
			return &t->swaps[i];
	return NULL;
}

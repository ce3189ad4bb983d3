/* SWAP (proto/proto_swap.h): the controller asks for a process's object, or one of the
 * kernel's (pid 0), to be hot-swapped. The KM hands a process's request to that process's
 * runtime, which swaps it (common/co/co_swap.h) and reports each phase; a kernel object is
 * swapped by the KM's caller, this daemon's thread, in the kernel. The answer, SWAPPED, goes to
 * the asker and, as an event of the stream, to every other subscriber that knows the message.
 * The daemon waits meanwhile (at most SWAP_USER_TIMEOUT_US, kernel/abi/scan.h). */
#include "dispatch.h"
#include "dcid.h"
#include "monitor.h"
#include "subscribers.h"
#include <km.h>
#include "proto/proto_swap.h"
#include "kernel/abi/km_abi.h"
#include "common/co/co_swap.h"

/* The runtime's results are the protocol's, number for number. */
_Static_assert((int)PROTO_SWAP_OK == (int)CO_SWAP_OK && (int)PROTO_SWAP_NOT_LIVE == (int)CO_SWAP_NOT_LIVE &&
	       (int)PROTO_SWAP_NOT_SWAPPABLE == (int)CO_SWAP_NOT_SWAPPABLE &&
	       (int)PROTO_SWAP_INCOMPATIBLE == (int)CO_SWAP_INCOMPATIBLE &&
	       (int)PROTO_SWAP_BUSY == (int)CO_SWAP_BUSY && (int)PROTO_SWAP_NESTED == (int)CO_SWAP_NESTED &&
	       (int)PROTO_SWAP_NO_MEMORY == (int)CO_SWAP_NO_MEMORY &&
	       (int)PROTO_SWAP_DRAIN_TIMEOUT == (int)CO_SWAP_DRAIN_TIMEOUT &&
	       (int)PROTO_SWAP_BLOCK_TIMEOUT == (int)CO_SWAP_BLOCK_TIMEOUT &&
	       (int)PROTO_SWAP_TRANSFER_FAILED == (int)CO_SWAP_TRANSFER_FAILED &&
	       (int)PROTO_SWAP_RESULTS == (int)CO_SWAP_RESULTS, "swap results pinned");

static void refuse(struct client *c, const struct proto_frame *f, long rc)
{
	client_error(c, f->req, f->type, rc == -KOV_ESRCH ? PROTO_E_NOT_FOUND : PROTO_E_UNAVAILABLE,
		     rc == -KOV_ESRCH ? "no such process" :
		     rc == -KOV_ENODEV ? "that process has no clustered-object runtime" :
		     rc == -KOV_ETIMEDOUT ? "that process's runtime did not answer in time" :
		     "the KM refused it");
}

void monitor_swap(struct client *c, const struct proto_frame *f)
{
	struct proto_swap m;
	proto_decode_swap(f, &m);
	uint32_t index;
	if (!index_of_coid(m.pid, m.coid, &index)) {
		client_error(c, f->req, f->type, PROTO_E_NOT_FOUND, "no such object in that process's space");
		return;
	}
	char to[KM_CLASS_NAME];
	proto_str_copy(to, sizeof to, m.to);
	struct km_swap_answer a;
	long rc = km_swap(m.pid, index, to, &a);
	if (rc < 0 || a.result == KM_SWAP_NO_ANSWER) {
		refuse(c, f, rc < 0 ? rc : -KOV_ETIMEDOUT);
		monitor.swaps_failed++;
		return;
	}
	a.from[KM_CLASS_NAME - 1] = a.to[KM_CLASS_NAME - 1] = 0;
	struct proto_swapped s = {
		m.pid, m.coid, (uint16_t)a.result, a.walks, clock_ns(), a.forward_ns, a.block_ns,
		a.transfer_ns, a.forwarded, a.held, proto_cstr(a.from), proto_cstr(a.to)
	};
	printf("dcid: swap of pid %u object %u to %s by client %u: %s (%s)\n", (unsigned)m.pid,
	       (unsigned)index, to, c->id, proto_swap_result_name(s.result), a.from);
	int n = proto_encode_swapped(monitor_out, sizeof monitor_out, f->req, 0, &s);
	if (n < 0) {   /* a name the runtime reported does not fit the protocol: a daemon bug */
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "cannot encode the swap's answer");
		return;
	}
	client_queue(c, monitor_out, (size_t)n);
	n = proto_encode_swapped(monitor_out, sizeof monitor_out, 0, 0, &s);
	subscribers_send_to(AUDIENCE_FROM(6), monitor_out, (size_t)n, c);
	if (s.result == PROTO_SWAP_OK)
		monitor.swaps++;
	else
		monitor.swaps_failed++;
}

/* The monitor's cost bound seen from the daemon (proto/proto_throttle.h): each turn of the
 * loop while monitoring, the daemon charges the CPU time of its drain to the KM's throttle (the
 * samples' draining, encoding and sending are sampling's cost; its other work is not) and pushes every change of the periods' factor
 * to the 1.7 subscribers as THROTTLE; THROTTLE_GET and THROTTLE_SET are answered here. */
#include "dispatch.h"
#include "monitor.h"
#include "subscribers.h"
#include <km.h>
#include "proto/proto_throttle.h"

struct throttle_seen throttle_seen;

static struct proto_throttle of_event(const struct km_throttle_event *e, uint64_t windows)
{
	return (struct proto_throttle){ e->seq, e->timebase, e->factor, e->cost_bp, e->limit_bp,
					windows };
}

/* One call to the KM: charges this thread's CPU time when asked, and pushes the changes. */
static bool throttle_call(uint32_t charge, uint32_t set_limit)
{
	static struct km_throttle_io io;
	io = (struct km_throttle_io){ .charge = charge, .since = throttle_seen.seq,
				      .set_limit = set_limit };
	if (km_throttle(&io) != 0)
		return false;
	for (uint32_t i = 0; i < io.n_events; i++) {
		struct proto_throttle t = of_event(&io.events[i], io.windows);
		int n = proto_encode_throttle(monitor_out, sizeof monitor_out, 0, 0, &t);
		if (n > 0)
			subscribers_send_to(AUDIENCE_FROM(7), monitor_out, (size_t)n, 0);
		printf("dcid: sampling periods x%u from now (monitoring cost %u.%02u%% of the CPUs' "
		       "time, limit %u.%02u%%)\n", t.factor, t.cost_bp / 100, t.cost_bp % 100,
		       t.limit_bp / 100, t.limit_bp % 100);
	}
	throttle_seen = (struct throttle_seen){ io.seq, io.windows, io.factor, io.cost_bp,
						io.limit_bp };
	return true;
}

void throttle_mark(void)
{
	throttle_call(KM_THROTTLE_MARK, KM_THROTTLE_KEEP);
}

void throttle_poll(void)
{
	throttle_call(KM_THROTTLE_CHARGE, KM_THROTTLE_KEEP);
}

static void answer(struct client *c, uint32_t req)
{
	struct proto_throttle t = { throttle_seen.seq, 0, throttle_seen.factor,
				    throttle_seen.cost_bp, throttle_seen.limit_bp, throttle_seen.windows };
	int n = proto_encode_throttle(monitor_out, sizeof monitor_out, req, 0, &t);
	client_queue(c, monitor_out, (size_t)n);
}

void answer_throttle_get(struct client *c, const struct proto_frame *f)
{
	if (!throttle_call(0, KM_THROTTLE_KEEP)) {
		client_error(c, f->req, f->type, PROTO_E_UNAVAILABLE, "the KM has no throttle");
		return;
	}
	answer(c, f->req);
}

void monitor_throttle_set(struct client *c, const struct proto_frame *f)
{
	struct proto_throttle_set m;
	proto_decode_throttle_set(f, &m);
	if (!throttle_call(0, m.limit_bp)) {
		client_error(c, f->req, f->type, PROTO_E_UNAVAILABLE, "the KM refused the limit");
		return;
	}
	printf("dcid: monitoring cost limit %u.%02u%% (%s) by client %u\n", m.limit_bp / 100,
	       m.limit_bp % 100, m.limit_bp ? "throttling on" : "throttling off", c->id);
	answer(c, f->req);
}

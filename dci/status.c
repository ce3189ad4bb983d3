/* STATUS, answered and pushed (dci/status.h). */
#include "status.h"
#include "monitor.h"

static void encode_status(struct proto_status *st)
{
	*st = (struct proto_status){ .timebase = timebase_now(), .clients = clients_connected(),
				     .controller = dcid.controller, .clients_cut_off = dcid.clients_cut_off,
				     .frames_dropped = dcid.frames_dropped,
				     .config_id = monitor.config_id, .streams = monitor.streams,
				     .samples_lost = monitor.samples_lost,
				     .samples_discarded = monitor.samples_discarded };
}

int encode_status_for(const struct client *c, uint8_t *buf, size_t cap, uint32_t req)
{
	struct proto_status st;
	encode_status(&st);
	/* 1.3 clients get the discards too; older ones the STATUS they know. */
	return c->minor >= 3 ? proto_encode_status_ex(buf, cap, req, 0, &st)
			     : proto_encode_status(buf, cap, req, 0, &st);
}

void clients_push_status(void)
{
	uint8_t buf[128];
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		int n = c->used && c->role != PROTO_ROLE_NONE ? encode_status_for(c, buf, sizeof buf, 0) : 0;
		if (n > 0)
			client_queue(c, buf, (size_t)n);
	}
}


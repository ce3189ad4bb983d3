/* Message type -> handler (dci/dispatch.h). */
#include "dispatch.h"

struct handler {
	uint16_t type;
	request_handler *answer;
	bool unvalidated;                 /* the handler checks the payload itself */
};

static const struct handler handlers[] = {
	/* HELLO is answered unvalidated: one the daemon cannot accept is refused with a
	 * SERVER_HELLO saying why, not an ERROR. */
	{ PROTO_HELLO, answer_hello, true },
	{ PROTO_PING, answer_ping, false },
	{ PROTO_STATUS_GET, answer_status, false },
	{ PROTO_WAKEUPS_GET, answer_wakeups, false },
	{ PROTO_CLAIM_CONTROL, answer_claim, false },
	{ PROTO_SCAN_REQUEST, answer_scan, false },
	{ PROTO_SYMBOL_LOOKUP, answer_lookup, false },
	{ PROTO_SYMBOL_TABLE_GET, answer_table, false },
	{ PROTO_CATALOGUE_GET, answer_catalogue, false },
	{ PROTO_CONFIG_GET, monitor_config_get, false },
	{ PROTO_PMU_CONFIG, monitor_pmu_config, false },
	{ PROTO_START, monitor_start, false },
	{ PROTO_STOP, monitor_stop, false },
	{ PROTO_INSTRUMENT, monitor_instrument, false },
	{ PROTO_SWAP, monitor_swap, false },
	{ PROTO_THROTTLE_GET, answer_throttle_get, false },
	{ PROTO_THROTTLE_SET, monitor_throttle_set, false },
	{ PROTO_POWER_OFF, answer_power, false },
	{ PROTO_REBOOT, answer_power, false },
	{ PROTO_PLATFORM_GET, answer_platform, false },
};

static const struct handler *handler_of(uint16_t type)
{
	for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
		if (handlers[i].type == type)
			return &handlers[i];
	return 0;
}

void dispatch_frame(struct client *c, const struct proto_frame *f)
{
	int rc = proto_check_incoming(f, PROTO_SIDE_SERVER, c->role);
	if (rc == PROTO_IGNORE)
		return;
	if (rc == -PROTO_E_NOT_CONTROLLER) {
		client_error(c, f->req, f->type, PROTO_E_NOT_CONTROLLER,
			     f->type == PROTO_POWER_OFF || f->type == PROTO_REBOOT ?
			     "only the controller may power the target off or restart it" :
			     "only the controller may change the monitor's configuration");
		return;
	}
	if (rc < 0) {
		client_error(c, f->req, f->type, -rc, 0);
		return;
	}
	const struct handler *h = handler_of(f->type);
	if (!(h && h->unvalidated) && (rc = proto_validate(f)) < 0) {
		client_error(c, f->req, f->type, -rc, 0);
		return;
	}
	if (!h) {
		client_error(c, f->req, f->type, PROTO_E_UNEXPECTED, "not a request");
		return;
	}
	h->answer(c, f);
}

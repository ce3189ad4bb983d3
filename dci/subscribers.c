/* The fan-out of frames to the clients past the handshake (dci/subscribers.h). */
#include "subscribers.h"
#include "client.h"

static bool subscribed(const struct client *c, struct audience a)
{
	return c->used && c->role != PROTO_ROLE_NONE && !c->closing && c->minor >= a.from && c->minor < a.below;
}

/* The data streams go to the subscribers that did not ask for answers and events only. */
static bool takes_data(const struct client *c, struct audience a)
{
	return subscribed(c, a) && !c->no_data;
}

bool subscribers_connected(void)
{
	return subscribers_any(AUDIENCE_ALL);
}

bool subscribers_any(struct audience a)
{
	for (int i = 0; i < DCID_SLOTS; i++)
		if (takes_data(&dcid.clients[i], a))
			return true;
	return false;
}

void subscribers_push_each(struct audience a, const void *frame, size_t len, uint16_t type,
			   uint32_t records, bool (*prepare)(struct client *c, void *ctx), void *ctx)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (takes_data(c, a) && (!prepare || prepare(c, ctx)))
			client_push(c, frame, len, type, records);
	}
}

void subscribers_push(struct audience a, const void *frame, size_t len, uint16_t type,
		      uint32_t records)
{
	subscribers_push_each(a, frame, len, type, records, 0, 0);
}

void subscribers_hold(bool hold)
{
	clients_hold_data(hold);
}

void subscribers_send_to(struct audience a, const void *frame, size_t len, const struct client *except)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (c != except && subscribed(c, a))
			client_queue(c, frame, len);
	}
}

void subscribers_send(const void *frame, size_t len, const struct client *except)
{
	subscribers_send_to(AUDIENCE_ALL, frame, len, except);
}

bool subscriber_send(struct client *c, const void *frame, size_t len)
{
	return client_queue_data(c, frame, len);
}

unsigned subscriber_slot(const struct client *c)
{
	return (unsigned)(c - dcid.clients);
}

/* The monitor's one way to the clients (client.c): frames for every subscriber, that is every
 * client past the handshake and not closing after a fatal error, chosen by the protocol minor
 * its HELLO gave where messages differ between versions. The monitor's parts (monitor.h,
 * chains.c) reach clients through this interface only, never the connections themselves. */
#ifndef KOV_DCID_SUBSCRIBERS_H
#define KOV_DCID_SUBSCRIBERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct client;

/* The subscribers whose minor is in [from, below). */
struct audience { uint32_t from, below; };
#define AUDIENCE_RANGE(from, below) ((struct audience){ (from), (below) })
#define AUDIENCE_FROM(minor) AUDIENCE_RANGE(minor, 0x10000u)
#define AUDIENCE_BELOW(minor) AUDIENCE_RANGE(0, minor)
/* Minor `minor` or later (from), or an earlier one (!from). */
#define AUDIENCE_OF(minor, from) ((from) ? AUDIENCE_FROM(minor) : AUDIENCE_BELOW(minor))
#define AUDIENCE_ALL AUDIENCE_FROM(0)

/* Whether any subscriber takes the data streams (its HELLO did not say PROTO_F_NO_DATA):
 * samples drained while one does are encoded, not counted discarded. */
bool subscribers_connected(void);
/* Whether the audience has any subscriber taking the data streams (which the two pushes
 * below go to; events and answers go to every subscriber). */
bool subscribers_any(struct audience a);
/* Pushes a droppable data frame of `records` records to the audience (what a client whose
 * queue is over half full loses: client.h, client_push). */
void subscribers_push(struct audience a, const void *frame, size_t len, uint16_t type,
		      uint32_t records);
/* The same, after calling prepare for each subscriber: one it returns false for is skipped
 * (it may queue frames of its own first with subscriber_send). */
void subscribers_push_each(struct audience a, const void *frame, size_t len, uint16_t type,
			   uint32_t records, bool (*prepare)(struct client *c, void *ctx), void *ctx);
/* Holds the data frames pushed from now on in the clients' queues (true), or sends them,
 * a run of frames per send (false): client.h, clients_hold_data. */
void subscribers_hold(bool hold);
/* Queues a whole frame, never dropped, to every subscriber but `except` (0 for none), or to
 * those of the audience. */
void subscribers_send(const void *frame, size_t len, const struct client *except);
void subscribers_send_to(struct audience a, const void *frame, size_t len, const struct client *except);
/* Queues a whole frame to one subscriber; false if its connection failed (it is cut off). */
bool subscriber_send(struct client *c, const void *frame, size_t len);
/* The subscriber's connection slot, below DCID_SLOTS, for what is kept per client: a new
 * connection in the slot starts afresh (chains_client_reset). */
unsigned subscriber_slot(const struct client *c);

#endif

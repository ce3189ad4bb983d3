/* Call chains interned for the wire (docs/protocol.md, CHAINS): each distinct chain gets an
 * id once, and each 1.4 client is sent a chain's definition before the first samples that
 * name it. One table for the daemon, so a SAMPLES_CHAINED frame is encoded once for every
 * client; each client remembers which entries it has been sent. The table is bounded: when a
 * batch of samples might not fit, it is emptied first (ids go on growing, never reused, and
 * every client is sent definitions anew). */
#ifndef KOV_DCID_CHAINS_H
#define KOV_DCID_CHAINS_H

#include <stdbool.h>
#include <stdint.h>
#include "proto/proto.h"

#define CHAINS_MAX 4096                   /* entries of the table */

struct client;

/* Makes room for n new chains (empties the table if they might not fit). */
void chains_reserve(uint32_t n);
/* The id of chain c (c->id is ignored) and its entry's index in *index; 0 if no memory. */
uint32_t chains_intern(const struct proto_chain *c, uint32_t *index);
/* Sends client cl (a 1.4 client) CHAINS frames with the definitions of the entries listed
 * (n indices, repeats allowed) that it was not sent yet. False if its connection failed. */
bool chains_send(struct client *cl, const uint32_t *index, uint32_t n, uint32_t config_id);
/* Forgets what a new connection in this slot was sent. */
void chains_client_reset(struct client *cl);

#endif

/* STATUS: what the daemon says of itself, answered to STATUS_GET and pushed to every client
 * when it changes (a controller came or went, monitoring started or stopped, a client was cut
 * off). */
#ifndef KOV_DCID_STATUS_H
#define KOV_DCID_STATUS_H

#include "client.h"

/* STATUS (to clients of minor < 3) or STATUS_EX, with request id req; the frame's size. */
int encode_status_for(const struct client *c, uint8_t *buf, size_t cap, uint32_t req);
/* Pushes STATUS to every client past the handshake. */
void clients_push_status(void);

#endif

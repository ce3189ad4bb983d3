/* Internal to gui/client/: the client's state, shared by the files that implement
 * client.h (client.c: frames in and out; client_hello.c: the handshake; client_calls.c). */
#ifndef KOV_CLIENT_PRIV_H
#define KOV_CLIENT_PRIV_H

#include <stdbool.h>
#include "client/client.h"
#include "client/losses.h"
#include "client/chains.h"

struct kov_pending {                 /* a request sent and not yet taken by the caller */
	uint32_t req;
	bool done;                   /* its last frame (no MORE) has arrived */
	struct kov_answer ans;
};

struct kov_client {
	struct kov_chains chains;    /* every chain the target defined on this connection */
	int fd;                      /* -1 before connect and after the connection died */
	int dead;                    /* 0, or the KOV_E_* that ended the connection */
	char *name, *token;
	int timeout_ms;
	bool no_data;
	char error[PROTO_TEXT_MAX + 256];
	int error_code;
	char error_text[PROTO_TEXT_MAX + 1]; /* the text of the last ERROR received */

	uint8_t *rbuf;               /* one frame being assembled (proto_reader's buffer) */
	struct proto_reader reader;
	uint8_t *inbuf;              /* bytes as recv delivers them */

	enum proto_role role;        /* NONE until an accepted SERVER_HELLO arrived */
	bool hello_sent;
	struct kov_target target;
	struct kov_event *events;
	size_t n_events;

	uint32_t next_req;
	struct kov_pending *pending;
	size_t n_pending, cap_pending;

	kov_push_fn push_fn;
	void *push_arg;
	struct kov_frame *pushq;     /* ring of queued pushed frames */
	size_t pushq_cap, pushq_head, pushq_len;

	struct kov_client_stats stats;
	struct kov_losses losses;    /* what the target said was lost, since connected */
	uint64_t raw_in;             /* bytes received, complete frames or not */
};

/* Records the failure text (printf-style) and code; returns code so callers can
 * `return fail(...)`. A failure that ends the connection also closes the socket. */
int kov_fail(struct kov_client *c, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Marks the connection dead with err (already recorded) and closes the socket. */
void kov_close(struct kov_client *c, int err);

#endif

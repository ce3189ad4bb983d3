/* Client connections of the DCI protocol, the transport only: reading frames and handing them
 * to the dispatch (struct client_hooks), the bounded output queue and its back-pressure
 * (protocol.md section 6), ERROR frames, cut-offs and the connection's life. */
#ifndef KOV_DCID_CLIENT_H
#define KOV_DCID_CLIENT_H

#include "dcid.h"

#define DCID_QUEUE_BYTES (1u << 20)       /* per-client output queue (protocol.md section 6) */
#define DCID_HELLO_TIMEOUT_NS 3000000000ull
#define DCID_STALL_NS 10000000000ull      /* a queue that has not shrunk this long: cut off */
#define DCID_SEND_SPAN (64u << 10)        /* data bytes per send at most (whole frames) */

#define DCID_DROPPABLE 7

struct client {
	bool used;
	int fd;
	uint32_t id;
	enum proto_role role;             /* NONE until the handshake is done */
	bool closing;                     /* fatal error sent: flush the queue, then close */
	bool fin_sent;                    /* ... flushed and shut down for writing: reading the
	                                   * rest until the peer closes, briefly */
	uint64_t opened_ns, progress_ns;
	struct proto_reader reader;
	uint8_t *rbuf;
	uint8_t in[4096];                 /* received, not yet fed to the reader */
	size_t in_pos, in_len;
	uint8_t *q;                       /* output queue of data: bytes q[head, head + len) */
	size_t head, len;
	size_t frame_left;                /* bytes of q's first frame still to send (0: q starts
	                                   * at a frame's beginning) */
	uint8_t *ctl;                     /* answers and events, sent ahead of queued data at the
	                                   * next frame boundary: bytes ctl[ctl_head, + ctl_len) */
	size_t ctl_head, ctl_len;
	uint64_t frames_out, bytes_out;
	uint16_t minor;                   /* the client's protocol minor (from HELLO) */
	bool no_data;                     /* HELLO said PROTO_F_NO_DATA: answers and events only */
	/* Data frames not queued because the queue was over half full (protocol.md section 6),
	 * per droppable type (client.c's order), and whether DROPPED must go out first. */
	uint64_t drop_frames[DCID_DROPPABLE], drop_records[DCID_DROPPABLE], drop_bytes;
	bool drop_notice;
};

struct daemon_state {
	struct client clients[DCID_SLOTS];
	uint32_t next_id;
	uint32_t controller;              /* client id, 0 for none */
	char token[PROTO_NAME_MAX + 1];   /* empty: no controller possible */
	uint32_t clients_cut_off;
	uint64_t handshakes_closed;       /* no HELLO in time, or gave way to a newer connection */
	uint64_t frames_dropped;
	uint64_t bytes_out, frames_out;
	uint64_t bad_frames;
};
extern struct daemon_state dcid;

/* What the transport calls above it: it knows nothing of what frames mean. Set once (main.c)
 * before the first connection. */
struct client_hooks {
	/* A whole frame arrived from c, which is not closing. */
	void (*frame)(struct client *c, const struct proto_frame *f);
	/* The controller left or a client was cut off: every client's STATUS is out of date. */
	void (*status_changed)(void);
};
void clients_init(const struct client_hooks *hooks);

void client_open(int fd);
/* Connections waiting for their HELLO to be answered (or refused and closing). */
uint32_t clients_pending(void);
void client_close(struct client *c, const char *why);
/* Reads what the socket has and handles whole frames while the output queue is below half
 * full: requests beyond that wait (in `in`, then in TCP) until the queue drains, so a client
 * that pipelines many requests is answered as it reads, not cut off. */
void client_readable(struct client *c);
/* Whether the client should be polled for input (queue below half, no input waiting). */
bool client_wants_input(const struct client *c);
/* Handles input already received, once the queue has drained below half. */
void client_resume(struct client *c);
/* Sends what the queue holds (without blocking): data a run of whole frames (up to
 * DCID_SEND_SPAN bytes) per send, answers between runs. */
void client_writable(struct client *c);
/* While held, data frames wait in their queues instead of going to the socket one by one;
 * releasing sends each client's in as few sends as its socket takes. The monitor holds them
 * over a turn's drain: on the serial machine a send costs milliseconds of CPU 0 whatever its
 * size (QEMU's network path), and a drain made one per frame. */
void clients_hold_data(bool hold);
/* Closes clients whose HELLO did not come in time or whose queue stalled. */
void client_timers(uint64_t now);
uint32_t clients_connected(void);

/* ---- sending: for the handlers' answers, and subscribers.c -------------------------------- */
/* Queues a whole frame for c: an answer or an event, which goes out ahead of the data frames
 * already queued (after the one being sent), so that PONG, OK or an ERROR never waits behind a
 * megabyte of samples. False (and c is cut off) when it cannot fit. */
bool client_queue(struct client *c, const void *frame, size_t len);
/* Queues a data frame (or one that must stay in the data's order, such as the CHAINS that
 * samples name) behind those already queued. */
bool client_queue_data(struct client *c, const void *frame, size_t len);
/* Bytes waiting to go out to c, data and answers. */
static inline size_t client_backlog(const struct client *c)
{
	return c->len + c->ctl_len;
}
/* Queues a droppable data frame (SAMPLES, INTERVAL_COUNTS, LOCK_STATS, INVOCATIONS) of
 * `records` records, or counts it dropped while the queue is over half full; after a loss,
 * DROPPED goes out first once the queue is below a quarter. */
void client_push(struct client *c, const void *frame, size_t len, uint16_t type, uint32_t records);
/* Queues DROPPED with c's totals if drops are not reported yet (before STATUS, and when the
 * queue has room again); false when c was cut off. */
bool client_drop_notice(struct client *c);
/* Queues an ERROR about a frame; fatal ones close the connection once sent. */
void client_error(struct client *c, uint32_t req, uint16_t about, int code, const char *text);
/* Shuts the connection down for writing once a fatal error has been sent. */
void client_finish(struct client *c);

#endif

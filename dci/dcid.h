/* The DCI daemon (target side): one thread, a poll() loop over the listening sockets and the
 * clients. It serves the wire protocol of docs/protocol.md on TCP PROTO_DEFAULT_PORT (7242)
 * and OpenMetrics on TCP PROTO_METRICS_DEFAULT_PORT (9242), and reads the target only through
 * the KM's system calls. */
#ifndef KOV_DCID_H
#define KOV_DCID_H

#include <kov.h>
#include <socket.h>
#include "proto/proto.h"
#include "kernel/abi/scan.h"
#include "kernel/abi/syscall_nr.h"

#define DCID_NAME "kov-dcid 1.0"
#define DCID_MAX_CLIENTS 16               /* past the handshake */
/* Connections whose HELLO has not been answered have slots of their own, so idle connections
 * cannot keep clients out: when all are taken, the oldest gives way to a new connection. */
#define DCID_MAX_PENDING 8                /* fds: 16 + 8 + 4 metrics + 2 listening <= 32 */
#define DCID_SLOTS (DCID_MAX_CLIENTS + DCID_MAX_PENDING)
#define DCID_BACKLOG 16                   /* the kernel's accept queue (DEFAULT_ACCEPTMBOX_SIZE) */
#define DCID_QUEUE_BYTES (1u << 20)       /* per-client output queue (protocol.md section 6) */
#define DCID_HELLO_TIMEOUT_NS 3000000000ull
#define DCID_STALL_NS 10000000000ull      /* a queue that has not shrunk this long: cut off */
#define DCID_LINGER_NS 2000000000ull      /* after a fatal error: wait this long for the close */

/* ---- the target, as the KM describes it (target.c) ------------------------------------- */
struct target {
	struct km_info info;
	struct km_event_info *events;
	uint32_t n_events;
	void *ksyms;                      /* kernel symbol table (common/syms/ksyms.h) */
	long ksyms_size;
};
extern struct target target;

/* Reads what does not change (description, catalogue, kernel symbols); false on failure. */
bool target_load(void);
/* Refreshes the volatile fields of target.info (timebase, uptime, wake-up counters). */
void target_refresh(void);
/* How the CPUs ran (measured by the kernel at boot): PROTO_CPUS_*. */
uint8_t target_cpus_run(void);
/* A fresh snapshot of the processes and their objects. */
struct snapshot {
	struct km_process *procs;
	uint32_t n_procs;
	struct scan_record *objs;
	uint32_t n_objs;
	struct scan_totals totals;
	uint64_t timebase;
};
bool snapshot_take(struct snapshot *s);
void snapshot_free(struct snapshot *s);
const struct km_process *snapshot_process(const struct snapshot *s, uint32_t pid);
/* The symbol table of a process's program (cached per program); 0 and *why when none. */
const void *program_symbols(uint32_t pid, const char **image, const char **why);
/* The COID of object `index` in pid's space (kernel or user LTT). */
uint64_t coid_of(uint32_t pid, uint32_t index);
uint64_t timebase_now(void);

/* ---- clients (client.c) ------------------------------------------------------------------ */
#define DCID_DROPPABLE 6

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
	uint8_t *q;                       /* output queue: bytes q[head, head + len) */
	size_t head, len;
	uint64_t frames_out, bytes_out;
	uint16_t minor;                   /* the client's protocol minor (from HELLO) */
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
/* Sends what the queue holds (without blocking). */
void client_writable(struct client *c);
/* Closes clients whose HELLO did not come in time or whose queue stalled. */
void client_timers(uint64_t now);
uint32_t clients_connected(void);
/* Pushes STATUS to every client past the handshake. */
void clients_push_status(void);

/* Queues a whole frame for c; false (and c is cut off) when it cannot fit. */
bool client_queue(struct client *c, const void *frame, size_t len);
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

/* ---- answers (answers.c) ----------------------------------------------------------------- */
void answer_hello(struct client *c, const struct proto_frame *f);
void answer_request(struct client *c, const struct proto_frame *f);
void encode_status(struct proto_status *st);
/* STATUS (to clients of minor < 3) or STATUS_EX, with request id req; the frame's size. */
int encode_status_for(const struct client *c, uint8_t *buf, size_t cap, uint32_t req);

/* ---- monitoring (monitor.h) -------------------------------------------------------------- */
struct client;
void monitor_pmu_config(struct client *c, const struct proto_frame *f);
void monitor_config_get(struct client *c, uint32_t req);
void monitor_start(struct client *c, const struct proto_frame *f);
void monitor_stop(struct client *c, const struct proto_frame *f);
void monitor_instrument(struct client *c, const struct proto_frame *f);

/* ---- metrics (metrics.c, metrics_render.c) ---------------------------------------------- */
#define DCID_METRICS_CONNS 4
#define DCID_METRICS_REQUEST_NS 5000000000ull   /* the request head must arrive within */
#define DCID_METRICS_ANSWER_NS 20000000000ull   /* and the answer be taken within */
#define DCID_METRICS_BODY_MAX (4u << 20)
enum metrics_state { METRICS_FREE, METRICS_READING, METRICS_ANSWERING, METRICS_LINGER };
struct metrics_conn {
	enum metrics_state state;
	int fd;
	uint64_t opened_ns, deadline_ns;
	char req[2048];                   /* HTTP_HEAD_MAX */
	size_t len;
	char *out;                        /* the whole answer, head and body */
	size_t out_len, out_pos;
};
extern struct metrics_conn metrics_conns[DCID_METRICS_CONNS];
struct metrics_stats {
	uint64_t closed;                  /* before their answer was out */
	uint64_t failed;                  /* answered 503: the exposition could not be made */
};
extern struct metrics_stats metrics_stats;
void metrics_init(void);
/* Takes a new connection on the metrics port. */
void metrics_accept(int fd);
/* What to poll a busy connection for, and its poll result. */
short metrics_events(const struct metrics_conn *m);
void metrics_ready(struct metrics_conn *m, short revents);
/* Closes what has passed its deadline (a late request is answered 408). */
void metrics_timers(uint64_t now);
struct expo;
/* The whole exposition; false when it could not be made (no snapshot, no memory, too big). */
bool metrics_render(struct expo *t);

#endif

/* The DCI daemon (target side): one thread, a poll() loop over the listening sockets and the
 * clients. It serves the wire protocol of docs/protocol.md on TCP PROTO_DEFAULT_PORT (7242)
 * and OpenMetrics on TCP PROTO_METRICS_DEFAULT_PORT (9242), and reads the target only through
 * the KM's system calls.
 *
 * Its parts, each calling only the parts listed before it, never back:
 *   target.c       what the daemon knows of the target (this header)
 *   client.c       the transport: connections, frames in and out, back-pressure (client.h)
 *   subscribers.c  frames for every client past the handshake (subscribers.h)
 *   chains.c       call chains interned for the wire (chains.h)
 *   monitor.c ...  the KM's data pushed to the subscribers (monitor.h)
 *   status.c       STATUS, answered and pushed (status.h)
 *   answers.c, control.c  the requests' handlers
 *   dispatch.c     message type -> handler (dispatch.h)
 *   metrics*.c     the OpenMetrics endpoint (this header)
 *   main.c         the poll() loop; hands client.c its hooks into dispatch.c and status.c */
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
#define DCID_LINGER_NS 2000000000ull      /* after a fatal error, or a metrics answer: wait this
                                          * long for the peer's close */

/* ---- the target, as the KM describes it (target.c) ------------------------------------- */
struct target {
	struct km_info info;
	struct km_event_info *events;
	uint32_t n_events;
	void *ksyms;                      /* kernel symbol table (common/syms/ksyms.h) */
	long ksyms_size;
	struct km_platform platform;      /* the boot clock and the platform's self-report */
	bool has_platform;
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
/* The index of an object given by its COID in pid's space; false if it names none. */
bool index_of_coid(uint32_t pid, uint64_t coid, uint32_t *index);
uint64_t timebase_now(void);

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

/* The host side of the KOV wire protocol (docs/protocol.md): one connection to a target's
 * DCI daemon, shared by kovctl and the viewer.
 *
 * A client connects, says HELLO and keeps what the target told about itself (description and
 * event catalogue, copied out of the frames). It then sends requests, each with a fresh
 * request id, and collects their answers: every frame carrying that id up to the one without
 * MORE. Frames the target pushes (request id 0) may arrive at any time, also in the middle of
 * an answer; they go to a callback, or wait in a queue when there is none.
 *
 * Everything happens in the caller's thread: nothing is read from the socket except inside
 * kov_client_pump and the calls that wait (kov_client_wait, kov_client_call...). A viewer
 * polls kov_client_fd itself and calls kov_client_pump(c, 0) when it is readable.
 *
 * Calls return 0 (or a count) on success and a negative KOV_E_* on failure; the text of the
 * last failure is kov_client_error. After CLOSED, PROTOCOL or NET the connection is gone and
 * every later call fails the same way. */
#ifndef KOV_CLIENT_H
#define KOV_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include "proto/proto.h"
#include "proto/proto_swap.h"
#include "proto/proto_throttle.h"
#include "proto/proto_platform.h"

enum kov_status {
	KOV_OK = 0,
	KOV_E_NET = -1,          /* cannot resolve or connect, or the socket failed */
	KOV_E_TIMEOUT = -2,      /* nothing (or not enough) arrived in time */
	KOV_E_CLOSED = -3,       /* the target closed the connection */
	KOV_E_PROTOCOL = -4,     /* the target sent a frame that breaks the protocol */
	KOV_E_REFUSED = -5,      /* the target refused the handshake */
	KOV_E_TARGET = -6,       /* the answer was an ERROR: kov_client_error_code says which */
	KOV_E_INTERRUPTED = -7,  /* a signal interrupted a wait */
	KOV_E_USAGE = -8,        /* a call that makes no sense now, or out of memory */
};

/* What the target said about itself in SERVER_HELLO, as C strings. */
struct kov_target {
	uint16_t major, minor;       /* the server's protocol version */
	uint32_t client_id;          /* this connection, as STATUS names it */
	enum proto_role role;        /* granted: observer or controller */
	char reason[PROTO_TEXT_MAX + 1]; /* e.g. why a token did not make us controller */
	uint64_t timebase_hz;
	uint64_t timebase_now;       /* the target's timebase when it answered */
	uint64_t memory;             /* bytes */
	uint32_t pvr;
	uint16_t cpus;
	uint16_t events;             /* catalogue entries */
	char profile[PROTO_NAME_MAX + 1];
	char model[PROTO_NAME_MAX + 1];
	char pmu[PROTO_NAME_MAX + 1];
	char build_id[PROTO_NAME_MAX + 1];
	char server[PROTO_NAME_MAX + 1];
	uint8_t cpus_run;            /* PROTO_CPUS_*: from SERVER_HELLO_EX (1.5), else UNKNOWN */
};

/* A SERVER_HELLO's or SERVER_HELLO_EX's description as C strings (the handshake's, or a
 * recording's). */
void kov_target_from_hello(struct kov_target *t, const struct proto_server_hello *h);

/* One catalogue entry; its index in the catalogue is how data frames name it. */
struct kov_event {
	uint8_t source;              /* PROTO_SRC_HW or PROTO_SRC_SW */
	uint8_t flags;               /* PROTO_EV_* */
	uint32_t code;
	char name[PROTO_NAME_MAX + 1];
	char *description;           /* owned by the client; "" when none */
	char *why_not;               /* "" when the event counts and samples here */
};

/* A received frame kept beyond the read that brought it: f.payload points into bytes. */
struct kov_frame {
	struct proto_frame f;
	uint8_t *bytes;              /* the whole frame, header included */
	uint32_t len;
};

/* The frames of one answer, in arrival order; the last has no MORE. */
struct kov_answer {
	struct kov_frame *frames;
	size_t count;
	uint64_t bytes;              /* whole frame sizes, summed */
	size_t cap;                  /* frames' room (kov_grow) */
};

void kov_frame_free(struct kov_frame *fr);
void kov_answer_free(struct kov_answer *a);

struct kov_client_options {
	const char *name;            /* HELLO's client name: "kovctl 0.1" */
	const char *token;           /* NULL or "" to observe */
	int timeout_ms;              /* connect, handshake, and each wait for an answer; <= 0: 10 s */
	size_t push_queue_max;       /* queued pushed frames kept (0: 256); older ones are dropped
	                                and counted in kov_client_stats */
	bool no_data;                /* ask for answers and events only (HELLO's PROTO_F_NO_DATA):
	                                a connection that only asks (ping, stop, swap) is then
	                                never behind a stream of samples */
};

struct kov_client_stats {
	uint64_t frames_in, bytes_in;    /* everything received */
	uint64_t pushed;                 /* frames with request id 0 */
	uint64_t ignored;                /* unknown types marked OPTIONAL */
	uint64_t push_overflow;          /* pushed frames dropped from a full queue */
};

typedef void (*kov_push_fn)(void *arg, const struct proto_frame *f);

struct kov_client;

/* A client with no connection yet; NULL when out of memory. Strings in opt are copied. */
struct kov_client *kov_client_new(const struct kov_client_options *opt);
/* Closes the connection (if any) and frees everything, the catalogue included. */
void kov_client_free(struct kov_client *c);

/* Connects to host:port, sends HELLO and reads SERVER_HELLO and the catalogue. Errors:
 * NET ("cannot connect to 127.0.0.1:7242: Connection refused"), TIMEOUT, REFUSED ("target
 * refused: wrong controller token: ..."), CLOSED, PROTOCOL. Once per client. */
int kov_client_connect(struct kov_client *c, const char *host, const char *port);

const char *kov_client_error(const struct kov_client *c);   /* "" when none yet */
int kov_client_error_code(const struct kov_client *c);      /* ERROR code / refusal status */
const struct kov_target *kov_client_target(const struct kov_client *c);
const struct kov_event *kov_client_catalogue(const struct kov_client *c, size_t *n);
int kov_client_fd(const struct kov_client *c);              /* -1 when not connected */
struct kov_client_stats kov_client_stats(const struct kov_client *c);
/* What the target said was lost since the connection opened (client/losses.h). */
struct kov_losses;
const struct kov_losses *kov_client_losses(const struct kov_client *c);

/* Pushed frames go to fn from now on, those already queued first, in order (called here and
 * inside pump or a wait; fn must not call back into this client, and f is valid only during
 * the call). NULL: queue them instead. */
void kov_client_on_push(struct kov_client *c, kov_push_fn fn, void *arg);
/* Takes the oldest queued pushed frame: 1 and *out set (free with kov_frame_free), or 0. */
int kov_client_next_push(struct kov_client *c, struct kov_frame *out);

/* Sends one encoded request frame (any request id; the client writes a fresh one into it)
 * and returns 0 with the id in *req. Reads arriving frames while the socket is full. */
int kov_client_send(struct kov_client *c, void *frame, size_t len, uint32_t *req);
/* Waits until the answer to req is complete and moves it to *ans (kov_answer_free). An
 * answer that is or ends with ERROR gives KOV_E_TARGET and the error's text. Waits at most
 * the client's timeout for each frame. */
int kov_client_wait(struct kov_client *c, uint32_t req, struct kov_answer *ans);
/* Like wait without waiting: 1 and *ans when complete, 0 when not yet, or an error. */
int kov_client_take(struct kov_client *c, uint32_t req, struct kov_answer *ans);
/* kov_client_send, then kov_client_wait. */
int kov_client_call(struct kov_client *c, void *frame, size_t len, struct kov_answer *ans);
/* Reads what arrives within timeout_ms (0: only what is there; -1: until something does)
 * and handles every complete frame. Returns the frames handled, or an error. */
int kov_client_pump(struct kov_client *c, int timeout_ms);

/* ---- requests with a single fixed answer (gui/client/client_calls.c) ------------------- */

/* PING: *rtt_ns is the round trip measured on CLOCK_MONOTONIC around send and answer. */
int kov_client_ping(struct kov_client *c, uint64_t cookie, struct proto_pong *pong,
                    uint64_t *rtt_ns);
/* STATUS_GET: STATUS_EX from a 1.3 target, STATUS (samples_discarded 0) from an older one. */
int kov_client_status(struct kov_client *c, struct proto_status *st);
/* WAKEUPS_GET: the kernel's wake-up counters, read when the target answers. KOV_E_USAGE
 * without asking when the target is older than 1.5 (kov_target_reports_machine). */
int kov_client_wakeups(struct kov_client *c, struct proto_wakeups *w);
/* SWAP: hot-swaps object coid of process pid to class `to` (controller only); the answer with
 * its class names copied (the object is untouched unless out->m.result is PROTO_SWAP_OK).
 * KOV_E_USAGE without asking when the target is older than 1.6. */
struct kov_swapped {
	struct proto_swapped m;      /* its from and to point into the two arrays */
	char from[PROTO_CLASS_MAX + 1], to[PROTO_CLASS_MAX + 1];
};
int kov_client_swap(struct kov_client *c, uint32_t pid, uint64_t coid, const char *to,
                    struct kov_swapped *out);
/* A SWAPPED frame (an answer, or another client's swap pushed to this one) into out. */
int kov_swapped_read(const struct proto_frame *f, struct kov_swapped *out);
/* THROTTLE_GET, or with `set` THROTTLE_SET to limit_bp (controller only; 0: off): the
 * monitor's cost bound (proto/proto_throttle.h). KOV_E_USAGE without asking when the target is
 * older than 1.7. */
struct proto_throttle;
int kov_client_throttle(struct kov_client *c, bool set, uint32_t limit_bp,
                        struct proto_throttle *out);

/* PLATFORM_GET: the clock the target's kernel read at boot and its self-report of the platform's
 * paths, copied out of the frame. KOV_E_USAGE without asking when the target is older than 1.8. */
#define KOV_PLATFORM_PATHS 16
struct kov_platform_path {
	uint8_t state;                           /* enum proto_path_state */
	char name[PROTO_PLATFORM_NAME_MAX + 1];
	char detail[PROTO_PLATFORM_DETAIL_MAX + 1];
};
struct kov_platform {
	bool rtc_ok, emulated;
	uint64_t rtc_boot;                       /* seconds since 1970 UTC, if rtc_ok */
	char platform[PROTO_NAME_MAX + 1], power_ctl[PROTO_NAME_MAX + 1];
	size_t n_paths;                          /* at most KOV_PLATFORM_PATHS are kept */
	struct kov_platform_path paths[KOV_PLATFORM_PATHS];
};
int kov_client_platform(struct kov_client *c, struct kov_platform *out);

/* POWER_OFF or REBOOT (controller only): 0 once the target answered OK, after which it goes
 * down. KOV_E_USAGE without asking when the target is older than 1.8. */
int kov_client_power(struct kov_client *c, bool reboot);

/* ---- small helpers ------------------------------------------------------------------- */

uint64_t kov_now_ns(void);                       /* CLOCK_MONOTONIC */
const char *kov_pvr_name(uint32_t pvr);          /* "PowerPC 970FX"; "unknown" */
const char *kov_role_name(enum proto_role role); /* "observer", "controller", "none" */
const char *kov_state_name(uint16_t state);      /* process states: "running"... "unknown" */
/* On what an event's "counts here" rests, as the target said: "measured" (the boot probe
 * counted it), "assumed" (believed to count because the probe found the processor's own PMU
 * working, not itself probed), "software" (the kernel counts it), "not counted" (why_not says
 * why), or "not reported" (a target before protocol 1.3). */
const char *kov_event_basis(const struct kov_target *t, const struct kov_event *e);
/* Whether counting only the kernel or only user mode is honoured for the event here: 1, 0
 * (its counts include both modes: QEMU ignores MMCR0[FCS]/[FCP], the kernel counts software
 * events in every mode), -1 not reported (before 1.3). */
int kov_event_modes_filtered(const struct kov_target *t, const struct kov_event *e);
/* Whether the target reports how its CPUs ran (SERVER_HELLO_EX) and their wake-ups
 * (WAKEUPS_GET): protocol 1.5 and later. */
bool kov_target_reports_machine(const struct kov_target *t);
/* How the CPUs ran: "parallel", "take-turns", "unknown" (one CPU, or not measured), or NULL
 * when the target did not say (before 1.5). */
const char *kov_cpus_run(const struct kov_target *t);
/* The label lock-wait figures carry on a serial machine (the CPUs took turns on one host
 * thread, so a waiter waited for the holder's CPU to be scheduled again): a line to show next
 * to them; NULL on any other machine. */
const char *kov_serial_note(const struct kov_target *t);
/* A COID the way every host tool shows it (kovctl's text and JSON, the viewer): "0x" and its
 * lowercase hex digits without leading zeros, as /metrics and the docs write them, so a
 * user object is 0xd0000050 and a kernel object 0xd000000000000050 everywhere. Returns buf. */
#define KOV_COID_CHARS 19                         /* the longest, with its terminator */
const char *kov_coid_str(uint64_t coid, char buf[KOV_COID_CHARS]);

#endif

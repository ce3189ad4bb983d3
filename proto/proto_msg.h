/* Message structures of the KOV wire protocol and their encoders and decoders; included by
 * proto/proto.h. Byte layouts are in docs/protocol.md.
 *
 * Three shapes of message:
 *  - fixed: proto_encode_X(buf, cap, req, flags, &msg) and proto_decode_X(&frame, &msg);
 *  - empty payload (OK, STATUS_GET, WAKEUPS_GET, CATALOGUE_GET, CONFIG_GET, STOP):
 *    proto_encode_empty and proto_decode_empty;
 *  - lists (a head, a u32 count, records): built one record at a time with a proto_builder
 *    (proto_begin_X, proto_add_Y..., proto_finish), so a producer fills a frame until
 *    proto_add_Y says it is full and starts the next; decoded with proto_decode_X, which checks
 *    every record, then read with proto_next_Y.
 * Encoders check what they write as strictly as decoders check what they read, so a frame one
 * side encodes the other side accepts.
 *
 * Strings are pointer + length, not NUL-terminated: into the frame after decoding, into the
 * caller's memory for encoding. proto_str_copy makes a bounded C string of one. */
#ifndef KOV_PROTO_MSG_H
#define KOV_PROTO_MSG_H

#ifndef KOV_PROTO_H
#error "include proto/proto.h"
#endif

/* Limits of the protocol (the decoders enforce them). */
#define PROTO_NAME_MAX 64            /* names, tokens, identifiers */
#define PROTO_TEXT_MAX 1024          /* descriptions, reasons, error texts */
#define PROTO_SYMBOL_MAX 512         /* symbol names */
#define PROTO_MAX_CHAIN 16           /* call-chain PCs per SAMPLES record */
#define PROTO_MAX_CHAIN_DEPTH 32     /* frames of a CHAINS record (1.4); PMU_CONFIG's depth */
#define PROTO_MAX_GROUPS 16
#define PROTO_MAX_GROUP_EVENTS 16
#define PROTO_MAX_CPUS 1024          /* rep addresses per object */
#define PROTO_PID_ALL 0xFFFFFFFFu    /* SCAN_REQUEST: every process */
#define PROTO_PID_KERNEL 0u          /* symbol requests: the kernel's table */

struct proto_str {
	const char *s;
	uint16_t len;
};

#define PROTO_STR(lit) ((struct proto_str){ (lit), (uint16_t)(sizeof(lit) - 1) })
/* A C string as a proto_str (at most 65535 bytes of it). */
struct proto_str proto_cstr(const char *s);
/* Copies s into dst as a C string, cut to n-1 bytes; returns the bytes copied. */
size_t proto_str_copy(char *dst, size_t n, struct proto_str s);
bool proto_str_eq(struct proto_str s, const char *cstr);

/* Nested lists inside a record. Encoding reads `items` (count of them); decoding sets `wire`
 * to the encoded elements in the frame and `items` to NULL. proto_*_at reads element i of
 * either (i < count; zero beyond). */
struct proto_u64_list {
	const uint64_t *items;
	const uint8_t *wire;
	uint32_t count;
};
uint64_t proto_u64_at(const struct proto_u64_list *l, uint32_t i);

struct proto_ref {                   /* one object for all time: (pid, COID, generation) */
	uint64_t coid;
	uint32_t gen;
};
struct proto_ref_list {
	const struct proto_ref *items;
	const uint8_t *wire;
	uint32_t count;
};
struct proto_ref proto_ref_at(const struct proto_ref_list *l, uint32_t i);

/* ---- session ------------------------------------------------------------------------- */

struct proto_hello {                 /* HELLO, client -> server */
	uint32_t magic;              /* PROTO_MAGIC */
	uint16_t major, minor;
	struct proto_str client;     /* 0..PROTO_NAME_MAX: "kov-viewer 0.3" */
	struct proto_str token;      /* 0..PROTO_NAME_MAX; empty asks to observe */
};

/* How the target's CPUs ran, as its kernel measured at boot (SERVER_HELLO_EX, 1.5). */
enum proto_cpus_run {
	PROTO_CPUS_UNKNOWN = 0,      /* one CPU, or not measured */
	PROTO_CPUS_TAKE_TURNS = 1,   /* two CPUs never ran at the same time: a serial machine,
	                                such as QEMU with one host thread for every CPU */
	PROTO_CPUS_PARALLEL = 2,     /* two CPUs ran at the same time */
};
#define PROTO_CPUS_RUN_MAX PROTO_CPUS_PARALLEL
/* Its name wherever it is written down (kovctl's JSON, /metrics' label): "unknown",
 * "take-turns", "parallel"; "unknown" for a value beyond them too. */
const char *proto_cpus_run_name(uint8_t cpus_run);

struct proto_target {                /* what SERVER_HELLO says about the target */
	uint64_t timebase_hz;        /* every timebase value in the protocol ticks at this */
	uint64_t timebase_now;       /* the target's timebase when the answer was made */
	uint64_t memory;             /* bytes of RAM */
	uint32_t pvr;
	uint16_t cpus;               /* >= 1 */
	uint16_t events;             /* entries in the event catalogue */
	struct proto_str profile;    /* 1..NAME_MAX: "smp", "g5", "hw" */
	struct proto_str model;      /* device-tree model */
	struct proto_str pmu;        /* PMU backend: "ppc970", "isa207-arch", "none" */
	struct proto_str build_id;   /* kernel build id */
	struct proto_str server;     /* daemon name and version */
	/* SERVER_HELLO_EX only (decoding SERVER_HELLO leaves it UNKNOWN): */
	uint8_t cpus_run;            /* enum proto_cpus_run */
};

struct proto_server_hello {          /* SERVER_HELLO, server -> client */
	uint32_t magic;
	uint16_t major, minor;
	uint16_t status;             /* 0 accepted, else a proto_error code */
	uint16_t role;               /* enum proto_role: NONE when refused */
	uint32_t client_id;          /* non-zero when accepted */
	struct proto_str reason;     /* 0..TEXT_MAX; required when refused */
	struct proto_target target;  /* only when accepted */
};

#define PROTO_ERRF_FATAL 0x0001u     /* the sender closes the connection after this ERROR */
struct proto_error_msg {             /* ERROR */
	uint16_t code;               /* enum proto_error, >= 1 */
	uint16_t about;              /* the type of the frame it is about, 0 for none */
	uint16_t flags;              /* PROTO_ERRF_* */
	struct proto_str text;       /* 0..TEXT_MAX */
};

struct proto_ping {                  /* PING */
	uint64_t cookie;
};

struct proto_pong {                  /* PONG */
	uint64_t cookie;             /* the PING's */
	uint64_t timebase;           /* the target's timebase when answering */
};

struct proto_claim {                 /* CLAIM_CONTROL */
	struct proto_str token;      /* 1..NAME_MAX */
};

struct proto_status {                /* STATUS, STATUS_EX (1.3) */
	uint64_t timebase;
	uint32_t clients;            /* connected and past the handshake */
	uint32_t controller;         /* its client id, 0 for none */
	uint32_t config_id;          /* the PMU configuration in effect, 0 for none */
	uint32_t streams;            /* PROTO_STREAM_* running, 0 when stopped */
	uint32_t clients_cut_off;    /* since the daemon started */
	uint64_t frames_dropped;     /* for all clients since the daemon started */
	uint64_t samples_lost;       /* by the monitor's rings since the daemon started */
	/* STATUS_EX only (decoding STATUS leaves it 0): */
	uint64_t samples_discarded;  /* drained while no client took the samples stream, since
	                                the daemon started */
};

struct proto_wakeups {               /* WAKEUPS (1.5): the kernel's wake-up figures since boot,
                                        summed over the CPUs; they only grow but late_max_us */
	uint64_t timebase;           /* when they were read */
	uint64_t rescues;            /* CPUs found halted after H_CEDE (QEMU's lost wake-up) and
	                                resumed by the hypervisor watchdog's reset */
	uint64_t resets;             /* the hypervisor watchdog's system resets taken */
	uint64_t prods;              /* ceded CPUs a neighbour found asleep past their tick and
	                                woke with H_PROD */
	uint64_t late_max_us;        /* the longest a CPU slept past its due tick */
	uint64_t ticks_pending;      /* ticks found due but still pending behind another interrupt */
};

struct proto_dropped_head {          /* DROPPED: totals for this connection so far */
	uint64_t frames;
	uint64_t bytes;
	uint64_t records;
};
struct proto_drop {                  /* DROPPED record: the same, per message type */
	uint16_t type;
	uint64_t frames;
	uint64_t records;
};

/* ---- scan and symbols ---------------------------------------------------------------- */

#define PROTO_SCAN_PROCESSES_BIT 0x0001u
#define PROTO_SCAN_OBJECTS_BIT 0x0002u
struct proto_scan_request {          /* SCAN_REQUEST */
	uint32_t pid;                /* PROTO_PID_ALL or one process */
	uint16_t what;               /* PROTO_SCAN_*_BIT, at least one */
};

struct proto_scan_head {             /* SCAN_PROCESSES, SCAN_OBJECTS */
	uint64_t timebase;           /* when the scan was taken */
};

enum proto_process_state {
	PROTO_PS_RUNNING = 1,
	PROTO_PS_READY = 2,
	PROTO_PS_BLOCKED = 3,
	PROTO_PS_EXITING = 4,
};
struct proto_process {
	uint32_t pid, ppid;
	uint32_t threads;
	uint16_t state;              /* proto_process_state; others shown as unknown */
	struct proto_str name;       /* 1..NAME_MAX */
};

#define PROTO_OBJ_SINGLE_REP 0x0001u
#define PROTO_OBJ_PER_CPU 0x0002u
#define PROTO_OBJ_DYING 0x0004u
#define PROTO_OBJ_CHILDREN_CUT 0x0008u   /* more children than the frame could carry */
struct proto_object {
	uint32_t pid;
	uint32_t gen;
	uint64_t coid;
	uint64_t root;
	uint16_t flags;              /* PROTO_OBJ_*; SINGLE_REP and PER_CPU exclude each other */
	struct proto_str class_name; /* 1..NAME_MAX */
	struct proto_u64_list reps;  /* rep address per CPU (index = CPU), 0 = none yet */
	struct proto_ref_list children;
};

struct proto_symbol_query {          /* SYMBOL_LOOKUP head, SYMBOL_TABLE_GET */
	uint32_t pid;                /* PROTO_PID_KERNEL or a process */
};

struct proto_symbols_head {          /* SYMBOLS */
	uint32_t pid;
	struct proto_str image;      /* 0..NAME_MAX: "kernel", the program's name */
};
struct proto_symbol {
	uint64_t addr;               /* the address asked about (table dumps: = start) */
	uint64_t start;
	uint32_t size;               /* 0: up to the next symbol */
	struct proto_str name;       /* 0..SYMBOL_MAX; empty = no symbol (start and size 0) */
};

/* ---- monitor configuration and control ----------------------------------------------- */

struct proto_catalogue_head {        /* EVENT_CATALOGUE */
	uint16_t total;              /* entries in the whole catalogue */
	uint16_t first;              /* index of this frame's first entry; first + count <= total */
};

enum proto_event_source { PROTO_SRC_HW = 0, PROTO_SRC_SW = 1 };
#define PROTO_EV_COUNTS_HERE 0x01u
#define PROTO_EV_CAN_SAMPLE 0x02u        /* the event can raise samples on silicon */
#define PROTO_EV_SAMPLES_HERE 0x04u      /* ... and it did on this machine */
/* Since 1.3 (sent to clients of minor >= 3 only): the basis of COUNTS_HERE, and the modes. */
#define PROTO_EV_ASSUMED 0x08u           /* a hardware event believed to count, not itself
                                            probed (without it: measured by the boot probe,
                                            or counted by the kernel for a software event) */
#define PROTO_EV_MODES_FILTERED 0x10u    /* counting only the kernel or only user mode is
                                            honoured (without it: counts include both)*/
#define PROTO_EV_FLAGS_1_2 0x07u         /* the bits a client before 1.3 knows */
struct proto_event {                 /* record i is event first + i; samples name it so */
	uint8_t source;              /* proto_event_source */
	uint8_t flags;               /* PROTO_EV_* */
	uint32_t code;               /* the backend's encoding, for experts */
	struct proto_str name;       /* 1..NAME_MAX */
	struct proto_str description;/* 0..TEXT_MAX */
	struct proto_str why_not;    /* empty exactly when it counts and samples here */
};

enum proto_slice_unit {
	PROTO_UNIT_CYCLES = 1,
	PROTO_UNIT_INSTRUCTIONS = 2,
	PROTO_UNIT_MICROSECONDS = 3,
};
#define PROTO_CFG_KERNEL 0x0001u
#define PROTO_CFG_USER 0x0002u
#define PROTO_CFG_CALLCHAIN 0x0004u
struct proto_group_event {
	struct proto_str name;       /* 1..NAME_MAX, a catalogue name */
	uint64_t threshold;          /* sample every `threshold` events on average (the KM
	                                randomizes each period by +-1/8); 0 counts only */
};
struct proto_group {
	struct proto_str name;       /* 1..32 */
	uint16_t share;              /* percent of the time, 1..100 */
	uint16_t n_events;           /* 1..PROTO_MAX_GROUP_EVENTS */
	struct proto_group_event events[PROTO_MAX_GROUP_EVENTS];
};
struct proto_pmu_config {            /* PMU_CONFIG */
	uint32_t config_id;          /* 0 from a client; the server numbers what it applies */
	uint16_t unit;               /* proto_slice_unit of the slice length */
	uint16_t flags;              /* PROTO_CFG_*: KERNEL, USER or both */
	uint64_t slice;              /* > 0, even without groups (see proto_pmu_config_none) */
	uint16_t chain_depth;        /* 1..PROTO_MAX_CHAIN_DEPTH with CALLCHAIN, else 0 */
	uint16_t n_groups;           /* 0 clears the configuration; shares then sum to 100 */
	struct proto_group groups[PROTO_MAX_GROUPS];
};

#define PROTO_STREAM_SAMPLES 0x0001u
#define PROTO_STREAM_COUNTS 0x0002u
#define PROTO_STREAM_LOCKS 0x0004u
#define PROTO_STREAM_INVOCATIONS 0x0008u
#define PROTO_STREAM_ALL 0x000Fu
#define PROTO_INSTR_INVOCATIONS 1
#define PROTO_INSTR_SLEEPLOCKS 2            /* lockstat figures of a process's monitored mutexes */
#define PROTO_INSTR_LOCKS_FULL 3            /* every acquisition and hold of the locks of an object
                                             * or process counted, not only contended ones (1.2) */
struct proto_instrument {            /* INSTRUMENT (1.1) */
	uint32_t pid;                /* PROTO_PID_KERNEL or a process */
	uint64_t coid;               /* one object of pid's space, 0 = all of them (and new ones) */
	uint16_t what;               /* PROTO_INSTR_*; SLEEPLOCKS only for a process */
	uint16_t on;                 /* 1 on, 0 off */
};

struct proto_start {                 /* START */
	uint32_t streams;            /* PROTO_STREAM_*, at least one */
	uint32_t interval_us;        /* period of the interval reports; 0 = the server's */
};

/* ---- pushed monitoring data ---------------------------------------------------------- */

struct proto_samples_head {          /* SAMPLES */
	uint32_t config_id;
};
#define PROTO_SMP_KERNEL 0x0001u
#define PROTO_SMP_USER 0x0002u
#define PROTO_SMP_TRUNCATED 0x0004u      /* the call chain was cut at its depth limit */
#define PROTO_SMP_UNCERTAIN 0x0008u      /* the context-object walk was ambiguous */
#define PROTO_SMP_NO_OBJECT 0x0010u      /* no context object: coid and gen are 0 */
/* Which rep of a per-CPU object the method ran on: that rep's CPU + 1; 0 for a single-rep
 * object's one rep, or when no object is known. The same field in a lock's flags names the rep
 * that owns the lock. */
#define PROTO_REP_SHIFT 8
#define PROTO_REP_MASK 0x0F00u
#define PROTO_REP_OF(flags) ((int)(((flags) & PROTO_REP_MASK) >> PROTO_REP_SHIFT) - 1)
struct proto_sample {
	uint64_t timebase;
	uint64_t pc;
	uint64_t coid;
	uint32_t gen;
	uint32_t pid;
	uint32_t tid;
	uint16_t cpu;
	uint16_t event;              /* catalogue index */
	uint16_t flags;              /* PROTO_SMP_*: exactly one of KERNEL and USER */
	uint16_t depth;              /* 0..PROTO_MAX_CHAIN; SAMPLES only (SAMPLES_CHAINED: 0) */
	uint64_t chain[PROTO_MAX_CHAIN];
	/* SAMPLES_CHAINED only (1.4): */
	uint32_t period;             /* events this sample stands for (0: not known) */
	uint32_t chain_id;           /* its call chain (a CHAINS record), 0 for none */
};

/* CHAINS (1.4): call chains interned per connection. The server defines a chain once, in a
 * CHAINS frame sent before the first SAMPLES_CHAINED frame that names it; ids are never
 * reused on a connection. */
#define PROTO_FRAME_USER 0x01u       /* a user frame (after every kernel frame) */
#define PROTO_FRAME_OBJECT 0x02u     /* the frame is a method of object (coid, gen) */
struct proto_chain_frame {
	uint8_t flags;               /* PROTO_FRAME_* */
	uint64_t pc;                 /* innermost: where the sample was taken; others: return
	                                addresses */
	uint64_t coid;               /* 0 without OBJECT */
	uint32_t gen;
};
struct proto_chain {
	uint32_t id;                 /* >= 1 */
	uint32_t pid;                /* the process of its user frames; 0 when it has none */
	uint16_t depth;              /* 1..PROTO_MAX_CHAIN_DEPTH frames, innermost first */
	struct proto_chain_frame frames[PROTO_MAX_CHAIN_DEPTH];
};

struct proto_interval {              /* LOCK_STATS, INVOCATIONS, LOST_SAMPLES */
	uint64_t start, end;         /* timebase, start <= end */
};

struct proto_counts_head {           /* INTERVAL_COUNTS */
	uint32_t config_id;
	uint64_t start, end;
};
struct proto_count {
	uint16_t cpu;
	uint16_t group;
	uint16_t event;
	uint64_t raw;
	uint64_t enabled;            /* timebase ticks the event was configured */
	uint64_t running;            /* ... and on a counter; <= enabled */
};

enum proto_lock_kind { PROTO_LOCK_SPIN = 1, PROTO_LOCK_SLEEP = 2 };
#define PROTO_LOCK_FULL 0x1u         /* every acquisition and hold counted, not only contended */
#define PROTO_LOCK_OWNER_SET 0x2u    /* owner named by the program, not found by a stack walk */
#define PROTO_LOCK_SITES 4
struct proto_lock_site {
	uint64_t pc;                 /* return address of the lock call; 0: unused slot */
	uint64_t count;              /* contentions from it */
};
/* LOCK_STATS carries the fields up to qlen_max; LOCK_CONTENTION (1.2) all of them. Times in
 * timebase ticks; figures of one report interval. */
struct proto_lock {
	uint64_t lock;               /* address of the lock word */
	uint64_t coid;               /* the object it belongs to (0: none) */
	uint32_t gen;
	uint32_t pid;                /* 0: the kernel */
	uint16_t kind;               /* proto_lock_kind */
	uint64_t acquisitions;       /* all of them with PROTO_LOCK_FULL, else the contended ones */
	uint64_t contentions;        /* <= acquisitions */
	uint64_t wait_total, wait_max;
	uint64_t hold_total, hold_max;
	uint64_t qlen_samples;       /* waiters-seen observations (one per contention) */
	uint64_t qlen_sum;
	uint32_t qlen_max;           /* the largest number of waiters seen */
	uint16_t flags;              /* PROTO_LOCK_* */
	uint64_t wait_min;           /* <= wait_max; 0 without contentions */
	uint64_t holds;              /* holds measured, their total hold_total */
	uint64_t bounces;            /* <= contentions: acquirer on another CPU than the last */
	uint64_t trylock_failures;
	uint64_t other_sites;        /* contentions from call sites beyond site[] */
	struct proto_lock_site site[PROTO_LOCK_SITES];
};

struct proto_invocation {
	uint64_t coid;
	uint32_t gen;
	uint32_t pid;
	uint64_t count;
};

struct proto_lost {
	uint16_t cpu;
	uint16_t pmc;                /* counter 1..8, 0 for a software event */
	uint16_t event;
	uint64_t lost;               /* in this interval */
};

/* ---- fixed messages ------------------------------------------------------------------ */

/* Encoders return the frame's size, -PROTO_E_NOSPACE when cap is too small, -PROTO_E_TOO_BIG
 * above PROTO_MAX_FRAME, or the error a decoder would report for the contents. Decoders
 * return 0 or a negative error; a frame of another type is -PROTO_E_INVALID. */
int proto_encode_hello(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_hello *m);
/* Of another magic or major only the fixed prefix is read (magic, major, minor) and
 * -PROTO_E_BAD_MAGIC or -PROTO_E_VERSION is returned with it filled in. */
int proto_decode_hello(const struct proto_frame *f, struct proto_hello *m);
/* The readable reason a server gives when it refuses a HELLO that decoded with error `err`;
 * snprintf return semantics. */
int proto_refusal_text(const struct proto_hello *h, int err, char *buf, size_t n);

int proto_encode_server_hello(void *buf, size_t cap, uint32_t req, uint16_t flags,
                              const struct proto_server_hello *m);
/* From a server of another major only the prefix up to the reason is read and
 * -PROTO_E_VERSION returned; status and reason then still say why. */
int proto_decode_server_hello(const struct proto_frame *f, struct proto_server_hello *m);
/* SERVER_HELLO_EX (1.5): an accepted SERVER_HELLO and target.cpus_run (refusals are always
 * SERVER_HELLO). proto_decode_any_server_hello takes either type; proto_is_server_hello says
 * whether a type is one of them. */
int proto_encode_server_hello_ex(void *buf, size_t cap, uint32_t req, uint16_t flags,
                                 const struct proto_server_hello *m);
int proto_decode_server_hello_ex(const struct proto_frame *f, struct proto_server_hello *m);
int proto_decode_any_server_hello(const struct proto_frame *f, struct proto_server_hello *m);
bool proto_is_server_hello(uint16_t type);

int proto_encode_error(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_error_msg *m);
int proto_decode_error(const struct proto_frame *f, struct proto_error_msg *m);
int proto_encode_ping(void *buf, size_t cap, uint32_t req, uint16_t flags,
                      const struct proto_ping *m);
int proto_decode_ping(const struct proto_frame *f, struct proto_ping *m);
int proto_encode_pong(void *buf, size_t cap, uint32_t req, uint16_t flags,
                      const struct proto_pong *m);
int proto_decode_pong(const struct proto_frame *f, struct proto_pong *m);
int proto_encode_claim(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_claim *m);
int proto_decode_claim(const struct proto_frame *f, struct proto_claim *m);
int proto_encode_status(void *buf, size_t cap, uint32_t req, uint16_t flags,
                        const struct proto_status *m);
int proto_decode_status(const struct proto_frame *f, struct proto_status *m);
/* STATUS_EX (1.3): STATUS and samples_discarded. proto_decode_any_status takes either type. */
int proto_encode_status_ex(void *buf, size_t cap, uint32_t req, uint16_t flags,
                           const struct proto_status *m);
int proto_decode_status_ex(const struct proto_frame *f, struct proto_status *m);
int proto_decode_any_status(const struct proto_frame *f, struct proto_status *m);
/* WAKEUPS (1.5), the answer to WAKEUPS_GET (an empty request). */
int proto_encode_wakeups(void *buf, size_t cap, uint32_t req, uint16_t flags,
                         const struct proto_wakeups *m);
int proto_decode_wakeups(const struct proto_frame *f, struct proto_wakeups *m);
int proto_encode_scan_request(void *buf, size_t cap, uint32_t req, uint16_t flags,
                              const struct proto_scan_request *m);
int proto_decode_scan_request(const struct proto_frame *f, struct proto_scan_request *m);
int proto_encode_symbol_table_get(void *buf, size_t cap, uint32_t req, uint16_t flags,
                                  const struct proto_symbol_query *m);
int proto_decode_symbol_table_get(const struct proto_frame *f, struct proto_symbol_query *m);
int proto_encode_pmu_config(void *buf, size_t cap, uint32_t req, uint16_t flags,
                            const struct proto_pmu_config *m);
int proto_decode_pmu_config(const struct proto_frame *f, struct proto_pmu_config *m);
/* The configuration in effect when there is none (CONFIG_GET before any was applied): config 0,
 * no groups, and in the fields that then mean nothing values the decoder accepts. */
void proto_pmu_config_none(struct proto_pmu_config *m);
int proto_encode_start(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_start *m);
int proto_decode_start(const struct proto_frame *f, struct proto_start *m);

int proto_encode_instrument(void *buf, size_t cap, uint32_t req, uint16_t flags,
                            const struct proto_instrument *m);
int proto_decode_instrument(const struct proto_frame *f, struct proto_instrument *m);

/* OK, STATUS_GET, WAKEUPS_GET, CATALOGUE_GET, CONFIG_GET, STOP. */
int proto_encode_empty(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags);
int proto_decode_empty(const struct proto_frame *f);

/* ---- list messages ------------------------------------------------------------------- */

/* SAMPLES_PACKED (1.8): the record a packed record is written against, the one before it in
 * its frame (all zero before the first). */
struct proto_sample_base {
	uint64_t timebase, pc, coid;
	uint32_t gen, pid, tid, period, chain_id;
	uint16_t cpu, event, flags;
};

/* Fields are private. A failed proto_begin_X makes proto_finish return its error. */
struct proto_builder {
	uint8_t *buf;
	size_t cap;
	size_t len;
	size_t count_at;
	uint32_t count;
	uint16_t type;
	int err;
	const void *codec;           /* the type's entry in the codec's table */
	struct proto_sample_base prev;   /* SAMPLES_PACKED only */
};

/* proto_begin_X writes the header and head: 0 or a negative error. proto_add_Y appends one
 * record: 0, or -PROTO_E_NOSPACE / -PROTO_E_TOO_BIG when it does not fit (the frame is
 * unchanged; finish it and begin another), or the record's validation error.
 * proto_finish returns the frame's size (or the error of a failed begin). */
int proto_finish(struct proto_builder *b);
uint32_t proto_builder_count(const struct proto_builder *b);

/* Fields are private. */
struct proto_iter {
	const uint8_t *p;
	size_t len;
	size_t pos;
	uint32_t left;
	uint16_t type;
	const void *codec;           /* the type's entry in the codec's table */
	struct proto_sample_base prev;   /* SAMPLES_PACKED only */
};
/* Records a proto_decode_X left to read. proto_next_Y returns false after the last. */
uint32_t proto_iter_left(const struct proto_iter *it);

/* DROPPED */
int proto_begin_dropped(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                        uint16_t flags, const struct proto_dropped_head *h);
int proto_add_drop(struct proto_builder *b, const struct proto_drop *r);
int proto_decode_dropped(const struct proto_frame *f, struct proto_dropped_head *h,
                         struct proto_iter *it);
bool proto_next_drop(struct proto_iter *it, struct proto_drop *r);

/* SCAN_PROCESSES */
int proto_begin_scan_processes(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                               uint16_t flags, const struct proto_scan_head *h);
int proto_add_process(struct proto_builder *b, const struct proto_process *r);
int proto_decode_scan_processes(const struct proto_frame *f, struct proto_scan_head *h,
                                struct proto_iter *it);
bool proto_next_process(struct proto_iter *it, struct proto_process *r);

/* SCAN_OBJECTS */
int proto_begin_scan_objects(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                             uint16_t flags, const struct proto_scan_head *h);
int proto_add_object(struct proto_builder *b, const struct proto_object *r);
int proto_decode_scan_objects(const struct proto_frame *f, struct proto_scan_head *h,
                              struct proto_iter *it);
bool proto_next_object(struct proto_iter *it, struct proto_object *r);

/* SYMBOL_LOOKUP */
int proto_begin_symbol_lookup(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                              uint16_t flags, const struct proto_symbol_query *h);
int proto_add_address(struct proto_builder *b, const uint64_t *r);
int proto_decode_symbol_lookup(const struct proto_frame *f, struct proto_symbol_query *h,
                               struct proto_iter *it);
bool proto_next_address(struct proto_iter *it, uint64_t *r);

/* SYMBOLS */
int proto_begin_symbols(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                        uint16_t flags, const struct proto_symbols_head *h);
int proto_add_symbol(struct proto_builder *b, const struct proto_symbol *r);
int proto_decode_symbols(const struct proto_frame *f, struct proto_symbols_head *h,
                         struct proto_iter *it);
bool proto_next_symbol(struct proto_iter *it, struct proto_symbol *r);

/* EVENT_CATALOGUE */
int proto_begin_event_catalogue(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_catalogue_head *h);
int proto_add_event(struct proto_builder *b, const struct proto_event *r);
int proto_decode_event_catalogue(const struct proto_frame *f, struct proto_catalogue_head *h,
                                 struct proto_iter *it);
bool proto_next_event(struct proto_iter *it, struct proto_event *r);

/* SAMPLES */
int proto_begin_samples(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                        uint16_t flags, const struct proto_samples_head *h);
int proto_add_sample(struct proto_builder *b, const struct proto_sample *r);
int proto_decode_samples(const struct proto_frame *f, struct proto_samples_head *h,
                         struct proto_iter *it);
bool proto_next_sample(struct proto_iter *it, struct proto_sample *r);

/* SAMPLES_CHAINED (1.4): SAMPLES whose records carry period and chain_id instead of a chain */
int proto_begin_samples_chained(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_samples_head *h);
int proto_add_sample_chained(struct proto_builder *b, const struct proto_sample *r);
int proto_decode_samples_chained(const struct proto_frame *f, struct proto_samples_head *h,
                                 struct proto_iter *it);
bool proto_next_sample_chained(struct proto_iter *it, struct proto_sample *r);

/* SAMPLES_PACKED (1.8): SAMPLES_CHAINED's records, each written as what changed since the
 * record before it in the frame (docs/protocol.md 8.18c), about a fifth of the bytes. */
int proto_begin_samples_packed(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                               uint16_t flags, const struct proto_samples_head *h);
int proto_add_sample_packed(struct proto_builder *b, const struct proto_sample *r);
int proto_decode_samples_packed(const struct proto_frame *f, struct proto_samples_head *h,
                                struct proto_iter *it);
bool proto_next_sample_packed(struct proto_iter *it, struct proto_sample *r);

/* Any sample type: SAMPLES (depth and chain set), SAMPLES_CHAINED or SAMPLES_PACKED (period
 * and chain_id). */
bool proto_is_samples(uint16_t type);
int proto_decode_any_samples(const struct proto_frame *f, struct proto_samples_head *h,
                             struct proto_iter *it);
bool proto_next_any_sample(struct proto_iter *it, struct proto_sample *r);

/* CHAINS (1.4), head as SAMPLES */
int proto_begin_chains(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                       uint16_t flags, const struct proto_samples_head *h);
int proto_add_chain(struct proto_builder *b, const struct proto_chain *r);
int proto_decode_chains(const struct proto_frame *f, struct proto_samples_head *h,
                        struct proto_iter *it);
bool proto_next_chain(struct proto_iter *it, struct proto_chain *r);
/* Whether frames a[0..n) and b[0..n) are the same (pc, object, flags): one chain. */
bool proto_chain_frames_equal(const struct proto_chain_frame *a, const struct proto_chain_frame *b,
                              unsigned n);

/* INTERVAL_COUNTS */
int proto_begin_interval_counts(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_counts_head *h);
int proto_add_count(struct proto_builder *b, const struct proto_count *r);
int proto_decode_interval_counts(const struct proto_frame *f, struct proto_counts_head *h,
                                 struct proto_iter *it);
bool proto_next_count(struct proto_iter *it, struct proto_count *r);

/* LOCK_STATS */
int proto_begin_lock_stats(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                           uint16_t flags, const struct proto_interval *h);
int proto_add_lock(struct proto_builder *b, const struct proto_lock *r);
int proto_decode_lock_stats(const struct proto_frame *f, struct proto_interval *h,
                            struct proto_iter *it);
bool proto_next_lock(struct proto_iter *it, struct proto_lock *r);

/* LOCK_CONTENTION (since 1.2): LOCK_STATS with every field of struct proto_lock */
int proto_begin_lock_contention(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_interval *h);
int proto_add_lock_contention(struct proto_builder *b, const struct proto_lock *r);
int proto_decode_lock_contention(const struct proto_frame *f, struct proto_interval *h,
                                 struct proto_iter *it);
bool proto_next_lock_contention(struct proto_iter *it, struct proto_lock *r);

/* INVOCATIONS */
int proto_begin_invocations(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                            uint16_t flags, const struct proto_interval *h);
int proto_add_invocation(struct proto_builder *b, const struct proto_invocation *r);
int proto_decode_invocations(const struct proto_frame *f, struct proto_interval *h,
                             struct proto_iter *it);
bool proto_next_invocation(struct proto_iter *it, struct proto_invocation *r);

/* LOST_SAMPLES */
int proto_begin_lost_samples(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                             uint16_t flags, const struct proto_interval *h);
int proto_add_lost(struct proto_builder *b, const struct proto_lost *r);
int proto_decode_lost_samples(const struct proto_frame *f, struct proto_interval *h,
                              struct proto_iter *it);
bool proto_next_lost(struct proto_iter *it, struct proto_lost *r);

#endif

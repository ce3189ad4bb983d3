/* kovctl: the command-line client of a KOV target (usage: kovctl --help). Shared by its
 * files: the parsed command line (opts.c), the commands (cmd_*.c) and their output. */
#ifndef KOV_KOVCTL_H
#define KOV_KOVCTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "client/client.h"
#include "client/lockstat.h"
#include "client/losses.h"
#include "client/scan.h"
#include "kovctl/json.h"

#define KOVCTL_NAME "kovctl 0.1"
#define KOVCTL_MAX_ADDRS 4096

/* Exit codes (README's table): bad usage is found before the target is asked anything;
 * what depends on the target's state is 1, or 3 when only the controller role is missing,
 * so a script can tell "retry with --token" from a failure. */
#define EXIT_OK 0
#define EXIT_TARGET 1                /* unreachable, refused, the target reported an error, or
                                        it cannot do what was asked (not streaming, no samples) */
#define EXIT_USAGE 2                 /* unknown command or option, bad value, unreadable or
                                        malformed FILE given on the command line */
#define EXIT_NOT_CONTROLLER 3        /* needs the controller role, and this client observes */

enum kovctl_cmd { CMD_NONE, CMD_INFO, CMD_SCAN, CMD_SYMBOLS, CMD_WATCH, CMD_PING, CMD_STATUS,
                  CMD_STREAM, CMD_EVENTS, CMD_CONFIGURE, CMD_START, CMD_STOP, CMD_COUNTS, CMD_TOP,
                  CMD_RECORD, CMD_REPLAY, CMD_LOCKSTAT, CMD_INSTRUMENT, CMD_EXPORT, CMD_SWAP,
                  CMD_OPTIMIZE, CMD_THROTTLE, CMD_POWEROFF, CMD_REBOOT };

struct kovctl_opts {
	bool help;
	char host[256];
	char port[8];
	const char *token;           /* NULL: observe */
	bool json;
	int timeout_ms;
	enum kovctl_cmd cmd;
	const char *cmd_name;
	bool has_pid;
	uint32_t pid;                /* scan, symbols */
	const char *class_name;      /* scan */
	double seconds;              /* watch (0: until Ctrl-C), stream */
	unsigned count;              /* ping */
	unsigned depth;              /* stream: requests in flight */
	const char *file;            /* configure, replay */
	const char *out;             /* record; export (NULL: stdout) */
	const char *format;          /* export: folded, callgrind, pprof, speedscope */
	const char *event;           /* export: only this event's samples (NULL: all) */
	const char *metric;          /* top */
	bool by_rep;                 /* top --by rep: a row per rep of per-CPU objects */
	unsigned top_n;              /* top, replay: rows (0: 10) */
	uint32_t interval_ms;        /* start: report interval (0: the target's) */
	uint32_t streams;            /* start: PROTO_STREAM_* (0: samples and counts) */
	uint64_t coid;               /* instrument: one object (0: all of the process's); swap */
	const char *to_class;        /* swap --to */
	bool has_limit;
	uint32_t limit_bp;           /* throttle --limit, basis points (0: off) */
	double opt_interval;         /* optimize --interval, seconds (default 2) */
	double threshold;            /* optimize --threshold, % of the CPUs' time (default 5) */
	unsigned opt_k, cooldown;    /* optimize --intervals, --cooldown (default 3, 5) */
	double back_pct;             /* optimize --back, % of the threshold (default 25) */
	bool dry_run;                /* optimize */
	const char *pairs;           /* optimize --pairs A=B,... (NULL: the built-in table) */
	bool on, has_on;             /* instrument */
	uint16_t what;               /* instrument --what: PROTO_INSTR_* (0: calls) */
	const char *sort;            /* lockstat: wait (default), contentions, acquisitions */
	uint16_t lock_kind;          /* lockstat: PROTO_LOCK_* only (0: both) */
	size_t n_addrs;              /* symbols */
	uint64_t addrs[KOVCTL_MAX_ADDRS];
};

/* Parses argv (argv[0] skipped) into o. 0 on success (o->help may be set), -1 with the
 * message for "kovctl: ..." in err. Options may come before or after the command. */
int kovctl_parse(int argc, char **argv, struct kovctl_opts *o, char *err, size_t n);
extern const char kovctl_usage[];

/* What a command works with. */
struct kov_pmuconf;
struct kovctl {
	const struct kovctl_opts *o;
	const struct kov_pmuconf *conf;  /* configure: the file, read before connecting */
	struct kov_client *c;
	char target[300];            /* "host:port", for messages */
	struct json j;               /* stdout, when o->json */
};

/* export FILE --format F: a recording's samples and call chains in a profiler's format. */
int cmd_export(struct kovctl *k);

/* Prints "kovctl: <the client's error>" and returns EXIT_TARGET (EXIT_NOT_CONTROLLER when
 * the target answered NOT_CONTROLLER). */
int kovctl_client_error(struct kovctl *k);
/* configure FILE: reads and parses the file (EXIT_OK, or EXIT_USAGE with the reason). */
int kovctl_load_conf(const char *file, const struct kov_pmuconf **conf);

int cmd_info(struct kovctl *k);
int cmd_scan(struct kovctl *k);
int cmd_symbols(struct kovctl *k);
int cmd_watch(struct kovctl *k);
int cmd_ping(struct kovctl *k);
int cmd_status(struct kovctl *k);
int cmd_stream(struct kovctl *k);
int cmd_events(struct kovctl *k);
int cmd_configure(struct kovctl *k);
int cmd_start(struct kovctl *k);
int cmd_stop(struct kovctl *k);
int cmd_counts(struct kovctl *k);
int cmd_top(struct kovctl *k);
/* top's rankings by measured lock wait of kind PROTO_LOCK_SPIN or _SLEEP (cmd_top_locks.c). */
int kovctl_top_locks(struct kovctl *k, uint16_t kind, const char *method);
/* Lock statistics summed per object (a lock of no object stands alone), as top and optimize
 * rank them: one row per object of the kind's contended locks, by wait. */
struct kovctl_lock_row {
	uint32_t pid, gen;
	uint64_t coid;
	uint64_t lock;           /* the lock, for a lock that belongs to no object */
	uint64_t wait, contentions, acquisitions, locks;
	bool full;               /* every acquisition of every lock counted */
};
/* What the ranking covers: its rows, their sums, and the time the reports span. */
struct kovctl_lock_rank {
	struct kovctl_lock_row rows[KOV_LOCKS_MAX];
	size_t n;
	uint64_t total, contentions;
	uint64_t hz, ticks;      /* timebase frequency, span of the reports in ticks */
	double span;             /* seconds */
	unsigned cpus;
	struct kov_losses losses;   /* filled by the collection, not by the ranking */
};
/* Ranks the table's locks of kind into lr (all but its losses), over the reports' span, or
 * `seconds` when they do not say. */
void kovctl_rank_locks(struct kovctl *k, const struct kov_lock_table *locks, uint16_t kind,
		       double seconds, struct kovctl_lock_rank *lr);
/* Ticks waited as a share of the CPUs' time over lr's span; 0 for an empty span. */
double kovctl_lock_cpu_share(const struct kovctl_lock_rank *lr, uint64_t wait);
int cmd_record(struct kovctl *k);
int cmd_replay(struct kovctl *k);   /* needs no connection */
int cmd_lockstat(struct kovctl *k);
int cmd_instrument(struct kovctl *k);
int cmd_swap(struct kovctl *k);
/* A SWAPPED answer: with --json its keys (pid, coid, from, to, swapped, result, the phases'
 * _ns, forwarded, held, walks) inside the object the caller opened; in text one line. */
void kovctl_swapped_report(struct kovctl *k, const struct kov_swapped *s);
int cmd_optimize(struct kovctl *k);
int cmd_throttle(struct kovctl *k);
int cmd_power(struct kovctl *k);   /* poweroff and reboot */
/* EXIT_OK, or EXIT_NOT_CONTROLLER with the reason on stderr. */
int kovctl_need_controller(struct kovctl *k);

/* Shared by the monitoring commands (cmd_monitor.c): each returns an exit code. */
int kovctl_configure(struct kovctl *k, const struct proto_pmu_config *cfg, bool quiet);
int kovctl_start(struct kovctl *k, uint32_t streams, uint32_t interval_us);
int kovctl_stop(struct kovctl *k);
int kovctl_running(struct kovctl *k, struct proto_status *st);
/* Pumps the connection for `seconds`, pushed frames going to the handler set before. */
int kovctl_collect(struct kovctl *k, double seconds);
/* Lock reports for `seconds` into t (emptied first), starting the lock stream when it is not
 * running (controller only; stopped again if nothing else ran), and what the target lost or
 * dropped meanwhile (cmd_lockstat.c). */
struct kov_lock_table;
struct kov_losses;
int kovctl_collect_locks(struct kovctl *k, struct kov_lock_table *t, double seconds,
			 struct kov_losses *losses);

/* Shared around the monitoring commands' runs and reports (report.c). */
/* Makes sure a stream of `need` runs: where none does, starts it (with `add` and the streams
 * that run) if this client holds control; otherwise says so, naming `what` ("lock
 * statistics"), and returns EXIT_NOT_CONTROLLER. *stop_after: nothing ran before, so the
 * caller stops monitoring when done. */
int kovctl_need_stream(struct kovctl *k, const struct proto_status *st, uint32_t need,
		       uint32_t add, const char *what, bool *stop_after);
/* Of the catalogue events named in events[0..n), how many the configuration in effect samples
 * (a threshold above 0), and that configuration's number (0: none) (CONFIG_GET). */
int kovctl_config_samples(struct kovctl *k, const char *const *events, int n, uint32_t *config_id,
			  int *sampled);
/* The privilege filter of the configuration in effect (CONFIG_GET): the modes it asks for
 * (PROTO_CFG_KERNEL / _USER; 0 without a configuration) and, when it asks for one only, its
 * events whose counts include both modes here anyway (names, comma-separated), or whose
 * target does not say (before 1.3). */
struct kovctl_modes {
	uint32_t config_id;
	uint16_t modes;
	unsigned ignored;
	bool unknown;
	char names[300];
};
int kovctl_modes_check(struct kovctl *k, struct kovctl_modes *m);
/* "privilege filter not honoured here: ..." when it is not; with --json the keys
 * "modes_asked", "privilege_filter_honoured" (null: not reported) and
 * "privilege_filter_not_honoured_by". */
void kovctl_modes_report(struct kovctl *k, const struct kovctl_modes *m);
/* How the target's CPUs ran, beside figures it changes (lock waits): with --json the key
 * "cpus_run" ("parallel", "take-turns", "unknown"; null before protocol 1.5), in text the serial
 * machine's label line (client.h's kov_serial_note) when they took turns, else nothing. */
void kovctl_machine_report(struct kovctl *k);
/* With --json: closes the report's list (in_list) and object and ends the document. */
void kovctl_json_end(struct kovctl *k, bool in_list);
/* A scan of every process naming objects and lock owners; ok is false when it failed. */
/* Names for what a collection saw: a scan before it (kovctl_names_begin) and one after
 * (kovctl_names_get), so that an object or process gone by the end keeps the names it had. */
struct kovctl_names { struct kov_scan first, scan; bool first_ok, ok; };
void kovctl_names_begin(struct kovctl *k, struct kovctl_names *n);
void kovctl_names_get(struct kovctl *k, struct kovctl_names *n);
void kovctl_names_free(struct kovctl_names *n);
/* Which CPU's rep of per-CPU object (pid, coid, gen) holds addr (a lock), from the scans;
 * -1 for a single-rep object or one neither scan listed. */
int kovctl_owner_rep(const struct kovctl_names *n, uint32_t pid, uint64_t coid, uint32_t gen,
		     uint64_t addr);
/* Object (pid, coid, gen)'s class (from the last scan that listed it; "(gone)" when neither
 * did, no_object without a coid) and its process's name ("kernel" for pid 0, "?" when
 * unknown). */
void kovctl_owner(const struct kovctl_names *n, uint32_t pid, uint64_t coid, uint32_t gen,
		  const char *no_object, const char **cls, const char **proc);

/* The losses over a command's period (client/losses.h): begin after the first STATUS, end
 * with another STATUS round trip (which brings the daemon's DROPPED notice first). */
#include "client/losses.h"
struct kovctl_period { struct kov_losses start; };
void kovctl_period_begin(struct kovctl *k, struct kovctl_period *p);
int kovctl_period_end(struct kovctl *k, const struct kovctl_period *p, struct kov_losses *out);
/* The period's losses: a "losses in this period: ..." line, or with --json the keys "lost",
 * "dropped" (records), "dropped_frames", "dropped_samples", "dropped_counts",
 * "dropped_lock_reports", "discarded" (null when unknown) and, with samples_key, "samples"
 * (SAMPLES records received). */
void kovctl_losses_report(struct kovctl *k, const struct kov_losses *l, bool samples_key);

/* One line about a pushed frame: "clients=2 controller=0 ..." (watch). */
void kovctl_summarize(const struct proto_frame *f, char *buf, size_t n);

#endif

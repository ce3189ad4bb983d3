/* The command line: global options, the command and its options, checked strictly so a
 * mistyped number or option is reported rather than half-used. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/optimizer.h"

const char kovctl_usage[] =
	"usage: kovctl --target HOST:PORT [--token T] [--json] [--timeout SEC] COMMAND [ARGS]\n"
	"\n"
	"Talks to the DCI daemon of a KOV target (sim/run --port PORT forwards 127.0.0.1:PORT).\n"
	"\n"
	"commands:\n"
	"  info                         the target's description and event catalogue\n"
	"  scan [--pid N] [--class C]   processes and their live objects as a tree\n"
	"  symbols [--pid N] ADDR...    symbolize hex addresses (pid 0, the default: the kernel)\n"
	"  watch [--seconds N]          print pushed frames until N seconds pass or Ctrl-C\n"
	"  ping [--count N]             round-trip times of PING (default 10)\n"
	"  status                       the daemon's STATUS\n"
	"  stream [--seconds N] [--depth K]\n"
	"                               bulk throughput: SYMBOL_TABLE_GET of the kernel table\n"
	"                               back to back, K in flight (default 5 s, K 4)\n"
	"\n"
	"monitoring (configure, start, stop and top's configuring need --token):\n"
	"  events                       the event catalogue: what counts and samples here\n"
	"  configure FILE               send a PMU configuration file (groups, shares,\n"
	"                               thresholds; text or JSON, format in README.md)\n"
	"  start [--interval MS] [--streams samples,counts,locks]\n"
	"                               start monitoring (default: both streams, 100 ms)\n"
	"  stop                         stop monitoring\n"
	"  counts [--seconds N]         scaled counts with enabled/running (default 2 s)\n"
	"  top --metric M [--n K] [--seconds S] [--by rep]\n"
	"                               objects ranked by M: spinlock, lockwait,\n"
	"                               spinlock-samples, stcx, branchmiss, mmu, ipc,\n"
	"                               invocations or an event name (default\n"
	"                               10 rows, 5 s); configures M's events if nothing is\n"
	"                               configured; --by rep: a row per rep of per-CPU objects\n"
	"  record --out FILE [--seconds N]   the raw protocol stream to FILE (default 10 s)\n"
	"  replay FILE [--n K]          summarize a recording (no --target needed)\n"
	"  export FILE --format F [--out OUT] [--event E]\n"
	"                               a recording's samples and call chains as folded stacks,\n"
	"                               callgrind, pprof (gzipped protobuf) or speedscope JSON\n"
	"  lockstat [--seconds N] [--sort wait|contentions|acquisitions] [--pid N] [--kind spin|sleep]\n"
	"                               lock_stat per spin and sleep lock, kernel and user:\n"
	"                               contentions, wait and hold times, bounces, waiters,\n"
	"                               call sites, owning object (default 2 s, by wait)\n"
	"  instrument --pid N [--coid C] [--what calls|locks|full-locks] on|off\n"
	"                               invocation counting (calls, the default) for every object\n"
	"                               of process N (0: the kernel) or one object (top --metric\n"
	"                               invocations), or the lockstat figures of its monitored\n"
	"                               mutexes (locks; processes only)\n"
	"  swap --pid N --coid C --to CLASS\n"
	"                               hot-swap a live object of process N to another class\n"
	"                               with the same interface (e.g. Counter <-> DCounter); prints\n"
	"                               each phase's time and the calls held, or why it could not\n"
	"  throttle [--limit PCT|off]   the monitor's bound on its own cost: the limit (default\n"
	"                               10% of the CPUs' time), the sampling periods' factor\n"
	"                               now and the last 100 ms window's cost; --limit sets it\n"
	"                               (controller; off: periods always as configured)\n"
	"  optimize [--seconds N] [--interval S] [--threshold PCT] [--intervals K] [--cooldown M]\n"
	"           [--back PCT] [--pairs A=B,...] [--dry-run]\n"
	"                               swap objects whose spin-lock wait stays above PCT% of the\n"
	"                               CPUs' time (default 5) for K intervals of S s (3, 2 s) to\n"
	"                               their distributed peer (Counter=DCounter, Warehouse=\n"
	"                               WarehouseFine, PageViews=PageViewsPerCPU, the kernel's\n"
	"                               PM=PMPerCPU), and back when\n"
	"                               the coarse class\n"
	"                               would wait below PCT x back% (25) at the calls/s now;\n"
	"                               M intervals' cool-down after each (5); until Ctrl-C or N s;\n"
	"                               --dry-run (an observer is enough): decide, swap nothing\n"
	"\n"
	"the machine (need --token):\n"
	"  poweroff                     power the target off (PMU99, CUDA or RTAS); QEMU exits\n"
	"  reboot                       restart the target; its firmware boots KOV again\n"
	"\n"
	"options:\n"
	"  --target HOST:PORT   the target ([v6addr]:PORT for IPv6)\n"
	"  --token T            the controller token (default: observe)\n"
	"  --json               JSON output\n"
	"  --timeout SEC        connect and answer time limit (default 10)\n"
	"  --help               this text\n"
	"\n"
	"exit status: 0 ok; 1 the target is unreachable, refused the connection, answered with\n"
	"an error or cannot do what was asked; 2 bad usage (options, values, FILE); 3 the\n"
	"command needs the controller role (--token) and this client observes\n";

struct cmd_def {
	const char *name;
	enum kovctl_cmd cmd;
	const char *opts;            /* the command's options, space-separated */
};

static const struct cmd_def cmds[] = {
	{ "info", CMD_INFO, "" },
	{ "scan", CMD_SCAN, "--pid --class" },
	{ "symbols", CMD_SYMBOLS, "--pid" },
	{ "watch", CMD_WATCH, "--seconds" },
	{ "ping", CMD_PING, "--count" },
	{ "status", CMD_STATUS, "" },
	{ "stream", CMD_STREAM, "--seconds --depth" },
	{ "events", CMD_EVENTS, "" },
	{ "configure", CMD_CONFIGURE, "" },
	{ "start", CMD_START, "--interval --streams" },
	{ "stop", CMD_STOP, "" },
	{ "counts", CMD_COUNTS, "--seconds" },
	{ "top", CMD_TOP, "--metric --n --seconds --by" },
	{ "record", CMD_RECORD, "--out --seconds" },
	{ "replay", CMD_REPLAY, "--n" },
	{ "export", CMD_EXPORT, "--format --out --event" },
	{ "lockstat", CMD_LOCKSTAT, "--seconds --sort --pid --kind" },
	{ "instrument", CMD_INSTRUMENT, "--pid --coid --what" },
	{ "swap", CMD_SWAP, "--pid --coid --to" },
	{ "throttle", CMD_THROTTLE, "--limit" },
	{ "poweroff", CMD_POWEROFF, "" },
	{ "reboot", CMD_REBOOT, "" },
	{ "optimize", CMD_OPTIMIZE,
	  "--seconds --interval --threshold --intervals --cooldown --back --pairs --dry-run" },
};

/* A percentage with at most two decimals, or "off" (0), in basis points. */
static bool parse_limit(const char *s, uint32_t *bp)
{
	if (!strcmp(s, "off")) {
		*bp = 0;
		return true;
	}
	unsigned long whole = 0, frac = 0;
	int digits = 0, fdigits = 0;
	for (; *s >= '0' && *s <= '9' && digits < 4; s++, digits++)
		whole = whole * 10 + (unsigned long)(*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9' && fdigits < 2; s++, fdigits++)
			frac = frac * 10 + (unsigned long)(*s - '0');
	if (*s || !digits)
		return false;
	unsigned long v = whole * 100 + (fdigits == 1 ? frac * 10 : frac);
	if (v < 1 || v > 10000)
		return false;
	*bp = (uint32_t)v;
	return true;
}

static int usage_error(char *err, size_t n, const char *fmt, const char *a, const char *b)
{
	snprintf(err, n, fmt, a, b);
	return -1;
}

/* Unsigned decimal in [min, max]. */
static bool parse_uint(const char *s, unsigned long long min, unsigned long long max,
                       unsigned long long *v)
{
	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v >= min && *v <= max;
}

/* A positive number of seconds, fractions allowed, at most max. */
static bool parse_seconds(const char *s, double max, double *v)
{
	if (!*s || *s == ' ')
		return false;
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return !errno && !*end && isfinite(*v) && *v > 0 && *v <= max;
}

/* A hex address, with or without 0x, 1 to 16 digits. */
static bool parse_addr(const char *s, uint64_t *v)
{
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	size_t len = strspn(s, "0123456789abcdefABCDEF");
	if (len == 0 || len > 16 || s[len])
		return false;
	*v = strtoull(s, NULL, 16);
	return true;
}

static bool parse_target(const char *s, struct kovctl_opts *o)
{
	const char *colon, *host = s;
	size_t hlen;
	if (s[0] == '[') {           /* [IPv6]:port */
		const char *close = strchr(s, ']');
		if (!close || close[1] != ':')
			return false;
		host = s + 1;
		hlen = (size_t)(close - host);
		colon = close + 1;
	} else {
		colon = strrchr(s, ':');
		if (!colon || strchr(s, ':') != colon)
			return false;
		hlen = (size_t)(colon - s);
	}
	unsigned long long port;
	if (hlen == 0 || hlen >= sizeof o->host || !parse_uint(colon + 1, 1, 65535, &port))
		return false;
	memcpy(o->host, host, hlen);
	o->host[hlen] = 0;
	snprintf(o->port, sizeof o->port, "%llu", port);
	return true;
}

static const struct cmd_def *find_cmd(const char *name)
{
	for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
		if (!strcmp(cmds[i].name, name))
			return &cmds[i];
	return NULL;
}

static bool cmd_takes(const struct cmd_def *c, const char *opt)
{
	size_t len = strlen(opt);
	for (const char *p = c ? c->opts : ""; (p = strstr(p, opt)); p += len)
		if ((p[len] == ' ' || p[len] == 0) && (p == c->opts || p[-1] == ' '))
			return true;
	return false;
}

#define NOT_MINE 1          /* an option parser's answer for an option it does not take */

/* --token, --timeout: how to reach the target (--target has its own parser). */
static int connection_option(struct kovctl_opts *o, const char *name, const char *val, char *err,
			     size_t n)
{
	if (!strcmp(name, "--token")) {
		if (strlen(val) > PROTO_NAME_MAX)
			return usage_error(err, n, "--token is longer than 64 bytes", "", "");
		o->token = val;
	} else if (!strcmp(name, "--timeout")) {
		double s;
		if (!parse_seconds(val, 3600, &s))
			return usage_error(err, n, "--timeout needs a number of seconds (0 < SEC <= 3600), not '%s'",
			            val, "");
		o->timeout_ms = (int)(s * 1000 + 0.999);   /* at least 1 ms; no libm */
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* --pid, --class, --coid, --to, --what: what a command is about. */
static int subject_option(struct kovctl_opts *o, const char *name, const char *val, char *err,
			  size_t n)
{
	unsigned long long u;
	if (!strcmp(name, "--pid")) {
		if (!parse_uint(val, 0, PROTO_PID_ALL - 1, &u))
			return usage_error(err, n, "--pid needs a process id, not '%s'", val, "");
		o->has_pid = true;
		o->pid = (uint32_t)u;
	} else if (!strcmp(name, "--class")) {
		if (!*val)
			return usage_error(err, n, "--class needs a class name", "", "");
		o->class_name = val;
	} else if (!strcmp(name, "--coid")) {
		if (!parse_addr(val, &o->coid) || !o->coid)
			return usage_error(err, n, "--coid needs an object's hex COID, not '%s'", val, "");
	} else if (!strcmp(name, "--to")) {
		if (!*val || strlen(val) > PROTO_CLASS_MAX)
			return usage_error(err, n, "--to needs a class name of 1 to 31 bytes, not '%s'", val, "");
		o->to_class = val;
	} else if (!strcmp(name, "--limit")) {
		if (!parse_limit(val, &o->limit_bp))
			return usage_error(err, n, "--limit needs a share of the CPUs' time in percent "
					   "(0.01 to 100, as 10 or 2.5) or 'off', not '%s'", val, "");
		o->has_limit = true;
	} else if (!strcmp(name, "--what")) {
		if (!strcmp(val, "calls"))
			o->what = PROTO_INSTR_INVOCATIONS;
		else if (!strcmp(val, "locks"))
			o->what = PROTO_INSTR_SLEEPLOCKS;
		else if (!strcmp(val, "full-locks"))
			o->what = PROTO_INSTR_LOCKS_FULL;
		else
			return usage_error(err, n, "--what: calls, locks or full-locks, not '%s'", val, "");
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* --streams samples,counts,locks */
static int streams_option(struct kovctl_opts *o, const char *val, char *err, size_t n)
{
	char list[64];
	if (strlen(val) >= sizeof list)
		return usage_error(err, n, "--streams: a list of samples, counts, locks, not '%s'", val, "");
	strcpy(list, val);
	o->streams = 0;
	for (char *w = strtok(list, ","); w; w = strtok(NULL, ",")) {
		if (!strcmp(w, "samples"))
			o->streams |= PROTO_STREAM_SAMPLES;
		else if (!strcmp(w, "counts"))
			o->streams |= PROTO_STREAM_COUNTS;
		else if (!strcmp(w, "locks"))
			o->streams |= PROTO_STREAM_LOCKS;
		else
			return usage_error(err, n, "--streams: a list of samples, counts, locks, not '%s'", val, "");
	}
	if (!o->streams)
		return usage_error(err, n, "--streams: a list of samples, counts, locks, not '%s'", val, "");
	return 0;
}

/* --seconds, --count, --interval, --streams, --depth: how long and what a run asks for. */
static int run_option(struct kovctl_opts *o, const char *name, const char *val, char *err, size_t n)
{
	unsigned long long u;
	if (!strcmp(name, "--seconds")) {
		if (!parse_seconds(val, 86400, &o->seconds))
			return usage_error(err, n, "--seconds needs a number of seconds (0 < N <= 86400), not '%s'",
			            val, "");
	} else if (!strcmp(name, "--count")) {
		if (!parse_uint(val, 1, 1000000, &u))
			return usage_error(err, n, "--count needs a number from 1 to 1000000, not '%s'", val, "");
		o->count = (unsigned)u;
	} else if (!strcmp(name, "--interval") && o->cmd == CMD_OPTIMIZE) {
		if (!parse_seconds(val, 3600, &o->opt_interval) || o->opt_interval < 0.1)
			return usage_error(err, n, "--interval needs seconds (0.1 to 3600), not '%s'", val, "");
	} else if (!strcmp(name, "--interval")) {
		if (!parse_uint(val, 1, 3600000, &u))
			return usage_error(err, n, "--interval needs milliseconds (1 to 3600000), not '%s'", val, "");
		o->interval_ms = (uint32_t)u;
	} else if (!strcmp(name, "--streams")) {
		return streams_option(o, val, err, n);
	} else if (!strcmp(name, "--depth")) {
		if (!parse_uint(val, 1, 64, &u))
			return usage_error(err, n, "--depth needs a number from 1 to 64, not '%s'", val, "");
		o->depth = (unsigned)u;
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* --metric, --by, --n, --sort, --kind: what a report ranks and shows. */
static int report_option(struct kovctl_opts *o, const char *name, const char *val, char *err,
			 size_t n)
{
	unsigned long long u;
	if (!strcmp(name, "--metric")) {
		if (!*val)
			return usage_error(err, n, "--metric needs a metric or event name", "", "");
		o->metric = val;
	} else if (!strcmp(name, "--by")) {
		if (!strcmp(val, "rep"))
			o->by_rep = true;
		else if (strcmp(val, "object"))
			return usage_error(err, n, "--by: object or rep, not '%s'", val, "");
	} else if (!strcmp(name, "--n")) {
		if (!parse_uint(val, 1, 100000, &u))
			return usage_error(err, n, "--n needs a number from 1 to 100000, not '%s'", val, "");
		o->top_n = (unsigned)u;
	} else if (!strcmp(name, "--sort")) {
		if (strcmp(val, "wait") && strcmp(val, "contentions") && strcmp(val, "acquisitions"))
			return usage_error(err, n, "--sort: wait, contentions or acquisitions, not '%s'", val, "");
		o->sort = val;
	} else if (!strcmp(name, "--kind")) {
		if (strcmp(val, "spin") && strcmp(val, "sleep"))
			return usage_error(err, n, "--kind: spin or sleep, not '%s'", val, "");
		o->lock_kind = !strcmp(val, "spin") ? PROTO_LOCK_SPIN : PROTO_LOCK_SLEEP;
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* --out, --format, --event: where and what a command writes. */
static int output_option(struct kovctl_opts *o, const char *name, const char *val, char *err,
			 size_t n)
{
	if (!strcmp(name, "--out")) {
		if (!*val)
			return usage_error(err, n, "--out needs a file name", "", "");
		o->out = val;
	} else if (!strcmp(name, "--format")) {
		if (strcmp(val, "folded") && strcmp(val, "callgrind") && strcmp(val, "pprof") &&
		    strcmp(val, "speedscope"))
			return usage_error(err, n, "--format: folded, callgrind, pprof or speedscope, not "
					   "'%s'", val, "");
		o->format = val;
	} else if (!strcmp(name, "--event")) {
		if (!*val)
			return usage_error(err, n, "--event needs an event name", "", "");
		o->event = val;
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* --threshold, --intervals, --cooldown, --back, --pairs, --dry-run: optimize's policy. */
static int policy_option(struct kovctl_opts *o, const char *name, const char *val, char *err,
			 size_t n)
{
	unsigned long long u;
	double pct;
	if (!strcmp(name, "--threshold") || !strcmp(name, "--back")) {
		if (!parse_seconds(val, 100, &pct))   /* the same rule: a number in (0, 100] */
			return usage_error(err, n, "%s needs a percentage (0 < PCT <= 100), not '%s'", name, val);
		*(!strcmp(name, "--back") ? &o->back_pct : &o->threshold) = pct;
	} else if (!strcmp(name, "--intervals")) {
		if (!parse_uint(val, 1, 1000, &u))
			return usage_error(err, n, "--intervals needs a number from 1 to 1000, not '%s'", val, "");
		o->opt_k = (unsigned)u;
	} else if (!strcmp(name, "--cooldown")) {
		if (!parse_uint(val, 0, 100000, &u))
			return usage_error(err, n, "--cooldown needs a number of intervals (0 to 100000), not '%s'",
					   val, "");
		o->cooldown = (unsigned)u;
	} else if (!strcmp(name, "--pairs")) {
		struct kov_opt_params p;
		if (kov_opt_parse_pairs(val, &p, err, n) < 0)
			return -1;
		o->pairs = val;
	} else if (!strcmp(name, "--dry-run")) {
		o->dry_run = true;
	} else {
		return NOT_MINE;
	}
	return 0;
}

/* One option with its value (NULL: none given). */
static int option(struct kovctl_opts *o, const struct cmd_def *cmd, const char *name,
                  const char *val, char *err, size_t n)
{
	static const char *const global[] = { "--target", "--token", "--timeout" };
	bool is_global = false;
	for (size_t i = 0; i < 3; i++)
		is_global |= !strcmp(name, global[i]);
	if (!is_global && !cmd_takes(cmd, name)) {
		if (cmd)
			return usage_error(err, n, "unknown option '%s' for %s (try --help)", name, cmd->name);
		return usage_error(err, n, "unknown option '%s' (try --help)", name, "");
	}
	if (!strcmp(name, "--target")) {
		if (!val || !parse_target(val, o))
			return usage_error(err, n, "--target needs HOST:PORT%s%s", val ? ", not " : "", val ? val : "");
		return 0;
	}
	if (!strcmp(name, "--dry-run") && val)
		return usage_error(err, n, "--dry-run takes no value", "", "");
	if (!val && strcmp(name, "--dry-run"))
		return usage_error(err, n, "%s needs a value", name, "");
	int rc = connection_option(o, name, val, err, n);
	if (rc == NOT_MINE)
		rc = subject_option(o, name, val, err, n);
	if (rc == NOT_MINE)
		rc = run_option(o, name, val, err, n);
	if (rc == NOT_MINE)
		rc = report_option(o, name, val, err, n);
	if (rc == NOT_MINE)
		rc = output_option(o, name, val, err, n);
	if (rc == NOT_MINE)
		rc = policy_option(o, name, val, err, n);
	return rc == NOT_MINE ? 0 : rc;
}

static int positional(struct kovctl_opts *o, const struct cmd_def **cmd, const char *arg,
                      char *err, size_t n)
{
	if (!*cmd) {
		*cmd = find_cmd(arg);
		if (!*cmd)
			return usage_error(err, n, "unknown command '%s' (try --help)", arg, "");
		o->cmd = (*cmd)->cmd;
		o->cmd_name = (*cmd)->name;
		return 0;
	}
	if ((o->cmd == CMD_CONFIGURE || o->cmd == CMD_REPLAY || o->cmd == CMD_EXPORT) && !o->file) {
		o->file = arg;
		return 0;
	}
	if (o->cmd == CMD_INSTRUMENT && !o->has_on && (!strcmp(arg, "on") || !strcmp(arg, "off"))) {
		o->on = !strcmp(arg, "on");
		o->has_on = true;
		return 0;
	}
	if (o->cmd != CMD_SYMBOLS)
		return usage_error(err, n, "%s takes no argument '%s' (try --help)", (*cmd)->name, arg);
	if (o->n_addrs == KOVCTL_MAX_ADDRS)
		return usage_error(err, n, "at most 4096 addresses", "", "");
	if (!parse_addr(arg, &o->addrs[o->n_addrs]))
		return usage_error(err, n, "'%s' is not a hex address", arg, "");
	o->n_addrs++;
	return 0;
}

int kovctl_parse(int argc, char **argv, struct kovctl_opts *o, char *err, size_t n)
{
	memset(o, 0, sizeof *o);
	o->timeout_ms = 10000;
	o->count = 10;
	o->depth = 4;
	o->opt_interval = 2;
	o->threshold = KOV_OPT_THRESHOLD;
	o->opt_k = KOV_OPT_K;
	o->cooldown = KOV_OPT_COOLDOWN;
	o->back_pct = KOV_OPT_BACK_PCT;
	const struct cmd_def *cmd = NULL;
	bool only_positional = false;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (only_positional || a[0] != '-' || !a[1] || (cmd && cmd->cmd == CMD_SYMBOLS &&
		                                               a[1] != '-' && a[1] != 'h')) {
			if (positional(o, &cmd, a, err, n) < 0)
				return -1;
			continue;
		}
		if (!strcmp(a, "--")) {
			only_positional = true;
			continue;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			o->help = true;
			return 0;
		}
		if (!strcmp(a, "--json")) {
			o->json = true;
			continue;
		}
		/* --name=value or --name value */
		char name[32];
		const char *eq = strchr(a, '=');
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		if (len >= sizeof name)
			return usage_error(err, n, "unknown option '%s' (try --help)", a, "");
		memcpy(name, a, len);
		name[len] = 0;
		const char *val = eq ? eq + 1 : NULL;
		bool takes_value = strcmp(name, "--json") && strcmp(name, "--dry-run");
		if (!eq && takes_value && i + 1 < argc)
			val = argv[++i];
		if (option(o, cmd, name, val, err, n) < 0)
			return -1;
	}
	if (!cmd)
		return usage_error(err, n, "no command given (try --help)", "", "");
	if (!o->host[0] && o->cmd != CMD_REPLAY && o->cmd != CMD_EXPORT)
		return usage_error(err, n, "--target needs HOST:PORT", "", "");
	if ((o->cmd == CMD_CONFIGURE || o->cmd == CMD_REPLAY || o->cmd == CMD_EXPORT) && !o->file)
		return usage_error(err, n, "%s needs a FILE", cmd->name, "");
	if (o->cmd == CMD_EXPORT && !o->format)
		return usage_error(err, n, "export needs --format folded|callgrind|pprof|speedscope", "", "");
	if (o->cmd == CMD_TOP && !o->metric)
		return usage_error(err, n, "top needs --metric M (spinlock, lockwait, spinlock-samples, "
				   "stcx, branchmiss, mmu, ipc, invocations or an event name)", "", "");
	if (o->cmd == CMD_INSTRUMENT && (!o->has_pid || !o->has_on))
		return usage_error(err, n, "instrument needs --pid N and on or off", "", "");
	if (o->cmd == CMD_SWAP && (!o->has_pid || !o->coid || !o->to_class))
		return usage_error(err, n, "swap needs --pid N, --coid C and --to CLASS", "", "");
	if (o->cmd == CMD_RECORD && !o->out)
		return usage_error(err, n, "record needs --out FILE", "", "");
	if (o->cmd == CMD_SYMBOLS && o->n_addrs == 0)
		return usage_error(err, n, "symbols needs at least one hex address", "", "");
	if (o->cmd == CMD_STREAM && o->seconds == 0)
		o->seconds = 5;
	return 0;
}

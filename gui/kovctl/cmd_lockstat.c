/* kovctl lockstat: lock_stat figures per spin and sleep lock of the kernel and of every
 * process (contentions, wait and contended-hold times, CPU bounces, waiters, trylock failures,
 * the contending call sites symbolized), summed over --seconds of LOCK_CONTENTION reports,
 * with the object, class and process each lock belongs to. Starts the lock stream when it is
 * not running (controller only), keeping the streams that run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/metrics.h"
#include "client/symcache.h"
#include "client/lockstat.h"

static void on_locks(void *arg, const struct proto_frame *f)
{
	kov_lock_table_add(arg, f);
}

static double us(struct kov_client *c, uint64_t ticks)
{
	return kov_ticks_to_s(ticks, kov_client_target(c)->timebase_hz) * 1e6;
}

static const char *sort_key;

static uint64_t key_of(const struct proto_lock *l)
{
	return !strcmp(sort_key, "contentions") ? l->contentions :
	       !strcmp(sort_key, "acquisitions") ? l->acquisitions : l->wait_total;
}

static int by_key(const void *a, const void *b)
{
	uint64_t x = key_of(a), y = key_of(b);
	return x != y ? (x < y ? 1 : -1) : 0;
}

/* Where a lock belongs: its object's class and process from the scan. */
struct owner { const char *cls, *proc; int rep; /* rep_cpu: -1 single rep or none */ };

static struct owner owner_of(const struct kovctl_names *names, const struct proto_lock *l)
{
	struct owner o;
	kovctl_owner(names, l->pid, l->coid, l->gen, "-", &o.cls, &o.proc);
	o.rep = kovctl_owner_rep(names, l->pid, l->coid, l->gen, l->lock);
	return o;
}

/* The call sites' names and, last, the lock's own (a static lock has a symbol): one lookup. */
#define NAMES (PROTO_LOCK_SITES + 1)
static void site_names(struct kovctl *k, const struct proto_lock *l, struct kov_symbol *out)
{
	static struct kov_symcache *sc;
	if (!sc)
		sc = kov_symcache_new();
	uint64_t addrs[NAMES];
	size_t n = 0;
	for (int i = 0; i < PROTO_LOCK_SITES && l->site[i].pc; i++)
		addrs[n++] = l->site[i].pc;
	addrs[n++] = l->lock;
	struct kov_symbol got[NAMES];
	memset(out, 0, NAMES * sizeof *out);
	if (kov_symcache_lookup(k->c, sc, l->pid ? l->pid : PROTO_PID_KERNEL, addrs, n, got) < 0)
		return;
	memcpy(out, got, (n - 1) * sizeof *got);
	out[PROTO_LOCK_SITES] = got[n - 1];
}

/* "name+0xoff" of a symbol, or "" when none covers it. */
static const char *sym_text(const struct kov_symbol *s, char *buf, size_t n)
{
	if (!s->name[0])
		return "";
	snprintf(buf, n, "%s+0x%llx", s->name, (unsigned long long)(s->addr - s->start));
	return buf;
}

static void print_json(struct kovctl *k, const struct proto_lock *l, struct owner o,
		       const struct kov_symbol *names)
{
	json_begin_object(&k->j);
	json_kv_hex(&k->j, "lock", l->lock);
	json_kv_str(&k->j, "kind", l->kind == PROTO_LOCK_SLEEP ? "sleep" : "spin");
	char name[PROTO_SYMBOL_MAX + 24];
	json_kv_str(&k->j, "class", o.cls);
	json_kv_str(&k->j, "name", sym_text(&names[PROTO_LOCK_SITES], name, sizeof name));
	json_kv_coid(&k->j, "coid", l->coid);
	json_key(&k->j, "rep_cpu");   /* the CPU whose rep of a per-CPU object holds the lock */
	o.rep >= 0 ? json_u64(&k->j, (uint64_t)o.rep) : json_null(&k->j);
	json_kv_u64(&k->j, "pid", l->pid);
	json_kv_str(&k->j, "process", o.proc);
	json_kv_str(&k->j, "owner_from", l->flags & PROTO_LOCK_OWNER_SET ? "registered" :
			l->coid ? "stack walk" : "none");
	json_kv_str(&k->j, "acquisitions_counted", l->flags & PROTO_LOCK_FULL ? "all" : "contended");
	json_kv_u64(&k->j, "acquisitions", l->acquisitions);
	json_kv_u64(&k->j, "contentions", l->contentions);
	json_kv_u64(&k->j, "wait_ticks", l->wait_total);
	json_kv_double(&k->j, "wait_us", us(k->c, l->wait_total));
	json_kv_double(&k->j, "wait_min_us", us(k->c, l->wait_min));
	json_kv_double(&k->j, "wait_max_us", us(k->c, l->wait_max));
	json_kv_u64(&k->j, "holds", l->holds);
	json_kv_double(&k->j, "hold_us", us(k->c, l->hold_total));
	json_kv_double(&k->j, "hold_max_us", us(k->c, l->hold_max));
	json_kv_u64(&k->j, "bounces", l->bounces);
	json_kv_u64(&k->j, "trylock_failures", l->trylock_failures);
	json_kv_double(&k->j, "avg_waiters", l->qlen_samples ? (double)l->qlen_sum / (double)l->qlen_samples : 0);
	json_kv_u64(&k->j, "max_waiters", l->qlen_max);
	json_key(&k->j, "sites");
	json_begin_array(&k->j);
	for (int i = 0; i < PROTO_LOCK_SITES && l->site[i].pc; i++) {
		json_begin_object(&k->j);
		json_kv_hex(&k->j, "pc", l->site[i].pc);
		json_kv_str(&k->j, "symbol", names[i].name[0] ? names[i].name : "?");
		json_kv_u64(&k->j, "offset", (names[i].addr - names[i].start));
		json_kv_u64(&k->j, "contentions", l->site[i].count);
		json_end_object(&k->j);
	}
	json_end_array(&k->j);
	json_kv_u64(&k->j, "other_sites", l->other_sites);
	json_end_object(&k->j);
}

static void print_text(struct kovctl *k, const struct proto_lock *l, struct owner o,
		       const struct kov_symbol *names)
{
	char acq[24], name[PROTO_SYMBOL_MAX + 24];
	if (!l->coid && *sym_text(&names[PROTO_LOCK_SITES], name, sizeof name))
		o.cls = name;   /* a lock of no object: its own name */
	if (l->flags & PROTO_LOCK_FULL)
		snprintf(acq, sizeof acq, "%llu", (unsigned long long)l->acquisitions);
	else
		snprintf(acq, sizeof acq, "-");
	char rep[16] = "-";
	if (o.rep >= 0)
		snprintf(rep, sizeof rep, "cpu%d", o.rep);
	printf("%-5s 0x%016llx %-16s %-14s %5u %9llu %9s %11.1f %8.1f %9.1f %11.1f %9.1f %6llu %6llu %4u %s\n",
	       l->kind == PROTO_LOCK_SLEEP ? "sleep" : "spin", (unsigned long long)l->lock, o.cls,
	       o.proc, (unsigned)l->pid, (unsigned long long)l->contentions, acq,
	       us(k->c, l->wait_total), us(k->c, l->wait_min), us(k->c, l->wait_max),
	       us(k->c, l->hold_total), us(k->c, l->hold_max), (unsigned long long)l->bounces,
	       (unsigned long long)l->trylock_failures, (unsigned)l->qlen_max, rep);
	for (int i = 0; i < PROTO_LOCK_SITES && l->site[i].pc; i++) {
		char where[PROTO_SYMBOL_MAX + 24];
		if (names[i].name[0])
			snprintf(where, sizeof where, "%s+0x%llx", names[i].name,
				 (unsigned long long)(names[i].addr - names[i].start));
		else
			snprintf(where, sizeof where, "0x%016llx", (unsigned long long)l->site[i].pc);
		printf("      site %-40s %9llu contentions\n", where, (unsigned long long)l->site[i].count);
	}
	if (l->other_sites)
		printf("      site (others)%-33s %9llu contentions\n", "", (unsigned long long)l->other_sites);
}

int kovctl_collect_locks(struct kovctl *k, struct kov_lock_table *t, double seconds,
			 struct kov_losses *losses)
{
	struct proto_status st;
	bool stop_after;
	int rc = kovctl_running(k, &st);
	if (!rc)
		rc = kovctl_need_stream(k, &st, PROTO_STREAM_LOCKS, 0, "lock statistics", &stop_after);
	if (rc)
		return rc;
	memset(t, 0, sizeof *t);
	kov_client_on_push(k->c, on_locks, t);
	struct kovctl_period period;
	kovctl_period_begin(k, &period);
	rc = kovctl_collect(k, seconds);
	if (stop_after)
		kovctl_stop(k);
	if (!rc)
		rc = kovctl_period_end(k, &period, losses);
	return rc;
}

int cmd_lockstat(struct kovctl *k)
{
	static struct kov_lock_table t;
	struct kov_losses losses;
	static struct kovctl_names owners;
	kovctl_names_begin(k, &owners);
	int rc = kovctl_collect_locks(k, &t, k->o->seconds > 0 ? k->o->seconds : 2, &losses);
	if (rc)
		return rc;
	/* Only the locks asked for, ranked. */
	size_t n = 0;
	for (size_t i = 0; i < t.n; i++)
		if ((!k->o->has_pid || t.locks[i].pid == k->o->pid) &&
		    (!k->o->lock_kind || t.locks[i].kind == k->o->lock_kind))
			t.locks[n++] = t.locks[i];
	sort_key = k->o->sort ? k->o->sort : "wait";
	qsort(t.locks, n, sizeof t.locks[0], by_key);
	kovctl_names_get(k, &owners);
	double span = us(k->c, t.last - t.first) / 1e6;
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "reports", t.frames);
		json_kv_double(&k->j, "seconds", span);
		json_kv_str(&k->j, "sort", sort_key);
		json_kv_bool(&k->j, "full_figures", t.full_figures);
		json_kv_u64(&k->j, "locks_not_kept", t.not_kept);
		kovctl_machine_report(k);
		kovctl_losses_report(k, &losses, true);
		json_key(&k->j, "locks");
		json_begin_array(&k->j);
	} else {
		printf("lock statistics over %.1f s, %llu reports, sorted by %s; times in us; ACQ '-': only "
		       "contended acquisitions are counted (kovctl instrument --what full-locks counts all)\n",
		       span, (unsigned long long)t.frames, sort_key);
		if (!t.full_figures && t.frames)
			printf("(a protocol 1.1 target: no minimum, holds, bounces, trylock failures or call sites)\n");
		kovctl_machine_report(k);
		kovctl_losses_report(k, &losses, false);
		if (losses.dropped[KOV_DROP_LOCKS])
			printf("the figures miss %llu lock reports the daemon dropped: they are low\n",
			       (unsigned long long)losses.dropped[KOV_DROP_LOCKS]);
		printf("%-5s %-18s %-16s %-14s %5s %9s %9s %11s %8s %9s %11s %9s %6s %6s %4s %s\n", "KIND",
		       "LOCK", "OBJECT", "PROCESS", "PID", "CONTENDED", "ACQ", "WAIT", "WMIN", "WMAX",
		       "HOLD", "HMAX", "BOUNCE", "TRYF", "MAXW", "REP");
	}
	for (size_t i = 0; i < n; i++) {
		struct kov_symbol names[NAMES];
		site_names(k, &t.locks[i], names);
		struct owner o = owner_of(&owners, &t.locks[i]);
		if (k->o->json)
			print_json(k, &t.locks[i], o, names);
		else
			print_text(k, &t.locks[i], o, names);
	}
	kovctl_json_end(k, true);
	if (!k->o->json && t.not_kept)
		printf("%llu reports of locks beyond the first %d were not summed\n",
		       (unsigned long long)t.not_kept, KOV_LOCKS_MAX);
	kovctl_names_free(&owners);
	if (!t.frames) {
		fprintf(stderr, "kovctl: no lock statistics arrived (no lock was contended or counted)\n");
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

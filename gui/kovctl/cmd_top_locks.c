/* kovctl top --metric spinlock | lockwait: objects ranked by the wait measured on their
 * locks' contended acquisitions (locks that belong to no object stand alone), with the
 * figures behind each rank, from --seconds of lock statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/lockstat.h"
#include "client/metrics.h"

static int by_wait(const void *a, const void *b)
{
	const struct kovctl_lock_row *x = a, *y = b;
	return x->wait != y->wait ? (x->wait < y->wait ? 1 : -1) :
	       x->contentions != y->contentions ? (x->contentions < y->contentions ? 1 : -1) : 0;
}

void kovctl_rank_locks(struct kovctl *k, const struct kov_lock_table *locks, uint16_t kind,
		       double seconds, struct kovctl_lock_rank *lr)
{
	struct kovctl_lock_row *rows = lr->rows;
	size_t n = 0;
	lr->total = lr->contentions = 0;
	for (size_t i = 0; i < locks->n; i++) {
		const struct proto_lock *l = &locks->locks[i];
		if (l->kind != kind || !l->contentions)
			continue;
		size_t r = 0;
		while (r < n && !(rows[r].pid == l->pid && rows[r].coid == l->coid && rows[r].gen == l->gen &&
				  (l->coid || rows[r].lock == l->lock)))
			r++;
		if (r == n)
			rows[n++] = (struct kovctl_lock_row){ l->pid, l->gen, l->coid, l->coid ? 0 : l->lock,
						       0, 0, 0, 0, true };
		rows[r].wait += l->wait_total;
		rows[r].contentions += l->contentions;
		rows[r].acquisitions += l->acquisitions;
		rows[r].locks++;
		rows[r].full &= (l->flags & PROTO_LOCK_FULL) != 0;
		lr->total += l->wait_total;
		lr->contentions += l->contentions;
	}
	qsort(rows, n, sizeof rows[0], by_wait);
	lr->n = n;
	lr->hz = kov_client_target(k->c)->timebase_hz;
	lr->cpus = kov_client_target(k->c)->cpus ? kov_client_target(k->c)->cpus : 1;
	/* The timebase span the reports cover (the run's length when they say nothing). */
	lr->ticks = locks->last > locks->first ? locks->last - locks->first :
		    (uint64_t)(seconds * (double)lr->hz);
	lr->span = lr->hz ? kov_ticks_to_s(lr->ticks, lr->hz) : seconds;
}

double kovctl_lock_cpu_share(const struct kovctl_lock_rank *lr, uint64_t wait)
{
	double v = kov_wait_share(wait, lr->ticks, lr->cpus);
	return v < 0 ? 0 : v;
}

static double wait_us(const struct kovctl_lock_rank *lr, uint64_t ticks)
{
	return kov_ticks_to_s(ticks, lr->hz) * 1e6;
}

static void head(struct kovctl *k, const struct kovctl_lock_rank *lr, const struct kov_lock_table *locks,
		 const char *method)
{
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_str(&k->j, "metric", k->o->metric);
		json_kv_str(&k->j, "method", method);
		json_kv_double(&k->j, "seconds", lr->span);
		json_kv_u64(&k->j, "reports", locks->frames);
		json_kv_u64(&k->j, "wait_ticks", lr->total);
		json_kv_u64(&k->j, "contentions", lr->contentions);
		json_kv_u64(&k->j, "locks_not_kept", locks->not_kept);
		kovctl_machine_report(k);
		kovctl_losses_report(k, &lr->losses, true);
		json_kv_bool(&k->j, "complete", !lr->losses.dropped[KOV_DROP_LOCKS] && !locks->not_kept);
		json_key(&k->j, "objects");
		json_begin_array(&k->j);
		return;
	}
	printf("metric %s: %s\n", k->o->metric, method);
	printf("%.1f s, %llu contentions, %.1f us waited in all (%.2f%% of %u CPUs' time)%s\n", lr->span,
	       (unsigned long long)lr->contentions, wait_us(lr, lr->total), kovctl_lock_cpu_share(lr, lr->total),
	       lr->cpus, lr->contentions == 0 ? ": no contention" : "");
	kovctl_machine_report(k);
	kovctl_losses_report(k, &lr->losses, false);
	if (lr->losses.dropped[KOV_DROP_LOCKS] || locks->not_kept)
		printf("this ranking is built from an incomplete period: %llu lock reports dropped, "
		       "%llu of locks beyond the %d kept\n",
		       (unsigned long long)lr->losses.dropped[KOV_DROP_LOCKS],
		       (unsigned long long)locks->not_kept, KOV_LOCKS_MAX);
	printf("%-4s %7s %11s %9s %7s %-20s %-18s %6s %s\n", "RANK", "SHARE", "WAIT_US", "CONTENDED",
	       "CPU%", "CLASS", "OBJECT", "PID", "PROCESS");
}

static void row(struct kovctl *k, const struct kovctl_lock_rank *lr, size_t i, const char *cls,
		const char *proc)
{
	const struct kovctl_lock_row *r = &lr->rows[i];
	double share = kov_share(r->wait, lr->total);
	double us = wait_us(lr, r->wait);
	double cpu = kovctl_lock_cpu_share(lr, r->wait);
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "rank", i + 1);
		json_kv_double(&k->j, "share", share);
		json_kv_u64(&k->j, "wait_ticks", r->wait);
		json_kv_double(&k->j, "wait_us", us);
		json_kv_double(&k->j, "cpu_share", cpu);
		json_kv_u64(&k->j, "contentions", r->contentions);
		json_kv_u64(&k->j, "locks", r->locks);
		json_kv_str(&k->j, "class", cls);
		json_kv_coid(&k->j, "coid", r->coid);
		json_kv_u64(&k->j, "generation", r->gen);
		if (!r->coid)
			json_kv_hex(&k->j, "lock", r->lock);
		json_kv_u64(&k->j, "pid", r->pid);
		json_kv_str(&k->j, "process", proc);
		json_kv_str(&k->j, "confidence", r->contentions < 100 ? "low (fewer than 100 contentions)" : "ok");
		json_end_object(&k->j);
		return;
	}
	char obj[32];
	if (r->coid)
		kov_coid_str(r->coid, obj);
	else
		snprintf(obj, sizeof obj, "lock 0x%llx", (unsigned long long)r->lock);
	printf("%-4zu %6.1f%% %11.1f %9llu %6.2f%% %-20s %-18s %6u %s%s\n", i + 1, share, us,
	       (unsigned long long)r->contentions, cpu, cls, obj, (unsigned)r->pid, proc,
	       r->contentions < 100 ? "  (few contentions: rough)" : "");
}

int kovctl_top_locks(struct kovctl *k, uint16_t kind, const char *method)
{
	static struct kov_lock_table locks;
	static struct kovctl_names names;
	static struct kovctl_lock_rank lr;
	memset(&lr, 0, sizeof lr);
	double seconds = k->o->seconds > 0 ? k->o->seconds : 5;
	kovctl_names_begin(k, &names);
	int rc = kovctl_collect_locks(k, &locks, seconds, &lr.losses);
	if (rc)
		return rc;
	kovctl_rank_locks(k, &locks, kind, seconds, &lr);
	kovctl_names_get(k, &names);
	unsigned limit = k->o->top_n ? k->o->top_n : 10;
	head(k, &lr, &locks, method);
	for (size_t i = 0; i < lr.n && i < limit; i++) {
		const char *cls, *proc;
		const struct kovctl_lock_row *r = &lr.rows[i];
		kovctl_owner(&names, r->pid, r->coid, r->gen, "(no object)", &cls, &proc);
		row(k, &lr, i, cls, proc);
	}
	kovctl_json_end(k, true);
	kovctl_names_free(&names);
	if (!locks.frames) {
		fprintf(stderr, "kovctl: no lock statistics arrived in %.1f s\n", seconds);
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

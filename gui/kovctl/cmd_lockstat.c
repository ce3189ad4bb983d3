/* kovctl lockstat: lockstat-style figures per monitored lock (acquisitions, contentions, wait
 * and hold times, waiters seen), summed over --seconds of LOCK_STATS reports, with the object
 * each lock belongs to. Starts the lock-statistics stream when it is not running (controller
 * only), keeping the streams that run. */
#include <stdio.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/scan.h"
#include "client/lockstat.h"

#define MAX_LOCKS 1024

struct lock_row { struct proto_lock l; uint64_t reports; };
struct lockstat {
	struct lock_row rows[MAX_LOCKS];
	size_t n;
	uint64_t frames;
};

static void on_locks(void *arg, const struct proto_frame *f)
{
	struct lockstat *s = arg;
	if (f->type != PROTO_LOCK_STATS)
		return;
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lock l;
	if (proto_decode_lock_stats(f, &h, &it) < 0)
		return;
	s->frames++;
	while (proto_next_lock(&it, &l)) {
		size_t i = 0;
		while (i < s->n && (s->rows[i].l.pid != l.pid || s->rows[i].l.lock != l.lock))
			i++;
		if (i == s->n) {
			if (s->n == MAX_LOCKS)
				continue;
			s->n++;
			kov_lock_start(&s->rows[i].l, &l);
			s->rows[i].reports = 0;
		}
		s->rows[i].reports++;
		kov_lock_add(&s->rows[i].l, &l);
	}
}

static double us(const struct kovctl *k, uint64_t ticks, struct kov_client *c)
{
	(void)k;
	uint64_t hz = kov_client_target(c)->timebase_hz;
	return hz ? (double)ticks * 1e6 / (double)hz : 0;
}

int cmd_lockstat(struct kovctl *k)
{
	struct proto_status st;
	int rc = kovctl_running(k, &st);
	if (rc)
		return rc;
	bool started = false;
	if (!(st.streams & PROTO_STREAM_LOCKS)) {
		if (kov_client_target(k->c)->role != PROTO_ROLE_CONTROLLER) {
			fprintf(stderr, "kovctl: the target is not streaming lock statistics, and starting "
				"them needs the controller token (--token)\n");
			return EXIT_NOT_CONTROLLER;
		}
		if ((rc = kovctl_start(k, st.streams | PROTO_STREAM_LOCKS, 0)))
			return rc;
		started = !st.streams;
	}
	static struct lockstat s;
	memset(&s, 0, sizeof s);
	kov_client_on_push(k->c, on_locks, &s);
	rc = kovctl_collect(k, k->o->seconds > 0 ? k->o->seconds : 2);
	if (started)
		kovctl_stop(k);
	if (rc)
		return rc;
	static struct kov_scan scan;
	bool named = kov_scan_collect(k->c, PROTO_PID_ALL, &scan) == 0;
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "reports", s.frames);
		json_key(&k->j, "locks");
		json_begin_array(&k->j);
	} else {
		printf("%-18s %-14s %6s %10s %10s %12s %10s %12s %10s %6s %4s\n", "LOCK", "OBJECT", "PID",
		       "ACQUIRED", "CONTENDED", "WAIT_US", "WMAX_US", "HOLD_US", "HMAX_US", "AVG_Q", "MAXQ");
	}
	for (size_t i = 0; i < s.n; i++) {
		const struct proto_lock *l = &s.rows[i].l;
		size_t o = named && l->coid ? kov_scan_find_any(&scan, l->pid, l->coid, l->gen) : KOV_NOT_IN_SCAN;
		const char *cls = o != KOV_NOT_IN_SCAN ? scan.objects[o].class_name : "-";
		double avg_q = l->qlen_samples ? (double)l->qlen_sum / (double)l->qlen_samples : 0;
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_hex(&k->j, "lock", l->lock);
			json_kv_str(&k->j, "class", cls);
			json_kv_hex(&k->j, "coid", l->coid);
			json_kv_u64(&k->j, "pid", l->pid);
			json_kv_str(&k->j, "kind", l->kind == PROTO_LOCK_SLEEP ? "sleep" : "spin");
			json_kv_u64(&k->j, "acquisitions", l->acquisitions);
			json_kv_u64(&k->j, "contentions", l->contentions);
			json_kv_double(&k->j, "wait_us", us(k, l->wait_total, k->c));
			json_kv_double(&k->j, "wait_max_us", us(k, l->wait_max, k->c));
			json_kv_double(&k->j, "hold_us", us(k, l->hold_total, k->c));
			json_kv_double(&k->j, "hold_max_us", us(k, l->hold_max, k->c));
			json_kv_double(&k->j, "avg_queue", avg_q);
			json_kv_u64(&k->j, "max_queue", l->qlen_max);
			json_end_object(&k->j);
		} else {
			printf("0x%016llx %-14s %6u %10llu %10llu %12.1f %10.1f %12.1f %10.1f %6.2f %4u\n",
			       (unsigned long long)l->lock, cls, (unsigned)l->pid,
			       (unsigned long long)l->acquisitions, (unsigned long long)l->contentions,
			       us(k, l->wait_total, k->c), us(k, l->wait_max, k->c),
			       us(k, l->hold_total, k->c), us(k, l->hold_max, k->c), avg_q,
			       (unsigned)l->qlen_max);
		}
	}
	if (k->o->json) {
		json_end_array(&k->j);
		json_end_object(&k->j);
		json_end(&k->j);
	}
	if (named)
		kov_scan_free(&scan);
	if (!s.frames) {
		fprintf(stderr, "kovctl: no lock statistics arrived (no monitored lock was used)\n");
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

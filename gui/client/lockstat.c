/* Lock statistics on the host (gui/client/lockstat.h). */
#include <string.h>
#include "client/lockstat.h"

int kov_lock_decode(const struct proto_frame *f, struct proto_interval *h, struct proto_iter *it)
{
	if (f->type == PROTO_LOCK_CONTENTION)
		return proto_decode_lock_contention(f, h, it);
	if (f->type == PROTO_LOCK_STATS)
		return proto_decode_lock_stats(f, h, it);
	return -PROTO_E_UNEXPECTED;
}

bool kov_lock_next(const struct proto_frame *f, struct proto_iter *it, struct proto_lock *l)
{
	return f->type == PROTO_LOCK_CONTENTION ? proto_next_lock_contention(it, l)
						: proto_next_lock(it, l);
}

void kov_lock_start(struct proto_lock *sum, const struct proto_lock *first)
{
	memset(sum, 0, sizeof *sum);
	sum->lock = first->lock;
	sum->pid = first->pid;
	sum->kind = first->kind;
}

static void add_site(struct proto_lock *a, const struct proto_lock_site *s)
{
	for (int i = 0; i < PROTO_LOCK_SITES; i++) {
		if (a->site[i].pc == s->pc || !a->site[i].pc) {
			a->site[i].pc = s->pc;
			a->site[i].count += s->count;
			return;
		}
	}
	a->other_sites += s->count;
}

void kov_lock_add(struct proto_lock *a, const struct proto_lock *l)
{
	a->coid = l->coid;
	a->gen = l->gen;
	a->flags |= l->flags;
	if (l->contentions && (!a->contentions || l->wait_min < a->wait_min))
		a->wait_min = l->wait_min;
	a->acquisitions += l->acquisitions;
	a->contentions += l->contentions;
	a->wait_total += l->wait_total;
	a->holds += l->holds;
	a->hold_total += l->hold_total;
	a->qlen_samples += l->qlen_samples;
	a->qlen_sum += l->qlen_sum;
	a->bounces += l->bounces;
	a->trylock_failures += l->trylock_failures;
	a->other_sites += l->other_sites;
	if (l->wait_max > a->wait_max)
		a->wait_max = l->wait_max;
	if (l->hold_max > a->hold_max)
		a->hold_max = l->hold_max;
	if (l->qlen_max > a->qlen_max)
		a->qlen_max = l->qlen_max;
	for (int i = 0; i < PROTO_LOCK_SITES; i++)
		if (l->site[i].pc && l->site[i].count)
			add_site(a, &l->site[i]);
}

bool kov_lock_table_add(struct kov_lock_table *t, const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lock l;
	if (kov_lock_decode(f, &h, &it) < 0)
		return false;
	t->frames++;
	t->full_figures |= f->type == PROTO_LOCK_CONTENTION;
	if (!t->first || h.start < t->first)
		t->first = h.start;
	if (h.end > t->last)
		t->last = h.end;
	while (kov_lock_next(f, &it, &l)) {
		t->reports++;
		size_t i = 0;
		while (i < t->n && (t->locks[i].pid != l.pid || t->locks[i].lock != l.lock))
			i++;
		if (i == t->n) {
			if (t->n == KOV_LOCKS_MAX) {
				t->not_kept++;
				continue;
			}
			kov_lock_start(&t->locks[t->n++], &l);
		}
		kov_lock_add(&t->locks[i], &l);
	}
	return true;
}

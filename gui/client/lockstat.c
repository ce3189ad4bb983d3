/* Summing LOCK_STATS reports (gui/client/lockstat.h). */
#include <string.h>
#include "client/lockstat.h"

void kov_lock_start(struct proto_lock *sum, const struct proto_lock *first)
{
	memset(sum, 0, sizeof *sum);
	sum->lock = first->lock;
	sum->pid = first->pid;
	sum->kind = first->kind;
}

void kov_lock_add(struct proto_lock *a, const struct proto_lock *l)
{
	a->coid = l->coid;
	a->gen = l->gen;
	a->acquisitions += l->acquisitions;
	a->contentions += l->contentions;
	a->wait_total += l->wait_total;
	a->hold_total += l->hold_total;
	a->qlen_samples += l->qlen_samples;
	a->qlen_sum += l->qlen_sum;
	if (l->wait_max > a->wait_max)
		a->wait_max = l->wait_max;
	if (l->hold_max > a->hold_max)
		a->hold_max = l->hold_max;
	if (l->qlen_max > a->qlen_max)
		a->qlen_max = l->qlen_max;
}

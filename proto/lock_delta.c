/* Lock figures per report interval (proto/lock_delta.h). */
#include "lock_delta.h"

static uint64_t min64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* Each call site's contentions not yet reported, matched by pc (a slot keeps its pc once set);
 * all of them together at most `room`, the contentions this report carries. A slot whose count
 * was copied before its pc waits. */
static uint64_t sites_delta(const struct km_lock_stats *now, struct km_lock_stats *sent,
			    struct proto_lock *l, uint64_t room)
{
	uint64_t used = 0;
	for (int i = 0; i < KM_LOCK_SITES && i < PROTO_LOCK_SITES; i++) {
		uint64_t pc = now->site[i].pc, before = 0;
		int j = 0;
		while (j < KM_LOCK_SITES && sent->site[j].pc != pc)
			j++;
		if (j == KM_LOCK_SITES && !sent->site[i].pc)
			j = i;   /* a slot filled since (a count copied before its pc: already sent) */
		if (j < KM_LOCK_SITES)
			before = sent->site[j].count;
		uint64_t c = pc && j < KM_LOCK_SITES && now->site[i].count > before ?
			min64(now->site[i].count - before, room - used) : 0;
		if (c) {
			sent->site[j] = (struct km_lock_site){ pc, before + c };
			used += c;
		}
		l->site[i] = (struct proto_lock_site){ c ? pc : 0, c };
	}
	return used;
}

/* What is left of a figure to report, at most `cap`; counted as reported. */
static uint64_t take(uint64_t now, uint64_t *sent, uint64_t cap)
{
	uint64_t d = min64(now > *sent ? now - *sent : 0, cap);
	*sent += d;
	return d;
}
#define TAKE(field, cap) take(now->field, &sent->field, (cap))

bool lock_delta(uint32_t pid, const struct km_lock_stats *now, struct km_lock_stats *sent,
		struct proto_lock *l)
{
	if (!(now->flags & (KM_LOCK_ATTRIBUTED | KM_LOCK_OWNER_SET)))
		return false;
	if (sent->lock != now->lock || now->acquisitions < sent->acquisitions ||
	    now->trylock_failures < sent->trylock_failures)
		*sent = (struct km_lock_stats){ .lock = now->lock };
	*l = (struct proto_lock){
		.lock = now->lock, .pid = pid,
		.kind = now->kind == KM_LOCK_SPIN ? PROTO_LOCK_SPIN : PROTO_LOCK_SLEEP,
		.flags = (uint16_t)(now->flags & (KM_LOCK_FULL | KM_LOCK_OWNER_SET)),
	};
	l->acquisitions = TAKE(acquisitions, ~0ull);
	l->contentions = TAKE(contentions, l->acquisitions);
	l->bounces = TAKE(bounces, l->contentions);
	l->wait_total = TAKE(wait_total, ~0ull);
	l->holds = TAKE(holds, ~0ull);
	l->hold_total = TAKE(hold_total, l->holds ? ~0ull : 0);
	l->qlen_samples = TAKE(qlen_samples, ~0ull);
	l->qlen_sum = TAKE(qlen_sum, l->qlen_samples ? ~0ull : 0);
	l->trylock_failures = TAKE(trylock_failures, ~0ull);
	l->other_sites = TAKE(other_sites, l->contentions);
	uint64_t sites = l->other_sites + sites_delta(now, sent, l, l->contentions - l->other_sites);
	l->wait_max = min64(now->wait_max, l->wait_total);
	l->wait_min = l->contentions ? min64(now->wait_min, l->wait_max) : 0;
	l->hold_max = min64(now->hold_max, l->hold_total);
	l->qlen_max = (uint32_t)min64(now->qlen_max, l->qlen_sum);
	return l->acquisitions || l->contentions || l->wait_total || l->holds || l->hold_total ||
	       l->qlen_samples || l->qlen_sum || l->trylock_failures || sites;
}

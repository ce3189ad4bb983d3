/* Lock statistics tables (common/lib/lockstat.h). */
#include "lockstat.h"

#if KOV_LOCK_INSTR   /* compiled out: kernel/abi/kov_instr.h */

bool lockstat_area_init(struct km_lock_area *a, uint64_t bytes)
{
	if (bytes < sizeof *a + sizeof a->locks[0])
		return false;
	uint64_t fit = (bytes - sizeof *a) / sizeof a->locks[0], cap = 1;
	while (cap * 2 <= fit && cap < (1u << 20))
		cap *= 2;
	a->capacity = (uint32_t)cap;
	a->magic = KM_LOCK_AREA_MAGIC;
	return true;
}

/* Fibonacci hashing of the address (locks are at least 4-byte aligned). */
static uint32_t slot_of(uint64_t lock, uint32_t capacity)
{
	return (uint32_t)(((lock >> 2) * 0x9E3779B97F4A7C15ull) >> 32) & (capacity - 1);
}

struct km_lock_stats *lockstat_get(struct km_lock_area *a, uint64_t lock, uint16_t kind, bool *made)
{
	*made = false;
	uint32_t cap = a->capacity, i = slot_of(lock, cap);
	for (uint32_t n = 0; n < cap; n++, i = (i + 1) & (cap - 1)) {
		struct km_lock_stats *s = &a->locks[i];
		uint64_t have = __atomic_load_n(&s->lock, __ATOMIC_ACQUIRE);
		if (have == lock)
			return s;
		if (have)
			continue;
		uint64_t expect = 0;
		if (__atomic_compare_exchange_n(&s->lock, &expect, lock, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE)) {
			__atomic_store_n(&s->kind, kind, __ATOMIC_RELEASE);
			__atomic_fetch_add(&a->used, 1, __ATOMIC_RELAXED);
			*made = true;
			return s;
		}
		if (expect == lock)
			return s;
	}
	__atomic_fetch_add(&a->dropped, 1, __ATOMIC_RELAXED);
	return 0;
}

/* Records are never removed and a slot's `lock` is set first: the probe ends at a free slot. */
struct km_lock_stats *lockstat_find(struct km_lock_area *a, uint64_t lock)
{
	uint32_t cap = a->capacity, i = slot_of(lock, cap);
	for (uint32_t n = 0; n < cap; n++, i = (i + 1) & (cap - 1)) {
		uint64_t have = __atomic_load_n(&a->locks[i].lock, __ATOMIC_ACQUIRE);
		if (have == lock)
			return &a->locks[i];
		if (!have)
			return 0;
	}
	return 0;
}

void lockstat_owner_gone(struct km_lock_area *a, uint64_t owner)
{
	if (!owner || !__atomic_load_n(&a->used, __ATOMIC_RELAXED))
		return;
	for (uint32_t i = 0; i < a->capacity; i++) {
		struct km_lock_stats *s = &a->locks[i];
		if (s->owner != owner)
			continue;
		s->owner = 0;
		__atomic_and_fetch(&s->flags, (uint16_t)~(KM_LOCK_FULL | KM_LOCK_OWNER_SET), __ATOMIC_RELAXED);
		__atomic_or_fetch(&s->flags, KM_LOCK_OWNER_GONE, __ATOMIC_RELEASE);
	}
}

bool lockstat_needs_owner(struct km_lock_stats *s, bool made, uint16_t kind)
{
	if (made)
		return true;
	if (!(__atomic_load_n(&s->flags, __ATOMIC_ACQUIRE) & KM_LOCK_OWNER_GONE))
		return false;
	/* Still attributed while the owner was gone (its last figures go out as no object's, not
	 * as the next owner's); from here on the figures are the new lock's, held until found. */
	__atomic_and_fetch(&s->flags, (uint16_t)~(KM_LOCK_OWNER_GONE | KM_LOCK_ATTRIBUTED), __ATOMIC_ACQ_REL);
	s->kind = kind;
	return true;
}

void lockstat_attributed(struct km_lock_stats *s, uint64_t owner)
{
	if (!(__atomic_load_n(&s->flags, __ATOMIC_ACQUIRE) & KM_LOCK_OWNER_SET) && owner)
		s->owner = owner;
	/* Release: a monitor that sees the flag sees the owner. */
	__atomic_or_fetch(&s->flags, KM_LOCK_ATTRIBUTED, __ATOMIC_RELEASE);
}

uint32_t lockstat_wait_begin(struct km_lock_stats *s)
{
	return __atomic_add_fetch(&s->waiters, 1, __ATOMIC_RELAXED);
}

void lockstat_wait_end(struct km_lock_stats *s)
{
	__atomic_fetch_sub(&s->waiters, 1, __ATOMIC_RELAXED);
}

/* Readers copy a record while its holder writes it (lockstat.h); a report must not give a
 * figure without the one it depends on (a contention without its acquisition, a call site's
 * count without its contention, hold time without a hold, a pc-less count, ...). The daemon
 * holds a dependent figure back until its base shows (proto/lock_delta.h), which loses nothing
 * only if a base never shows before its dependents: so the dependents are stored first, the
 * base after a barrier, and the base lies at the lower address, which the copy reads first. */
#define PUBLISH() __atomic_thread_fence(__ATOMIC_RELEASE)

static void count_site(struct km_lock_stats *s, uint64_t site)
{
	for (int i = 0; i < KM_LOCK_SITES; i++) {
		if (s->site[i].pc == site) {
			s->site[i].count++;
			return;
		}
		if (!s->site[i].pc) {
			s->site[i].count = 1;
			PUBLISH();
			s->site[i].pc = site;
			return;
		}
	}
	s->other_sites++;
}

void lockstat_contended(struct km_lock_stats *s, uint64_t site, uint32_t cpu, uint32_t prev_cpu,
	uint32_t seen)
{
	if (prev_cpu == ~0u)
		prev_cpu = s->last_cpu ? s->last_cpu - 1 : cpu;
	if (prev_cpu != cpu)
		s->bounces++;
	s->last_cpu = cpu + 1;
	s->qlen_sum += seen;
	if (seen > s->qlen_max)
		s->qlen_max = seen;
	count_site(s, site);
	PUBLISH();
	s->qlen_samples++;
	s->contentions++;
	PUBLISH();
	s->acquisitions++;
}

void lockstat_acquired(struct km_lock_stats *s, uint64_t now)
{
	s->acquisitions++;
	s->acquired_at = now ? now : 1;
}

void lockstat_released(struct km_lock_stats *s, uint64_t now)
{
	uint64_t at = s->acquired_at;
	if (!at)
		return;
	s->acquired_at = 0;
	uint64_t h = now - at;
	s->hold_total += h;
	if (h > s->hold_max)
		s->hold_max = h;
	PUBLISH();
	s->holds++;
}

#endif

#include "co_count.h"
#include "spinlock.h"
#include "lib/co_abi.h"

extern const void *const co_count_ops[];

#define TOMBSTONE ((void *)1)

static struct slot {
	void *volatile rep;
	const void *ops;
	volatile uint64_t calls;
} slots[CO_COUNT_SLOTS];
static struct spinlock lock;

static uint32_t hash(const void *rep)
{
	uint64_t k = (uint64_t)rep >> 4;
	return (uint32_t)((k ^ (k >> 12) ^ (k >> 24)) % CO_COUNT_SLOTS);
}

/* Lock-free lookup: slots are only ever claimed, never moved. */
static struct slot *find(const void *rep)
{
	for (uint32_t n = 0, i = hash(rep); n < CO_COUNT_SLOTS; n++, i = (i + 1) % CO_COUNT_SLOTS) {
		void *k = __atomic_load_n(&slots[i].rep, __ATOMIC_ACQUIRE);
		if (k == rep)
			return &slots[i];
		if (!k)
			return 0;
	}
	return 0;
}

bool co_count_enable_rep(void *rep)
{
	struct co_rep *r = rep;
	bool ok = false;
	spin_lock(&lock);
	if (r->ops == (const void *)co_count_ops) {
		ok = true;
	} else {
		for (uint32_t n = 0, i = hash(rep); n < CO_COUNT_SLOTS && !ok; n++, i = (i + 1) % CO_COUNT_SLOTS) {
			void *k = slots[i].rep;
			if (k && k != TOMBSTONE && k != rep)
				continue;
			slots[i].ops = r->ops;
			slots[i].calls = 0;
			__atomic_store_n(&slots[i].rep, rep, __ATOMIC_RELEASE);
			__atomic_store_n(&r->ops, (const void *)co_count_ops, __ATOMIC_RELEASE);
			ok = true;
		}
	}
	spin_unlock(&lock);
	return ok;
}

void co_count_disable_rep(void *rep)
{
	struct co_rep *r = rep;
	spin_lock(&lock);
	struct slot *s = find(rep);
	if (s) {
		__atomic_store_n(&r->ops, s->ops, __ATOMIC_RELEASE);
		/* Calls already in the trampoline still find the slot until it is reused. */
		__atomic_store_n(&s->rep, TOMBSTONE, __ATOMIC_RELEASE);
	}
	spin_unlock(&lock);
}

uint64_t co_count_of_rep(const void *rep)
{
	const struct slot *s = find(rep);
	return s ? s->calls : 0;
}

const void *co_count_call(void *rep, unsigned long method)
{
	(void)method;
	struct slot *s = find(rep);
	__atomic_fetch_add(&s->calls, 1, __ATOMIC_RELAXED);
	return s->ops;
}

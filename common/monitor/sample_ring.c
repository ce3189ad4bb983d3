#include "sample_ring.h"
#include "common/lib/string.h"

static bool valid_capacity(uint32_t c)
{
	return c && c <= 0x80000000u && (c & (c - 1)) == 0;
}

int sample_ring_init(struct sample_ring *r, struct km_sample *storage, uint32_t capacity)
{
	if (!storage || !valid_capacity(capacity))
		return -1;
	r->slots = storage;
	r->capacity = capacity;
	r->head = r->tail = 0;
	r->lost = r->lost_seen = 0;
	return 0;
}

bool sample_ring_push(struct sample_ring *r, const struct km_sample *s)
{
	struct km_sample *slot = sample_ring_slot(r);
	if (!slot)
		return false;
	*slot = *s;
	sample_ring_commit(r);
	return true;
}

uint32_t sample_ring_peek(struct sample_ring *r, uint32_t max, struct km_sample *run[2],
			  uint32_t len[2])
{
	uint32_t tail = r->tail;   /* only this side writes it */
	uint32_t head = __atomic_load_n(&r->head, __ATOMIC_ACQUIRE);
	uint32_t n = head - tail, mask = r->capacity - 1;
	if (n > max)
		n = max;
	/* At most two runs: up to the end of the storage, then from its start. */
	uint32_t first = r->capacity - (tail & mask);
	if (first > n)
		first = n;
	run[0] = &r->slots[tail & mask];
	len[0] = first;
	run[1] = &r->slots[0];
	len[1] = n - first;
	return n;
}

void sample_ring_release(struct sample_ring *r, uint32_t n, uint64_t *lost)
{
	__atomic_store_n(&r->tail, r->tail + n, __ATOMIC_RELEASE);
	if (lost) {
		/* Read after taking the samples: a sample lost after this drain's snapshot of head
		 * is reported now and may be followed by samples pushed before it was lost, which
		 * the next drain returns; the total stays exact. */
		uint64_t now = __atomic_load_n(&r->lost, __ATOMIC_RELAXED);
		*lost = now - r->lost_seen;
		r->lost_seen = now;
	}
}

uint32_t sample_ring_drain(struct sample_ring *r, struct km_sample *out, uint32_t max,
	uint64_t *lost)
{
	struct km_sample *run[2];
	uint32_t len[2];
	uint32_t n = sample_ring_peek(r, max, run, len);
	if (n) {
		memcpy(out, run[0], (size_t)len[0] * sizeof *out);
		memcpy(out + len[0], run[1], (size_t)len[1] * sizeof *out);
	}
	sample_ring_release(r, n, lost);
	return n;
}

uint32_t sample_ring_count(const struct sample_ring *r)
{
	return __atomic_load_n(&r->head, __ATOMIC_ACQUIRE) -
		__atomic_load_n(&r->tail, __ATOMIC_ACQUIRE);
}

uint64_t sample_ring_lost(const struct sample_ring *r)
{
	return __atomic_load_n(&r->lost, __ATOMIC_RELAXED);
}

uint32_t sample_ring_next_capacity(uint32_t current, uint32_t held, uint64_t lost, uint32_t cap)
{
	uint32_t limit = 1;
	while (limit <= cap / 2)
		limit *= 2;
	if (cap == 0 || current >= limit || (lost == 0 && held <= current / 4))
		return current;
	uint64_t need = (uint64_t)current + lost;
	uint32_t next = current ? current * 2 : 1;
	while (next < limit && next < need)
		next *= 2;
	return next;
}

int sample_ring_move(struct sample_ring *r, struct km_sample *storage, uint32_t capacity)
{
	uint32_t n = sample_ring_count(r);
	if (!storage || !valid_capacity(capacity) || n > capacity)
		return -1;
	sample_ring_drain(r, storage, n, 0);   /* oldest first, to the start of the new storage */
	r->slots = storage;
	r->capacity = capacity;
	r->tail = 0;
	r->head = n;
	return 0;
}

/* Per-CPU rings of call chains (common/monitor/chain_ring.h). */
#include "chain_ring.h"

int chain_ring_init(struct chain_ring *r, struct attrib_frame *storage, uint32_t capacity,
	uint32_t width)
{
	if (!storage || !capacity || (capacity & (capacity - 1)) || !width)
		return -1;
	r->capacity = capacity;
	r->width = width;
	r->claimed = 0;
	__atomic_store_n(&r->slots, storage, __ATOMIC_RELEASE);
	return 0;
}

bool chain_ring_read(const struct chain_ring *r, uint32_t seq, uint32_t n,
	struct attrib_frame *out)
{
	if (!r->slots || n > r->width)
		return false;
	uint32_t claimed = __atomic_load_n(&r->claimed, __ATOMIC_ACQUIRE);
	if (claimed - seq - 1 >= r->capacity)   /* not claimed yet, or already reused */
		return false;
	const struct attrib_frame *slot = r->slots + (uint64_t)(seq & (r->capacity - 1)) * r->width;
	for (uint32_t i = 0; i < n; i++)
		out[i] = ((const volatile struct attrib_frame *)slot)[i];
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	claimed = __atomic_load_n(&r->claimed, __ATOMIC_ACQUIRE);
	return claimed - seq <= r->capacity;
}

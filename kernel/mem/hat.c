/* HAT and SegmentHAT: page-table entries for a process's address space. The HAT owns one
 * VSID context; each segment the process touches gets a SegmentHAT that records the entries it
 * inserted (and their slots) so they can be removed when the address space goes away. */
#include "vm.h"
#include "../mm/kmem.h"
#include "../arch/cpu.h"
#include "../arch/percpu.h"
#include "common/lib/string.h"

static uint64_t pte_flags(unsigned prot)
{
	return PTE_M | (prot & PROT_WRITE ? PTE_PP_RW : PTE_PP_RO) | (prot & PROT_EXEC ? 0 : PTE_N);
}

CO_METHOD(bool, seghat_map, struct seghat *s, uint64_t ea, uint64_t pa, unsigned prot)
{
	int64_t slot = hpt->insert(s->vsid, ea & ~(PAGE_SIZE - 1), pa, pte_flags(prot));
	if (slot < 0)
		return false;
	spin_lock(&s->lock);
	if (s->count == s->cap) {
		uint32_t cap = s->cap ? s->cap * 2 : 64;
		struct seg_entry *grown = kmalloc(cap * sizeof *grown);
		if (!grown) {
			spin_unlock(&s->lock);
			hpt->remove(slot, s->vsid, ea);
			return false;
		}
		if (s->entries)
			memcpy(grown, s->entries, s->count * sizeof *grown);
		kfree(s->entries);
		s->entries = grown;
		s->cap = cap;
	}
	s->entries[s->count++] = (struct seg_entry){ ea & ~(PAGE_SIZE - 1), slot };
	spin_unlock(&s->lock);
	return true;
}

CO_METHOD(void, seghat_unmap_all, struct seghat *s)
{
	for (uint32_t i = 0; i < s->count; i++)
		hpt->remove(s->entries[i].slot, s->vsid, s->entries[i].ea);
	kfree(s->entries);
	s->entries = 0;
	s->count = s->cap = 0;
}

static const struct seghat_ops seghat_ops = { seghat_map, seghat_unmap_all };
const struct co_class seghat_class = { "SegmentHAT", &seghat_ops, 2, 0 };

CO_METHOD(bool, hat_map, struct hat *h, uint64_t ea, uint64_t pa, unsigned prot)
{
	uint64_t seg = ea >> SEGMENT_SHIFT, vsid = user_vsid(h->ctx, ea);
	if (seg >= HAT_SEGMENTS)
		return false;
	/* The user LTT segment is a different segment on each CPU. */
	if (ea >= ULTT_BASE && ea < ULTT_BASE + ULTT_BYTES) {
		seg = HAT_SEGMENTS + this_cpu()->index;
		vsid = ultt_vsid(h->ctx, this_cpu()->index);
	}
	spin_lock(&h->lock);
	if (!h->segments[seg]) {
		struct seghat *s = kmalloc(sizeof *s);
		if (s) {
			s->ops = &seghat_ops;
			s->esid = seg;
			s->vsid = vsid;
			h->segments[seg] = co_new_single(&seghat_class, s);
			if (!h->segments[seg])
				kfree(s);
		}
	}
	coid_t segment = h->segments[seg];
	spin_unlock(&h->lock);
	return segment && CO_CALL(struct seghat, segment, map, ea, pa, prot);
}

CO_METHOD(void, hat_unmap_all, struct hat *h)
{
	for (uint64_t i = 0; i < HAT_SLOTS; i++) {
		if (!h->segments[i])
			continue;
		CO_CALL(struct seghat, h->segments[i], unmap_all);
		co_destroy(h->segments[i]);
		h->segments[i] = 0;
	}
}

static int hat_children(void *rep, coid_t *children, int max)
{
	struct hat *h = rep;
	int n = 0;
	for (uint64_t i = 0; i < HAT_SLOTS; i++)
		if (h->segments[i]) {
			if (n < max)
				children[n] = h->segments[i];
			n++;
		}
	return n;
}

static const struct hat_ops hat_ops = { hat_map, hat_unmap_all };
const struct co_class hat_class = { "HAT", &hat_ops, 2, hat_children };

coid_t hat_create(uint64_t ctx)
{
	struct hat *h = kmalloc(sizeof *h);
	if (!h)
		return 0;
	h->ops = &hat_ops;
	h->ctx = ctx;
	coid_t c = co_new_single(&hat_class, h);
	if (!c)
		kfree(h);
	return c;
}

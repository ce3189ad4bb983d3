/* File cache managers: the frames backing a region's pages, filled on first touch from the
 * file (through its FR) or with zeros, frames obtained from the PM. */
#include "vm.h"
#include "../mm/kmem.h"
#include "../arch/cpu.h"
#include "common/lib/string.h"

static struct fcm_page **bucket(struct fcm *f, uint64_t index)
{
	return &f->hash[index % FCM_BUCKETS];
}

CO_METHOD(uint64_t, fcm_get_page, struct fcm *f, uint64_t off)
{
	uint64_t index = off / PAGE_SIZE;
	spin_lock(&f->lock);
	for (struct fcm_page *p = *bucket(f, index); p; p = p->next)
		if (p->index == index) {
			spin_unlock(&f->lock);
			return p->pa;
		}
	spin_unlock(&f->lock);

	struct fcm_page *page = kmalloc(sizeof *page);
	uint64_t pa = page ? CO_CALL(struct pm, the_pm, alloc_frame) : 0;
	if (!pa) {
		kfree(page);
		return 0;
	}
	/* Frames come zeroed; copy the part of the page the file provides. */
	uint64_t start = index * PAGE_SIZE;
	for (uint64_t e = 0; f->ltt_base && e < PAGE_SIZE; e += 16)
		ltt_fill_entry(kernel_ptr(pa), f->ltt_base + start, e, f->ltt_ops);
	if (f->fr && start < f->file_bytes) {
		uint64_t len = f->file_bytes - start < PAGE_SIZE ? f->file_bytes - start : PAGE_SIZE;
		CO_CALL(struct fr, f->fr, read, f->file_off + start, kernel_ptr(pa), len);
	}
	page->index = index;
	page->pa = pa;
	spin_lock(&f->lock);
	/* Another CPU may have filled the same page meanwhile: keep the first. */
	for (struct fcm_page *p = *bucket(f, index); p; p = p->next)
		if (p->index == index) {
			spin_unlock(&f->lock);
			CO_CALL(struct pm, the_pm, free_frame, pa);
			kfree(page);
			return p->pa;
		}
	page->next = *bucket(f, index);
	*bucket(f, index) = page;
	f->pages++;
	spin_unlock(&f->lock);
	return pa;
}

CO_METHOD(void, fcm_release, struct fcm *f)
{
	for (int b = 0; b < FCM_BUCKETS; b++) {
		while (f->hash[b]) {
			struct fcm_page *p = f->hash[b];
			f->hash[b] = p->next;
			CO_CALL(struct pm, the_pm, free_frame, p->pa);
			kfree(p);
		}
	}
	f->pages = 0;
}

CO_METHOD(uint64_t, fcm_resident, struct fcm *f)
{
	return f->pages;
}

CO_METHOD(uint64_t, fcm_peek_page, struct fcm *f, uint64_t off)
{
	uint64_t index = off / PAGE_SIZE, pa = 0;
	spin_lock(&f->lock);
	for (struct fcm_page *p = *bucket(f, index); p && !pa; p = p->next)
		if (p->index == index)
			pa = p->pa;
	spin_unlock(&f->lock);
	return pa;
}

void ltt_fill_entry(void *page, uint64_t page_va, uint64_t off, uint64_t default_ops)
{
	/* An empty entry points into itself, at its second word, which holds the default
	 * method table (kernel/abi/co_abi.h). User addresses, big-endian like the program. */
	uint64_t *e = (uint64_t *)((uint8_t *)page + off);
	e[0] = page_va + off + 8;
	e[1] = default_ops;
}

static int fcm_children(void *rep, coid_t *children, int max)
{
	struct fcm *f = rep;
	if (!f->fr)
		return 0;
	if (max > 0)
		children[0] = f->fr;
	return 1;
}

static const struct fcm_ops fcm_ops = { fcm_get_page, fcm_release, fcm_resident, fcm_peek_page };
const struct co_class fcm_class = { "FCM", &fcm_ops, 4, fcm_children };

coid_t fcm_create_ltt(uint64_t ltt_base, uint64_t default_ops)
{
	coid_t c = fcm_create(0, 0, 0);
	if (c) {
		struct fcm *f = co_rep(c);
		f->ltt_base = ltt_base;
		f->ltt_ops = default_ops;
	}
	return c;
}

coid_t fcm_create(coid_t fr, uint64_t file_off, uint64_t file_bytes)
{
	struct fcm *f = kmalloc(sizeof *f);
	if (!f)
		return 0;
	f->ops = &fcm_ops;
	f->fr = fr;
	f->file_off = file_off;
	f->file_bytes = file_bytes;
	coid_t c = co_new_single(&fcm_class, f);
	if (!c)
		kfree(f);
	return c;
}

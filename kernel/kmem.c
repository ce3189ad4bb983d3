#include "kmem.h"
#include "page_alloc.h"
#include "spinlock.h"
#include "platform.h"
#include "console.h"
#include "mmu.h"
#include "cpu.h"
#include "lib/string.h"

#define HEADER 16                 /* keeps payloads 16-byte aligned */
#define MIN_SHIFT 5               /* 32-byte blocks (16 of header + 16 of payload) */
#define MAX_SHIFT 12              /* up to a page; larger goes straight to the page allocator */
#define CLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define TAG_MAGIC 0x4b4d0000u     /* "KM" */
#define TAG_LARGE 0x8000u

struct header { uint32_t tag; uint32_t pages; uint64_t pad; };
struct free_block { struct free_block *next; };

static struct { struct spinlock lock; struct free_block *free; } classes[CLASSES];
static volatile uint64_t live;

static unsigned class_of(size_t total)
{
	unsigned c = 0;
	while ((1ull << (MIN_SHIFT + c)) < total)
		c++;
	return c;
}

static void refill(unsigned c)
{
	uint64_t size = 1ull << (MIN_SHIFT + c);
	uint8_t *page = page_alloc(1);
	if (!page)
		return;
	for (uint64_t off = 0; off + size <= PAGE_SIZE; off += size) {
		struct free_block *b = (struct free_block *)(page + off);
		b->next = classes[c].free;
		classes[c].free = b;
	}
}

void *kmalloc(size_t size)
{
	size_t total = size + HEADER;
	struct header *h;
	if (total > (1ull << MAX_SHIFT)) {
		uint64_t pages = (total + PAGE_SIZE - 1) / PAGE_SIZE;
		h = page_alloc(pages);
		if (!h)
			return 0;
		h->tag = TAG_MAGIC | TAG_LARGE;
		h->pages = (uint32_t)pages;
	} else {
		unsigned c = class_of(total);
		int irq = irq_save();
		spin_lock(&classes[c].lock);
		if (!classes[c].free)
			refill(c);
		struct free_block *b = classes[c].free;
		if (b)
			classes[c].free = b->next;
		spin_unlock(&classes[c].lock);
		irq_restore(irq);
		if (!b)
			return 0;
		h = (struct header *)b;
		memset(h, 0, 1ull << (MIN_SHIFT + c));
		h->tag = TAG_MAGIC | c;
	}
	__atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
	return (uint8_t *)h + HEADER;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct header *h = (struct header *)((uint8_t *)p - HEADER);
	if ((h->tag & 0xffff0000u) != TAG_MAGIC) {
		kprintf("kov: kfree of a block the heap did not hand out: %p\n", p);
		machine_halt();
	}
	__atomic_fetch_sub(&live, 1, __ATOMIC_RELAXED);
	if (h->tag & TAG_LARGE) {
		uint32_t pages = h->pages;
		h->tag = 0;
		page_free(h, pages);
		return;
	}
	unsigned c = h->tag & 0xff;
	h->tag = 0;
	struct free_block *b = (struct free_block *)h;
	int irq = irq_save();
	spin_lock(&classes[c].lock);
	b->next = classes[c].free;
	classes[c].free = b;
	spin_unlock(&classes[c].lock);
	irq_restore(irq);
}

uint64_t kmem_live_blocks(void)
{
	return live;
}

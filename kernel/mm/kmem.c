/* Size-class slabs: each page of a class carries its own free list (in a descriptor indexed by
 * page frame number), classes keep the pages that have free blocks, and a page whose blocks
 * are all free again goes back to the page allocator (one empty page per class is kept to
 * avoid thrashing). So kernel objects that die give their memory back: the page counts of a
 * system at rest return to what they were. */
#include "kmem.h"
#include "page_alloc.h"
#include "common/lib/spinlock.h"
#include "../arch/platform.h"
#include "kernel/arch/console.h"
#include "mmu.h"
#include "../arch/cpu.h"
#include "common/lib/string.h"
#include "kernel/arch/symbols.h"
#include "kernel/arch/percpu.h"

#define HEADER 16                 /* keeps payloads 16-byte aligned; holds the block's tag */
#define MIN_SHIFT 5               /* 32-byte blocks (16 of header + 16 of payload) */
#define MAX_SHIFT 11              /* up to 2 KiB; larger goes straight to the page allocator */
#define CLASSES (MAX_SHIFT - MIN_SHIFT + 1)
#define TAG_MAGIC 0x4b4d0000u     /* "KM" */
#define TAG_LARGE 0x8000u

/* site: kmalloc's caller's slot in sites[]; account: whom the block is charged to, so that
 * kfree uncharges the allocator's account whoever frees it. */
struct header { uint32_t tag; uint32_t pages; uint16_t site, account; uint32_t unused; };
_Static_assert(sizeof(struct header) == HEADER, "the header keeps payloads 16-byte aligned");
struct free_block { struct free_block *next; };

struct slab {
	struct slab *next, *prev;    /* in the class's list of pages with free blocks */
	struct free_block *free;
	uint16_t inuse;
	uint8_t cls;
	uint8_t partial;             /* on the class's list */
	uint8_t counted_empty;       /* counted in empty_slabs */
};

static struct { struct spinlock lock; struct slab *partial; } classes[CLASSES];
static struct slab *slabs;       /* one per physical page */
static struct spinlock setup_lock;
static volatile uint64_t live;
static volatile uint64_t empty_slabs;   /* pages kept with every block free */
static volatile uint64_t heap_pages;    /* pages held from the page allocator */

/* Live blocks per allocation site (kmalloc's caller), for finding leaks: a table open-addressed
 * by the caller's address, whose slots are claimed once and never given back. Sites past the
 * table's size share the last slot's count under address 0. */
#define SITES 256
static struct { volatile uint64_t pc; volatile int64_t live, mark; } sites[SITES];

/* Accounts (kmem.h). A slot is free, open (its process lives) or orphaned (its process is gone
 * but blocks charged to it are not): an orphaned slot is not reused before its count is 0, so
 * a count never mixes two processes. The state's low bits say which, the rest count the times
 * the slot was freed: a kfree that read an orphaned slot's count as 0 and was held up cannot
 * free the slot again once a later process has it. */
enum { ACCOUNT_FREE, ACCOUNT_OPEN, ACCOUNT_ORPHANED, ACCOUNT_KIND = 3, ACCOUNT_FREED = 4 };
static struct { volatile int64_t live; volatile uint32_t state; } accounts[KMEM_ACCOUNTS] = {
	[KMEM_KERNEL] = { 0, ACCOUNT_OPEN },
};
static volatile uint32_t account_hint = 1;

static uint32_t kind(uint32_t state)
{
	return state & ACCOUNT_KIND;
}

unsigned kmem_account_open(void)
{
	uint32_t start = __atomic_load_n(&account_hint, __ATOMIC_RELAXED);
	for (uint32_t n = 0; n < KMEM_ACCOUNTS - 1; n++) {
		uint32_t a = 1 + (start - 1 + n) % (KMEM_ACCOUNTS - 1);
		uint32_t s = __atomic_load_n(&accounts[a].state, __ATOMIC_SEQ_CST);
		if (kind(s) == ACCOUNT_FREE &&
		    __atomic_compare_exchange_n(&accounts[a].state, &s, s | ACCOUNT_OPEN, false,
						__ATOMIC_SEQ_CST, __ATOMIC_RELAXED)) {
			__atomic_store_n(&account_hint, a % (KMEM_ACCOUNTS - 1) + 1, __ATOMIC_RELAXED);
			return a;
		}
	}
	return KMEM_KERNEL;
}

/* An orphaned account whose count reached 0 is free again; close and the last kfree may both
 * find it so, and only one of them frees it. */
static void release_if_empty(unsigned a)
{
	uint32_t s = __atomic_load_n(&accounts[a].state, __ATOMIC_SEQ_CST);
	if (kind(s) == ACCOUNT_ORPHANED && __atomic_load_n(&accounts[a].live, __ATOMIC_SEQ_CST) == 0)
		__atomic_compare_exchange_n(&accounts[a].state, &s,
					    (s & ~(uint32_t)ACCOUNT_KIND) + ACCOUNT_FREED, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

void kmem_account_close(unsigned a)
{
	if (a == KMEM_KERNEL || a >= KMEM_ACCOUNTS)
		return;
	uint32_t s = __atomic_load_n(&accounts[a].state, __ATOMIC_SEQ_CST);
	__atomic_store_n(&accounts[a].state, (s & ~(uint32_t)ACCOUNT_KIND) | ACCOUNT_ORPHANED,
			 __ATOMIC_SEQ_CST);
	release_if_empty(a);
}

unsigned kmem_account_swap(unsigned a)
{
	struct percpu *cpu = this_cpu();
	unsigned was = cpu->heap_account;
	cpu->heap_account = a;
	return was;
}

uint64_t kmem_account_blocks(unsigned a)
{
	return a < KMEM_ACCOUNTS ? (uint64_t)__atomic_load_n(&accounts[a].live, __ATOMIC_RELAXED) : 0;
}

uint64_t kmem_unowned_blocks(void)
{
	int64_t n = __atomic_load_n(&accounts[KMEM_KERNEL].live, __ATOMIC_RELAXED);
	for (unsigned a = 1; a < KMEM_ACCOUNTS; a++)
		if (kind(__atomic_load_n(&accounts[a].state, __ATOMIC_RELAXED)) == ACCOUNT_ORPHANED)
			n += __atomic_load_n(&accounts[a].live, __ATOMIC_RELAXED);
	return n > 0 ? (uint64_t)n : 0;
}

static void charge(struct header *h)
{
	unsigned a = this_cpu()->heap_account;
	h->account = (uint16_t)(a < KMEM_ACCOUNTS ? a : KMEM_KERNEL);
	__atomic_fetch_add(&accounts[h->account].live, 1, __ATOMIC_SEQ_CST);
}

static void uncharge(const struct header *h)
{
	unsigned a = h->account % KMEM_ACCOUNTS;
	if (__atomic_sub_fetch(&accounts[a].live, 1, __ATOMIC_SEQ_CST) == 0 && a != KMEM_KERNEL)
		release_if_empty(a);
}

static unsigned site_slot(uint64_t pc)
{
	unsigned h = (unsigned)((pc >> 2) * 2654435761u) % (SITES - 1);
	for (unsigned i = 0; i < SITES - 1; i++, h = (h + 1) % (SITES - 1)) {
		uint64_t was = __atomic_load_n(&sites[h].pc, __ATOMIC_ACQUIRE);
		if (was == pc)
			return h;
		uint64_t none = 0;
		if (!was && __atomic_compare_exchange_n(&sites[h].pc, &none, pc, false,
							__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			return h;
		if (none == pc)
			return h;
	}
	return SITES - 1;
}

void kmem_sites_mark(void)
{
	for (unsigned i = 0; i < SITES; i++)
		sites[i].mark = __atomic_load_n(&sites[i].live, __ATOMIC_RELAXED);
}

unsigned kmem_sites_report(void)
{
	unsigned n = 0;
	for (unsigned i = 0; i < SITES; i++) {
		int64_t now = __atomic_load_n(&sites[i].live, __ATOMIC_RELAXED);
		if (now == sites[i].mark)
			continue;
		char name[64];
		kprintf("kmem: %ld live blocks from %s (0x%lx), %ld at the mark\n", (long)now,
			sites[i].pc ? symbolize(sites[i].pc, name, sizeof name) : "other sites",
			(unsigned long)sites[i].pc, (long)sites[i].mark);
		n++;
	}
	return n;
}

static unsigned class_of(size_t total)
{
	unsigned c = 0;
	while ((1ull << (MIN_SHIFT + c)) < total)
		c++;
	return c;
}

static struct slab *slab_of(const void *p)
{
	return &slabs[phys_of(p) >> PAGE_SHIFT];
}

static void *page_of(const struct slab *s)
{
	return kernel_ptr((uint64_t)(s - slabs) << PAGE_SHIFT);
}

static bool ensure_descriptors(void)
{
	if (__atomic_load_n(&slabs, __ATOMIC_ACQUIRE))
		return true;
	int irq = irq_save();
	spin_lock(&setup_lock);
	if (!slabs) {
		uint64_t bytes = pages_total() * sizeof(struct slab);
		struct slab *s = page_alloc((bytes + PAGE_SIZE - 1) / PAGE_SIZE);
		__atomic_store_n(&slabs, s, __ATOMIC_RELEASE);
	}
	spin_unlock(&setup_lock);
	irq_restore(irq);
	return slabs != 0;
}

static void link_partial(unsigned c, struct slab *s)
{
	s->prev = 0;
	s->next = classes[c].partial;
	if (s->next)
		s->next->prev = s;
	classes[c].partial = s;
	s->partial = 1;
}

static void unlink_partial(unsigned c, struct slab *s)
{
	if (s->prev)
		s->prev->next = s->next;
	else
		classes[c].partial = s->next;
	if (s->next)
		s->next->prev = s->prev;
	s->next = s->prev = 0;
	s->partial = 0;
}

/* Pages from and back to the allocator, counted as the heap's in the same move (page_alloc.h:
 * meminfo's sums never see them in neither count). */
static void *heap_pages_take(uint64_t count)
{
	page_move_begin();
	void *first = page_alloc(count);
	if (first)
		__atomic_fetch_add(&heap_pages, count, __ATOMIC_RELAXED);
	page_move_end();
	return first;
}

static void heap_pages_give(void *first, uint64_t count)
{
	page_move_begin();
	page_free(first, count);
	__atomic_fetch_sub(&heap_pages, count, __ATOMIC_RELAXED);
	page_move_end();
}

static struct slab *new_slab(unsigned c)
{
	uint8_t *page = heap_pages_take(1);
	if (!page)
		return 0;
	struct slab *s = slab_of(page);
	uint64_t size = 1ull << (MIN_SHIFT + c);
	s->free = 0;
	for (uint64_t off = PAGE_SIZE; off >= size; off -= size) {
		struct free_block *b = (struct free_block *)(page + off - size);
		b->next = s->free;
		s->free = b;
	}
	s->inuse = 0;
	s->cls = (uint8_t)c;
	s->counted_empty = 0;
	return s;
}

void *kmalloc(size_t size)
{
	size_t total = size + HEADER;
	struct header *h;
	if (!ensure_descriptors())
		return 0;
	if (total > (1ull << MAX_SHIFT)) {
		uint64_t pages = (total + PAGE_SIZE - 1) / PAGE_SIZE;
		h = heap_pages_take(pages);
		if (!h)
			return 0;
		h->tag = TAG_MAGIC | TAG_LARGE;
		h->pages = (uint32_t)pages;
	} else {
		unsigned c = class_of(total);
		int irq = irq_save();
		spin_lock(&classes[c].lock);
		struct slab *s = classes[c].partial;
		if (!s && (s = new_slab(c)))
			link_partial(c, s);
		struct free_block *b = 0;
		if (s) {
			if (s->counted_empty) {
				s->counted_empty = 0;
				__atomic_fetch_sub(&empty_slabs, 1, __ATOMIC_RELAXED);
			}
			b = s->free;
			s->free = b->next;
			s->inuse++;
			if (!s->free)
				unlink_partial(c, s);
		}
		spin_unlock(&classes[c].lock);
		irq_restore(irq);
		if (!b)
			return 0;
		h = (struct header *)b;
		memset(h, 0, 1ull << (MIN_SHIFT + c));
		h->tag = TAG_MAGIC | c;
	}
	__atomic_fetch_add(&live, 1, __ATOMIC_RELAXED);
	uint64_t pc = (uint64_t)__builtin_return_address(0);
	h->site = (uint16_t)site_slot(pc);
	__atomic_fetch_add(&sites[h->site].live, 1, __ATOMIC_RELAXED);
	charge(h);
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
	__atomic_fetch_sub(&sites[h->site % SITES].live, 1, __ATOMIC_RELAXED);
	uncharge(h);
	if (h->tag & TAG_LARGE) {
		uint32_t pages = h->pages;
		h->tag = 0;
		heap_pages_give(h, pages);
		return;
	}
	unsigned c = h->tag & 0xff;
	h->tag = 0;
	struct slab *s = slab_of(h);
	void *empty = 0;
	int irq = irq_save();
	spin_lock(&classes[c].lock);
	struct free_block *b = (struct free_block *)h;
	b->next = s->free;
	s->free = b;
	s->inuse--;
	if (!s->partial)
		link_partial(c, s);
	/* Give an empty page back unless it is the class's only page with room. */
	if (s->inuse == 0 && (s->prev || s->next)) {
		unlink_partial(c, s);
		empty = page_of(s);
	} else if (s->inuse == 0) {
		s->counted_empty = 1;
		__atomic_fetch_add(&empty_slabs, 1, __ATOMIC_RELAXED);
	}
	spin_unlock(&classes[c].lock);
	irq_restore(irq);
	if (empty)
		heap_pages_give(empty, 1);
}

uint64_t kmem_live_blocks(void)
{
	return live;
}

uint64_t kmem_empty_pages(void)
{
	return empty_slabs;
}

uint64_t kmem_pages(void)
{
	return heap_pages;
}

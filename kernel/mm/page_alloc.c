#include "page_alloc.h"
#include "early_alloc.h"
#include "../arch/platform.h"
#include "common/lib/spinlock.h"
#include "kernel/arch/console.h"
#include "mmu.h"
#include "../arch/cpu.h"
#include "common/lib/string.h"

static uint64_t *bitmap;       /* bit set = page in use */
static uint64_t npages, nfree, hint;
static struct spinlock lock;
static uint64_t moves_in_flight, moves_done;   /* page_move_begin/end (page_alloc.h) */

static bool used(uint64_t pfn) { return bitmap[pfn / 64] >> (pfn % 64) & 1; }
static void set_used(uint64_t pfn) { bitmap[pfn / 64] |= 1ull << (pfn % 64); }
static void set_free(uint64_t pfn) { bitmap[pfn / 64] &= ~(1ull << (pfn % 64)); }

static void reserve(uint64_t start, uint64_t end)
{
	for (uint64_t pfn = start >> PAGE_SHIFT; pfn < (end + PAGE_SIZE - 1) >> PAGE_SHIFT && pfn < npages; pfn++)
		if (!used(pfn)) {
			set_used(pfn);
			nfree--;
		}
}

void page_alloc_init(const void *fdt_blob, uint64_t fdt_size)
{
	uint64_t top = 0;
	for (unsigned i = 0; i < machine.mem_count; i++)
		if (machine.mem[i].base + machine.mem[i].size > top)
			top = machine.mem[i].base + machine.mem[i].size;
	npages = top >> PAGE_SHIFT;
	bitmap = early_alloc((npages + 63) / 64 * 8, 8);
	/* Everything is in use until a memory region says otherwise. */
	memset(bitmap, 0xff, (npages + 63) / 64 * 8);
	for (unsigned i = 0; i < machine.mem_count; i++) {
		uint64_t first = (machine.mem[i].base + PAGE_SIZE - 1) >> PAGE_SHIFT;
		uint64_t last = (machine.mem[i].base + machine.mem[i].size) >> PAGE_SHIFT;
		for (uint64_t pfn = first; pfn < last; pfn++) {
			set_free(pfn);
			nfree++;
		}
	}
	reserve(0, early_alloc_end());
	reserve(phys_of(fdt_blob), phys_of(fdt_blob) + fdt_size);
	hint = early_alloc_end() >> PAGE_SHIFT;
}

void *page_alloc(uint64_t count)
{
	if (count == 0)
		return 0;
	int irq = irq_save();
	spin_lock(&lock);
	uint64_t found = npages;
	/* First fit from the hint, wrapping once. */
	for (uint64_t pass = 0; pass < 2 && found == npages; pass++) {
		uint64_t pfn = pass ? 0 : hint, run = 0;
		for (; pfn < npages; pfn++) {
			if (used(pfn)) {
				run = 0;
				continue;
			}
			if (++run == count) {
				found = pfn + 1 - count;
				break;
			}
		}
	}
	if (found < npages) {
		for (uint64_t i = 0; i < count; i++)
			set_used(found + i);
		nfree -= count;
		hint = found + count;
	}
	spin_unlock(&lock);
	irq_restore(irq);
	if (found == npages)
		return 0;
	void *p = kernel_ptr(found << PAGE_SHIFT);
	memset(p, 0, count * PAGE_SIZE);
	return p;
}

void page_free(void *first, uint64_t count)
{
	uint64_t pfn = phys_of(first) >> PAGE_SHIFT;
	int irq = irq_save();
	spin_lock(&lock);
	for (uint64_t i = 0; i < count; i++) {
		if (pfn + i >= npages || !used(pfn + i)) {
			spin_unlock(&lock);
			kprintf("kov: page_free of a free or unknown page 0x%lx\n",
				(unsigned long)((pfn + i) << PAGE_SHIFT));
			machine_halt();
		}
		set_free(pfn + i);
	}
	nfree += count;
	if (pfn < hint)
		hint = pfn;
	spin_unlock(&lock);
	irq_restore(irq);
}

uint64_t pages_free(void)
{
	return nfree;
}

uint64_t pages_total(void)
{
	return npages;
}

/* Sequentially consistent throughout: a reader that saw no move in flight and the same count of
 * moves done before and after its reading cannot have overlapped a move, since a move that began
 * after the first look counts itself done before it leaves the in-flight count. */
void page_move_begin(void)
{
	__atomic_fetch_add(&moves_in_flight, 1, __ATOMIC_SEQ_CST);
}

void page_move_end(void)
{
	__atomic_fetch_add(&moves_done, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_sub(&moves_in_flight, 1, __ATOMIC_SEQ_CST);
}

bool page_moves_quiet(uint64_t *stamp)
{
	*stamp = __atomic_load_n(&moves_done, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&moves_in_flight, __ATOMIC_SEQ_CST) == 0;
}

bool page_moves_since(uint64_t stamp)
{
	return __atomic_load_n(&moves_in_flight, __ATOMIC_SEQ_CST) != 0 ||
	       __atomic_load_n(&moves_done, __ATOMIC_SEQ_CST) != stamp;
}

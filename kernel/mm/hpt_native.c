/* The hashed page table on bare metal (Power Mac G5, QEMU mac99): the kernel allocates it,
 * points SDR1 at it and writes entries itself with the ordering the architecture requires. */
#include "mmu.h"
#include "../arch/platform.h"
#include "early_alloc.h"
#include "../arch/cpu.h"

#define SPRN_SDR1 25
#define HPT_LOG2 20            /* 1 MiB: 8192 groups, enough for the kernel's linear map */
#define TLB_SETS 256           /* the 970's TLB congruence classes */

struct hpte { volatile uint64_t v, r; };

static struct hpte *table;
static uint32_t evict_next;

static void native_setup(void)
{
	table = early_alloc(1ull << HPT_LOG2, 1ull << HPT_LOG2);
	hpt_native.groups = (1ull << HPT_LOG2) / 128;
}

/* Flushes this CPU's TLB: one tlbiel per congruence class. */
static void tlb_flush_local(void)
{
	__asm__ volatile("ptesync" : : : "memory");
	for (uint64_t set = 0; set < TLB_SETS; set++)
		__asm__ volatile("tlbiel %0" : : "r"(set << PAGE_SHIFT) : "memory");
	__asm__ volatile("ptesync" : : : "memory");
}

static void native_init_cpu(void)
{
	/* SDR1: table origin, and log2(size) - 18 in the low bits. */
	mtspr(SPRN_SDR1, phys_of(table) | (HPT_LOG2 - 18));
	isync();
	tlb_flush_local();
}

static struct hpte *free_slot(uint64_t group)
{
	struct hpte *g = &table[group * 8];
	for (int i = 0; i < 8; i++)
		if (!(g[i].v & PTE_V_VALID))
			return &g[i];
	return 0;
}

static int64_t native_insert(uint64_t vsid, uint64_t ea, uint64_t pa, uint64_t flags)
{
	uint64_t hash = hpt_hash(vsid, ea), mask = hpt_native.groups - 1;
	uint64_t v = hpte_v(vsid, ea) | PTE_V_VALID, r = pa | flags | PTE_R | PTE_C;
	struct hpte *e = free_slot(hash & mask);
	if (!e) {
		e = free_slot(~hash & mask);
		if (e)
			v |= PTE_V_SECONDARY;
	}
	if (!e) {
		/* Both groups full: evict one primary entry. One CPU on the machines this runs on,
		 * so a local flush suffices (a dual G5 would need tlbie and tlbsync). */
		e = &table[(hash & mask) * 8 + (evict_next++ & 7)];
		e->v = 0;
		tlb_flush_local();
	}
	e->r = r;
	__asm__ volatile("eieio" : : : "memory");
	e->v = v;
	__asm__ volatile("ptesync" : : : "memory");
	return e - table;
}

static void native_remove(int64_t slot, uint64_t vsid, uint64_t ea)
{
	struct hpte *e = &table[slot];
	if ((e->v & PTE_V_AVPN_MASK) != (hpte_v(vsid, ea) & PTE_V_AVPN_MASK) || !(e->v & PTE_V_VALID))
		return;   /* evicted and reused meanwhile */
	e->v = 0;
	tlb_flush_local();
}

struct hpt_ops hpt_native = {
	.name = "owned by the kernel (SDR1)",
	.setup = native_setup,
	.init_cpu = native_init_cpu,
	.insert = native_insert,
	.remove = native_remove,
};

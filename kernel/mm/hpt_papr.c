/* The hashed page table of a PAPR guest (pseries): the hypervisor owns it; entries go in and
 * out through H_ENTER and H_REMOVE, which also do the TLB invalidation. */
#include "mmu.h"
#include "../arch/platform.h"
#include "../arch/hcall.h"
#include "kernel/arch/console.h"

static uint32_t evict_next;

static void papr_setup(void)
{
	/* "ibm,pft-size" = <0 log2(table bytes)> on every CPU node. */
	int cpu = fdt_find_by_type(&boot_fdt, -1, "cpu");
	int len;
	const void *p = cpu >= 0 ? fdt_prop(&boot_fdt, cpu, "ibm,pft-size", &len) : 0;
	if (!p || len != 8) {
		kprintf("mmu: no ibm,pft-size in the device tree\n");
		machine_halt();
	}
	hpt_papr.groups = (1ull << fdt_cells(p, 1, 1)) / 128;
}

static void papr_init_cpu(void)
{
}

static int64_t papr_insert(uint64_t vsid, uint64_t ea, uint64_t pa, uint64_t flags)
{
	uint64_t hash = hpt_hash(vsid, ea), mask = hpt_papr.groups - 1;
	uint64_t v = hpte_v(vsid, ea) | PTE_V_VALID, r = pa | flags | PTE_R | PTE_C;
	uint64_t out[3];
	/* Other CPUs may take the slot an eviction frees before this one does: try again. */
	for (int tries = 0; tries < 16; tries++) {
		if (hcall_out(out, H_ENTER, 0, (hash & mask) * 8, v, r) == H_SUCCESS)
			return (int64_t)out[0];
		if (hcall_out(out, H_ENTER, 0, (~hash & mask) * 8, v | PTE_V_SECONDARY, r) == H_SUCCESS)
			return (int64_t)out[0];
		/* Both groups full: evict one entry of the primary group, round robin. */
		hcall_out(out, H_REMOVE, 0, (hash & mask) * 8 + (__atomic_fetch_add(&evict_next, 1,
			  __ATOMIC_RELAXED) & 7), 0, 0);
	}
	return -1;
}

#define H_AVPN 0x0100000000000000ull   /* H_REMOVE flag: only if the AVPN still matches */

static void papr_remove(int64_t slot, uint64_t vsid, uint64_t ea)
{
	uint64_t out[3];
	hcall_out(out, H_REMOVE, H_AVPN, (uint64_t)slot, hpte_v(vsid, ea) & PTE_V_AVPN_MASK, 0);
}

struct hpt_ops hpt_papr = {
	.name = "via PAPR hypercalls",
	.setup = papr_setup,
	.init_cpu = papr_init_cpu,
	.insert = papr_insert,
	.remove = papr_remove,
};

#include "mmu.h"
#include "../arch/platform.h"
#include "../arch/percpu.h"
#include "kernel/arch/console.h"
#include "../arch/cpu.h"
#include "early_alloc.h"

#define SLB_ENTRIES 64         /* the 970's SLB */
#define SLB_BOLTED 2           /* entries 0 and 1 are set up at boot; the rest round robin */
#define SLB_ESID_V (1ull << 27)
#define SLB_VSID_SHIFT 12
#define SLB_VSID_KP 0x400ull   /* problem-state key 1: user mode gets no access to PP=00 */
/* VSIDs are proto-VSIDs scrambled by a multiplier modulo 2^36 - 1, as Linux does, so that the
 * high bits (a process's context) reach the low bits the page-table hash uses. With a modulus
 * of 2^36 the low 24 bits did not depend on the context: the same page of every process hashed
 * to the same group, which overflowed under pagestorm on 4 CPUs (children killed with "bad
 * address"). The multiplier is prime and does not divide the modulus: a bijection. */
#define VSID_MODULUS ((1ull << 36) - 1)
#define VSID_MULTIPLIER 200730139ull

static uint64_t vsid_scramble(uint64_t proto)
{
	return proto * VSID_MULTIPLIER % VSID_MODULUS;   /* proto < 2^36: no overflow */
}

#define DSISR_NOHPTE 0x40000000ull
#define SRR1_ISI_NOHPTE 0x40000000ull

const struct hpt_ops *hpt;
static uint64_t linear_end;    /* first kernel address past the linear mapping */
static uint64_t ltt_memory[MAX_CPUS];   /* physical base of each CPU's local translation table */
#define SLB_LTT 1              /* entry 1: this CPU's local translation table */

uint64_t kernel_vsid(uint64_t ea)
{
	return vsid_scramble((ea >> SEGMENT_SHIFT) & VSID_MODULUS);
}

uint64_t hpt_hash(uint64_t vsid, uint64_t ea)
{
	return (vsid & 0x7fffffffffull) ^ ((ea & ((1ull << SEGMENT_SHIFT) - 1)) >> PAGE_SHIFT);
}

uint64_t hpte_v(uint64_t vsid, uint64_t ea)
{
	/* Abbreviated virtual page number: VSID and the top five bits of the segment offset. */
	return (vsid << 12) | (((ea & ((1ull << SEGMENT_SHIFT) - 1)) >> 23) << 7);
}

uint64_t ltt_phys(unsigned int cpu)
{
	return ltt_memory[cpu];
}

static bool is_kernel_linear(uint64_t ea)
{
	return ea >= KERNEL_BASE && ea < linear_end;
}

static bool is_io(uint64_t ea)
{
	return ea >= IO_BASE && ea < IO_BASE + IO_BYTES;
}

static bool is_ltt(uint64_t ea)
{
	return ea >= LTT_BASE && ea < LTT_BASE + LTT_BYTES;
}

/* Each CPU's table gets the VSID of a segment nothing else uses (LTT_BASE + cpu + 1). */
static uint64_t ltt_vsid(unsigned int cpu)
{
	return kernel_vsid(LTT_BASE + ((uint64_t)(cpu + 1) << SEGMENT_SHIFT));
}

static void slb_insert(uint64_t ea, uint64_t vsid, unsigned int slot);

uint64_t user_vsid(uint64_t ctx, uint64_t ea)
{
	/* Proto-VSIDs below 0xC00000000: kernel segments all start there, so none collide. */
	uint64_t proto = (ctx << 24) | ((ea >> SEGMENT_SHIFT) & 0xffffff);
	return vsid_scramble(proto);
}

uint64_t ultt_vsid(uint64_t ctx, unsigned int cpu)
{
	return user_vsid(ctx, (0x100ull + cpu) << SEGMENT_SHIFT);
}

/* The VSID that translates ea on this CPU, or 0 if ea is in no segment it may use. */
static uint64_t segment_vsid(uint64_t ea)
{
	if (is_kernel_linear(ea) || is_io(ea))
		return kernel_vsid(ea);
	if (is_ltt(ea))
		return ltt_vsid(this_cpu()->index);
	if (ea >> SEGMENT_SHIFT == ULTT_BASE >> SEGMENT_SHIFT && this_cpu()->user_context)
		return ultt_vsid(this_cpu()->user_context, this_cpu()->index);
	if (ea >= USER_BASE && ea < USER_END && this_cpu()->user_context)
		return user_vsid(this_cpu()->user_context, ea);
	return 0;
}

void mmu_switch_user(uint64_t ctx)
{
	struct percpu *cpu = this_cpu();
	if (cpu->user_context == ctx)
		return;
	cpu->user_context = ctx;
	/* slbia keeps entry 0 (the kernel); the LTT entry is rewritten, the rest refault. */
	__asm__ volatile("slbia\n isync" : : : "memory");
	slb_insert(LTT_BASE, ltt_vsid(cpu->index), SLB_LTT);
	cpu->slb_next = SLB_BOLTED;
}

#define SLB_VSID_KS 0x800ull   /* supervisor key 1: kernel access to user pages follows PP */

static void slb_insert(uint64_t ea, uint64_t vsid, unsigned int slot)
{
	uint64_t esid = (ea >> SEGMENT_SHIFT) << SEGMENT_SHIFT;
	uint64_t rb = esid | SLB_ESID_V | slot;
	uint64_t keys = ea < USER_END ? SLB_VSID_KS | SLB_VSID_KP : SLB_VSID_KP;
	uint64_t rs = (vsid << SLB_VSID_SHIFT) | keys;
	__asm__ volatile("slbmte %0, %1\n isync" : : "r"(rs), "r"(rb) : "memory");
}

static void enable_translation(void)
{
	/* slbia leaves entry 0 alone, so it is rewritten first. */
	slb_insert(KERNEL_BASE, kernel_vsid(KERNEL_BASE), 0);
	__asm__ volatile("slbia\n isync" : : : "memory");
	slb_insert(LTT_BASE, ltt_vsid(this_cpu()->index), SLB_LTT);
	this_cpu()->slb_next = SLB_BOLTED;
	hpt->init_cpu();
	mtmsrd(mfmsr() | MSR_IR | MSR_DR);
	isync();
}

void mmu_init(void)
{
	hpt = platform->hpt == HPT_HYPERVISOR ? &hpt_papr : &hpt_native;
	uint64_t top = 0;
	for (unsigned i = 0; i < machine.mem_count; i++)
		if (machine.mem[i].base + machine.mem[i].size > top)
			top = machine.mem[i].base + machine.mem[i].size;
	linear_end = KERNEL_BASE + top;
	hpt->setup();
	for (unsigned i = 0; i < machine.cpu_count && i < MAX_CPUS; i++)
		ltt_memory[i] = phys_of(early_alloc(LTT_BYTES, PAGE_SIZE));
	enable_translation();
	kprintf("mmu: translation on; hashed page table %lu KiB (%lu groups) %s; "
		"kernel linear map of %lu MiB in 4 KiB pages\n",
		(unsigned long)(hpt->groups * 128 / 1024), (unsigned long)hpt->groups, hpt->name,
		(unsigned long)(top >> 20));
}

void mmu_init_secondary(void)
{
	enable_translation();
}

static bool slb_fault(uint64_t ea)
{
	uint64_t vsid = segment_vsid(ea);
	if (!vsid)
		return false;
	struct percpu *cpu = this_cpu();
	slb_insert(ea, vsid, cpu->slb_next);
	cpu->slb_next = cpu->slb_next + 1 < SLB_ENTRIES ? cpu->slb_next + 1 : SLB_BOLTED;
	cpu->slb_misses++;
	return true;
}

static bool hpt_fault(uint64_t ea)
{
	uint64_t page = ea & ~(PAGE_SIZE - 1), vsid = segment_vsid(ea), pa;
	uint64_t flags = PTE_M | PTE_PP_RW_KERNEL;
	if (is_kernel_linear(ea))
		pa = page - KERNEL_BASE;
	else if (is_io(ea)) {
		pa = page - IO_BASE;
		flags = PTE_I | PTE_G | PTE_PP_RW_KERNEL;
	}
	else if (is_ltt(ea) && ltt_memory[this_cpu()->index])
		pa = ltt_memory[this_cpu()->index] + (page - LTT_BASE);
	else
		return false;
	if (hpt->insert(vsid, page, pa, flags) < 0)
		return false;
	this_cpu()->hpt_misses++;
	return true;
}

bool mmu_fault(struct trap_frame *tf)
{
	switch (tf->vector) {
	case 0x380:
		return slb_fault(tf->dar);
	case 0x480:
		return slb_fault(tf->nip);
	case 0x300:
		return (tf->dsisr & DSISR_NOHPTE) && hpt_fault(tf->dar);
	case 0x400:
		return (tf->msr & SRR1_ISI_NOHPTE) && hpt_fault(tf->nip);
	default:
		return false;
	}
}

/* The 970's MMU: segment lookaside buffer (256 MiB segments, software-reloaded) and the hashed
 * page table (4 KiB pages). The kernel maps all memory linearly at KERNEL_BASE; the platform
 * decides how page-table entries are written (PAPR hypercalls or directly on bare metal).
 *
 * Exceptions are taken with translation off; the SLB and page-table miss handlers run in real
 * mode, where kernel linear addresses still work (the top four bits are ignored), so they never
 * fault themselves. */
#ifndef KOV_MMU_H
#define KOV_MMU_H

#include <stdint.h>
#include <stdbool.h>
#include "../arch/trap.h"
#include "../abi/syscall_nr.h"
#include "uaccess.h"

#define SEGMENT_SHIFT 28
#define PAGE_SHIFT 12
#define PAGE_SIZE (1ull << PAGE_SHIFT)

/* Page-table entry, second doubleword: storage attributes and protection. */
#define PTE_R   0x100ull  /* referenced */
#define PTE_C   0x080ull  /* changed */
#define PTE_I   0x020ull  /* cache inhibited */
#define PTE_M   0x010ull  /* memory coherence */
#define PTE_G   0x008ull  /* guarded */
#define PTE_N   0x004ull  /* no execute */
#define PTE_PP_RW_KERNEL 0x0ull   /* with the kernel's SLB keys: kernel read/write, user none */
#define PTE_PP_RW 0x2ull          /* user segments (both keys 1): read/write */
#define PTE_PP_RO 0x3ull          /* user segments: read only */

/* User address space: USER_BASE .. USER_END (mm/uaccess.h). */

/* Each process's own local translation table (user-level clustered objects): one user segment,
 * the same address on every CPU, backed per CPU through a per-CPU VSID. */
#define ULTT_BASE USER_LTT_BASE      /* kernel/abi/syscall_nr.h, shared with the C library */
#define ULTT_BYTES USER_LTT_BYTES
/* The VSID of CPU cpu's user LTT segment in context ctx (proto-ESID 0x100 + cpu: never a real
 * user segment, which are 0-15). */
uint64_t ultt_vsid(uint64_t ctx, unsigned int cpu);

/* VSID of user segment `ea` for VSID context `ctx` (1-0xBFF: never a kernel VSID). */
uint64_t user_vsid(uint64_t ctx, uint64_t ea);
/* Drops this CPU's user segment translations (a different process runs next). */
void mmu_switch_user(uint64_t ctx);

/* First doubleword flags. */
#define PTE_V_VALID     0x1ull
#define PTE_V_SECONDARY 0x2ull
#define PTE_V_AVPN_MASK (~0x7full)   /* the part of the first doubleword naming the page */

/* The local translation table (clustered objects): one segment at the same address on every
 * CPU, mapped through a per-CPU VSID onto that CPU's own memory. */
#define LTT_BASE 0xD000000000000000ull
#define LTT_BYTES (256ull * 1024)   /* the clustered-object ABI's CO_LTT_BYTES too */

/* Physical address of CPU `cpu`'s local translation table (reachable through the linear map,
 * which is how one CPU edits another's table). */
uint64_t ltt_phys(unsigned int cpu);

#include "kernel/arch/io.h"   /* the device-register window, which the MMU maps */

/* Hashed page table operations, one implementation per platform. */
struct hpt_ops {
	const char *name;
	/* Finds or allocates the table (boot CPU, once). */
	void (*setup)(void);
	/* Prepares the table on this CPU (called on every CPU before translation is on). */
	void (*init_cpu)(void);
	/* Inserts a translation, evicting another from a full group if need be; returns the slot
	 * (index of the entry in the table) or -1. */
	int64_t (*insert)(uint64_t vsid, uint64_t ea, uint64_t pa, uint64_t flags);
	/* Removes the translation in `slot` if it still is the one for (vsid, ea). */
	void (*remove)(int64_t slot, uint64_t vsid, uint64_t ea);
	uint64_t groups;  /* number of 128-byte page-table entry groups */
};

extern const struct hpt_ops *hpt;
extern struct hpt_ops hpt_papr, hpt_native;   /* kernel/mm/hpt_papr.c, kernel/mm/hpt_native.c */

/* Sets up the page table (boot CPU) and turns translation on for the calling CPU. */
void mmu_init(void);
/* Turns translation on for a secondary CPU. */
void mmu_init_secondary(void);

/* Handles SLB and page-table misses (0x300, 0x380, 0x400, 0x480). Returns false if the fault is
 * not a miss the MMU can resolve (the caller then panics). */
bool mmu_fault(struct trap_frame *tf);

/* VSID of a kernel segment, and the page-table group an address hashes to. */
uint64_t kernel_vsid(uint64_t ea);
uint64_t hpt_hash(uint64_t vsid, uint64_t ea);
/* First page-table doubleword for a 4 KiB page in a 256 MiB segment. */
uint64_t hpte_v(uint64_t vsid, uint64_t ea);

#endif

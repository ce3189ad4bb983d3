/* This CPU's words that the monitor reads in its PMU interrupt and software events: its number,
 * what runs on it (pid, tid and the process's monitor state, which the scheduler sets with the
 * running thread), the monitor's state for it, its running thread's kernel stack top and the
 * flag that makes user loads fail instead of faulting pages in (kernel/include/user_load.h).
 * They live in the kernel's per-CPU area (kernel/arch/percpu.h, r13 in the kernel), which stays
 * opaque: the offsets are the ones the build generates from that struct for the entry code
 * (build/include/asm_offsets.h), so they cannot drift from it, and each read is one load, as a
 * field access would be. */
#ifndef KOV_THIS_CPU_H
#define KOV_THIS_CPU_H

#include <stdint.h>
#include "asm_offsets.h"

struct percpu;
struct km_proc;
struct km_cpu;

static inline struct percpu *cpu_self(void)
{
	struct percpu *p;
	__asm__ volatile("mr %0, 13" : "=r"(p));
	return p;
}

/* Each word is read as the one member of a struct of its own, as it would be as a member of
 * struct percpu: so the compiler knows that stores to other structs' members (a sample being
 * filled in) do not change it, and the PMU interrupt keeps its instruction count. */
#define CPU_WORD(cpu, type, offset) (((struct { type v; } *)((char *)(cpu) + (offset)))->v)

static inline uint32_t cpu_index(struct percpu *c) { return CPU_WORD(c, uint32_t, PC_INDEX); }
static inline uint32_t cpu_running_pid(struct percpu *c)
{
	return CPU_WORD(c, uint32_t, PC_RUNNING_PID);
}
static inline uint32_t cpu_running_tid(struct percpu *c)
{
	return CPU_WORD(c, uint32_t, PC_RUNNING_TID);
}
static inline struct km_proc *cpu_running_km(struct percpu *c)
{
	return CPU_WORD(c, struct km_proc *, PC_RUNNING_KM);
}
static inline struct km_cpu *cpu_km(struct percpu *c)
{
	return CPU_WORD(c, struct km_cpu *, PC_KM_CPU);
}
static inline uint64_t cpu_kstack_top(struct percpu *c)
{
	return CPU_WORD(c, uint64_t, PC_KSTACK_TOP);
}
/* The timebase when this CPU's PMU interrupt entered (boot/vectors.S: pmu_common). */
static inline uint64_t cpu_pmu_entry_tb(struct percpu *c)
{
	return CPU_WORD(c, uint64_t, PC_PMU_ENTRY_TB);
}
static inline volatile uint32_t *cpu_nofault(struct percpu *c)
{
	return &CPU_WORD(c, volatile uint32_t, PC_UACCESS_NOFAULT);
}

#endif

/* The kernel's calls into the Kernel Monitoring Module (kov/, thesis 3.2.1): the only names the
 * kernel uses in the monitor. The kernel owns this header and the monitor implements it, so
 * the include arrows point from kov/ to the kernel, never back. The hooks: the PMU interrupt,
 * the tick that folds counts and switches multiplexed groups, the software events, processes
 * and programs coming and going, lock records, and the system calls of the privileged
 * monitoring daemon. Everything costs a load and a branch while monitoring is off. The other
 * direction, what the monitor may use of the kernel, is kov_services.h. */
#ifndef KOV_HOOKS_H
#define KOV_HOOKS_H

#include <stdint.h>
#include "common/monitor/pmu_event.h"
#include "kernel/include/trap_frame.h"
#include "kernel/abi/kov_instr.h"

struct km_proc;

/* On the boot CPU, interrupts ready, before the other CPUs start: chooses the PMU backend,
 * probes which events count here and builds the event catalogue from the results. */
void km_probe(void);
/* After km_probe and the secondary CPUs: rings for every CPU. */
void km_init(void);
/* After km_probe: how many of the catalogue's hardware events the boot probe measured
 * counting and how many are assumed to count (the platform's self-report names both). */
void km_hw_basis(unsigned *hardware, unsigned *measured, unsigned *assumed);

/* The 0xF00 handler, with translation on. */
void km_pmu_interrupt(struct trap_frame *tf);
/* Every decrementer tick on every CPU, after the timer's own work. */
void km_tick(struct trap_frame *tf);
/* Every external interrupt (a device's or an IPI) on every CPU, after its handlers: a change
 * the monitor published meanwhile is taken up now (the publisher interrupts the CPUs). */
void km_interrupt(void);

/* Software events: bit e set while some group counts software event e. */
extern volatile uint32_t km_sw_mask;
void km_sw_event(enum sw_event e, const struct trap_frame *tf);
/* Call at the event; tf is the interrupted state when the event belongs to it (system calls,
 * page faults), 0 to attribute to the caller's own kernel stack. */
static inline void km_sw(enum sw_event e, const struct trap_frame *tf)
{
	if (__builtin_expect(km_sw_mask & (1u << e), 0))
		km_sw_event(e, tf);
}

/* A process is being made: the monitor's state for it (kov/km_internal.h), which the process
 * keeps in its `km` pointer; 0 when there is no memory (the process is not made). */
struct km_proc *km_process_new(void);
/* The process is being freed (0 is ignored). */
void km_process_free(struct km_proc *k);

/* Per program: symbols and method map for attributing user samples; built when a process
 * loads its program (thread context), cached by program name. */
void km_program_attach(struct km_proc *k, const char *file, const uint8_t *image, uint64_t size);

/* Lock statistics: the kernel table's record of a kernel lock (made at its first contention
 * and attributed to the object whose method was waiting; 0 when the table is full). */
struct km_lock_stats;
#if KOV_LOCK_INSTR
struct km_lock_stats *km_lock_record(const void *lock, uint16_t kind);
/* A kernel object's rep is being freed: its locks' records lose their owner. */
void km_lock_owner_gone(const void *rep);
#else
/* Compiled out (kernel/abi/kov_instr.h): no lock has a record, so the locks' statistics
 * paths fold away, and the calls below answer -KOV_ENOTSUP. */
static inline struct km_lock_stats *km_lock_record(const void *lock, uint16_t kind)
{
	(void)lock, (void)kind;
	return 0;
}
static inline void km_lock_owner_gone(const void *rep)
{
	(void)rep;
}
#endif
/* SYS_KM_LOCK_OWNER: the object whose method made the system call (user stack walk), if
 * `lock` lies inside its rep; else 0. */
long km_lock_owner_syscall(const struct trap_frame *tf, uint64_t lock);
/* SYS_KM_LOCK_AREA (any process) and SYS_KM_LOCKS (privileged). */
long km_locks_syscall(uint64_t nr, const uint64_t *a);

/* SYS_KM_CONFIGURE .. SYS_KM_STATE (privileged callers only). */
long km_syscall(uint64_t nr, const uint64_t *a);

#endif

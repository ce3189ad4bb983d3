/* State shared by the KM's files (kov/km*.c): the configuration in effect and each CPU's
 * monitoring state. Not an interface: kernel/include/kov_hooks.h is. */
#ifndef KOV_KM_INTERNAL_H
#define KOV_KM_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/include/kov_hooks.h"
#include "common/monitor/km_plan.h"
#include "common/monitor/mux.h"
#include "common/monitor/sample_ring.h"
#include "common/monitor/sample_period.h"
#include "common/monitor/attrib.h"
#include "common/monitor/chain_ring.h"
#include "common/monitor/throttle.h"
#include "kernel/include/kov_services.h"
#include "kernel/include/trap_frame.h"
#include "kernel/abi/kov_limits.h"

#define KM_RINGS 9                  /* PMC1-8, then one for software events */
#define KM_SW_RING 8
#define KM_RING_INITIAL 1024        /* samples per ring at start */
#define KM_RING_CAP 16384           /* a ring that loses samples grows up to this */
#define KM_WALK_DEPTH 16
#define KM_CHAIN_SLOTS 4096         /* call chains per CPU kept until the drain (2 MiB) */
/* A PMU handler runs with interrupts off and never waits: a few microseconds even for a
 * 32-frame chain under emulation. One measured longer than this many timebase ticks (128 us
 * at pseries' 512 MHz timebase, 2 ms at a G5's 33 MHz) had its CPU stopped under it (its host
 * thread preempted, or the other CPUs' turn on a serial machine): counting that time as the
 * handler's would charge monitoring for time no CPU spent on it. A power of two: the test is
 * a shift, in the handler. */
#define KM_HANDLER_CAP_TICKS (1ull << 16)

/* The configuration and run state, written only by the KM's system calls (under
 * SVC_LOCK_CONTROL); CPUs pick up a change at their next tick by comparing `epoch`. */
struct km_global {
	struct km_plan plan;
	struct km_config applied;
	uint64_t slice;              /* in the slice unit; timebase ticks for microseconds */
	uint64_t tb_per_us;          /* timebase ticks per microsecond */
	volatile uint32_t epoch;
	volatile bool running;
	uint32_t sample_modes;       /* KM_SMP_KERNEL / KM_SMP_USER: whose samples are kept */
};
extern struct km_global km;

/* The PMU interrupt's common case, a group sampling with one counter, worked out when the
 * group goes on the PMU (kov/km_pmu.c: fast_set): the interrupt then reads these few words
 * instead of indexing the plan, the counts, the rings and the backend on every sample
 * (kov/km_sampler.c: km_pmu_interrupt). KM_LEAF_NONE: the general path takes every interrupt. */
#define KM_LEAF_NONE 0
#define KM_LEAF_PLAIN 1              /* attribution only */
#define KM_LEAF_CHAINS 2             /* and call chains */
struct km_fast {
	uint8_t pmc;                 /* the one sampled counter, 1-8 */
	uint8_t leaf;                /* user samples take the leaf path: KM_LEAF_* */
	uint16_t cpu, event;         /* this CPU and its catalogue event, as a sample has them */
	uint16_t chain_depth;        /* frames its samples keep, 0: none */
	uint32_t config_id;
	uint32_t overflowed;         /* the backend's pmc_overflowed */
	uint64_t period_lo, period_n;   /* its periods: from period_lo, period_n values */
	uint64_t threshold;          /* the period asked for, before the throttle's factor */
	uint64_t *count;             /* its count (raw) */
	uint64_t *lost;              /* its samples lost */
	uint32_t *base, *period;     /* its base and period (struct km_cpu) */
	struct sample_ring *ring;
	uint64_t mmcr0_frozen;       /* MMCR0 while the interrupt runs: the group's, frozen */
	uint64_t mmcr0_run;          /* ... and after it: the group's as programmed (armed) */
};

/* Each CPU's monitoring state. Written by that CPU only (its tick, its PMU interrupt, its
 * software events, all with interrupts off); the reader (a KM system call, any CPU) only reads
 * the counts, which only grow between STARTs, and drains the rings as their consumer. */
struct km_cpu {
	volatile uint32_t epoch;              /* the global epoch this CPU has applied */
	volatile uint32_t count_gen;          /* bumped when the counts restart (at START) */
	bool active;                 /* the KM's group is on this CPU's PMU */
	bool in_handler;             /* sampling now: nested software events only count */
	int group;                   /* on the PMU, index into km.plan */
	const struct pmu_backend *pmu;   /* programmed the PMU last; NULL before the first group */
	struct mux mux;
	uint64_t slice_start;        /* timebase at the last switch */
	uint64_t slice_units;        /* slice-unit events since then (cycles or instructions) */
	uint64_t last_fold;          /* timebase of the last fold */
	uint32_t base[8];            /* each PMC's value at the last fold or reload */
	uint32_t period[8];          /* each sampled PMC's period now being counted */
	struct period_gen periods;   /* draws them, seeded at START */
	uint64_t sw_left[KM_MAX_GROUPS][SW_EVENT_COUNT];   /* software events until the next sample */
	uint64_t clock_rem;          /* decrementer time not yet counted, timebase ticks */
	struct mux_count count[KM_MAX_GROUPS][KM_MAX_GROUP_EVENTS];   /* since START */
	struct sample_ring ring[KM_RINGS];
	struct chain_ring chains;    /* the samples' call chains; storage made by the first
	                                configuration that asks for chains */
	struct km_sample *grow_storage[KM_RINGS];   /* bigger storage waiting for an empty ring */
	uint32_t grow_capacity[KM_RINGS];
	struct km_sample *retired[KM_RINGS];        /* storage the tick replaced: the reader frees */
	volatile uint32_t draining, swapping;    /* reader and tick keep out of each other */
	uint64_t lost[KM_RINGS][CATALOGUE_MAX];  /* producer: samples lost, by ring and event */
	uint64_t taken;              /* samples pushed */
	uint64_t interrupts, switches;   /* interrupts: those the general path took */
	uint64_t leaf_samples;       /* interrupts the leaf path took, one sample each (counted
	                                once for both figures: kov/km.c adds them to each) */
	uint64_t handler_ticks;      /* timebase in the overflow handler (entry to re-arm) */
	uint64_t handler_samples;    /* samples it recorded */
	uint64_t other_ticks;        /* the rest of monitoring's time charged on this CPU: the
	                                daemon's CPU time (kov/km_throttle.c) */
	uint32_t throttle;           /* the throttle's factor on the periods, as this CPU took it up */
	uint32_t throttle_gen;
	struct km_fast fast;
};
extern struct km_cpu km_cpus[KOV_MAX_CPUS];

/* kov/km_pmu.c */
void km_cpu_apply(struct km_cpu *c);          /* picks up the global epoch (interrupts off) */
extern const char km_epoch_taken;             /* the key km_cpu_apply wakes (publish waits) */
void km_fold(struct km_cpu *c, uint64_t now);  /* counters and time into the interval */

/* kov/km_pmu.c: the leaf path's period range after a change of c->throttle (interrupts off). */
void km_fast_rethrottle(struct km_cpu *c);

/* kov/km_throttle.c: the monitor's cost bound (common/monitor/throttle.h). */
void km_throttle_tick(struct km_cpu *c, uint64_t now);   /* every tick of a monitoring CPU */
void km_throttle_take_up(struct km_cpu *c);   /* the factor now in effect, on this CPU */
void km_throttle_start(void);                  /* at START: the periods as asked, a new window */
void km_throttle_charge(uint64_t ticks);       /* monitoring work done on this CPU */
struct km_throttle_io;
long km_throttle_call(struct km_throttle_io *io);   /* SYS_KM_THROTTLE, io in kernel memory */
/* A period the sampler draws from: threshold t times this CPU's factor. */
static inline uint64_t km_throttled(const struct km_cpu *c, uint64_t t)
{
	return throttle_period(t, c->throttle);
}

/* kov/km_sampler.c: records one sample of catalogue event `event` on ring `ring`, standing for
 * the `period` events that ended with it. tf: the interrupted state; 0 for the caller's kernel
 * stack. */
void km_record(struct km_cpu *c, int ring, uint16_t event, uint64_t period,
	const struct trap_frame *tf);

/* kov/km_sampler.c: the object whose method is running, from the interrupted state tf, or
 * with tf 0 from the caller's own kernel stack (no allocation, no lock, never a fault). */
struct attrib_result km_attribute(const struct trap_frame *tf);

/* kov/km_locks.c: full counting (every acquisition and hold) of the kernel locks owned by the
 * live kernel object at gtt index (0xFFFFFFFF: by any live object) on or off; -KOV_ENOENT
 * when there is no such object. */
long km_locks_full(uint64_t index, bool on);
/* A process is being freed: if it controlled monitoring, monitoring stops (kov/km.c). */
void km_controller_gone(struct km_proc *k);

/* kov/km_program.c: what attribution needs of a program (the kernel's or a process's). */
struct km_program {
	char name[32];
	const void *syms;            /* common/syms/ksyms.h table; 0 when the program has none */
	struct text_map text;        /* its methods and, when its code could be read, frames */
};
extern struct km_program km_kernel_program;
void km_program_init(void);

/* The monitor's state for one process (kernel/include/kov_hooks.h: km_process_new), reached through the
 * process's one `km` pointer (svc_process_km, svc_running). */
struct km_proc {
	const struct km_program *prog;   /* its program, for attributing its samples; 0 before exec */
	const struct text_map *leaf_text;   /* prog's text map when it has its frame facts (the PMU
	                                       interrupt's leaf path walks it), else 0 */
	uint64_t lock_area;              /* its struct km_lock_area (SYS_KM_LOCK_AREA), 0 for none */
};

#endif

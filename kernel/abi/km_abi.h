/* Records the kernel hands to privileged user programs (the DCI daemon) through the KM's
 * information system calls; shared by the kernel and libc-instr. Strings are NUL-terminated
 * and cut to fit. */
#ifndef KOV_KM_ABI_H
#define KOV_KM_ABI_H

#include <stdint.h>

/* SYS_KM_INFO: the target's description (the handshake's target block). */
struct km_info {
	uint64_t timebase_hz;
	uint64_t timebase_now;
	uint64_t memory;            /* bytes of RAM */
	uint64_t uptime_ns;
	uint32_t pvr;
	uint16_t cpus;              /* online CPUs */
	uint16_t events;            /* entries in the event catalogue (SYS_KM_CATALOGUE) */
	char profile[16];           /* "smp", "g5" */
	char model[64];             /* device-tree model */
	char pmu[32];               /* PMU backend in use: "ppc970", "isa207-arch", "none" */
	char build_id[64];          /* kernel build id (git describe) */
	/* How the CPUs run, as the launcher says (kernel/arch/smp_kind.h): KM_CPUS_*. */
	uint8_t cpus_run;
	uint8_t pad[7];
	/* Wake-ups, since boot, summed over the CPUs (kernel/arch/wake_guard.c). */
	uint64_t wake_rescues;      /* CPUs found halted at an interrupt vector after H_CEDE (QEMU's
	                             * race) by the hypervisor watchdog's reset, and resumed */
	uint64_t wake_resets;       /* the hypervisor watchdog's system resets taken by any CPU */
	uint64_t wake_prods;        /* ceded CPUs a neighbour found asleep past their tick and prodded */
	uint64_t wake_late_max_us;  /* the longest a CPU slept past its due tick (µs) */
	uint64_t ticks_pending;     /* ticks found due but still pending behind another interrupt */
	uint64_t ticks_skipped;     /* ticks missed altogether (due a period or more before taken) */
	uint64_t turns_handed_rx;   /* turns CPUs handed on for a frame the NIC's CPU had waiting
	                             * (kernel/arch/smp_kind.h: smp_hand_on_turn) */
};
#define KM_CPUS_UNKNOWN 0           /* one CPU, or not said */
#define KM_CPUS_TAKE_TURNS 1        /* the CPUs take turns on one host thread (QEMU thread=single) */
#define KM_CPUS_PARALLEL 2          /* the CPUs run at the same time (QEMU thread=multi) */

/* SYS_KM_CATALOGUE: one per event, in catalogue order (the index is the event number). */
#define KM_EV_COUNTS_HERE 0x01u     /* the protocol's PROTO_EV_* (pinned: dci/abi_pins.c) */
#define KM_EV_CAN_SAMPLE 0x02u
#define KM_EV_SAMPLES_HERE 0x04u
#define KM_EV_ASSUMED 0x08u         /* counts here is believed, not measured (common/monitor/pmu_event.h) */
#define KM_EV_MODES_FILTERED 0x10u  /* one mode only (kernel or user) is honoured */
struct km_event_info {
	uint32_t code;              /* backend encoding (software events: enum sw_event) */
	uint8_t source;             /* 0 hardware counter, 1 kernel software event */
	uint8_t flags;              /* KM_EV_* */
	uint16_t pad;
	char name[48];
	char description[128];
	char why_not[128];          /* "" when it counts and samples here */
};

/* SYS_KM_PROCESSES: one per live process. */
#define KM_PROC_RUNNING 1           /* has live threads */
#define KM_PROC_EXITED 2            /* exited, not yet waited for */
struct km_process {
	uint32_t pid, ppid;
	uint32_t threads;           /* live threads */
	uint32_t state;             /* KM_PROC_* */
	char name[32];
};

/* SYS_NETINFO: the network interface and the stack's counters. */
struct km_netinfo {
	uint32_t ipv4;              /* host byte order; 0 until configured */
	uint32_t netmask, gateway;
	uint8_t mac[6];
	uint8_t link_up;
	uint8_t dhcp;               /* address from DHCP (1) or static (0) */
	char driver[16];            /* "spapr-vlan", "sungem" */
	uint64_t rx_packets, rx_bytes, rx_dropped;
	uint64_t tx_packets, tx_bytes, tx_dropped;
	uint64_t interrupts;        /* receive interrupts taken (0 when polled) */
	uint64_t polls;             /* receive polls that found work without an interrupt */
	uint32_t sockets_open;
	uint32_t pad;
};

/* ---- monitoring (kernel/include/kov_hooks.h) -------------------------------------------------------------- */

#define KM_MAX_GROUPS 16
#define KM_MAX_CHAIN 32             /* call-chain frames per sample at most */
#define KM_MAX_GROUP_EVENTS 16
#define KM_GROUP_NAME 32

/* km_config.flags: the protocol's PROTO_CFG_*, and two of the KM's own (dci/abi_pins.c) */
#define KM_CFG_KERNEL 0x1u          /* count and sample in the kernel */
#define KM_CFG_USER 0x2u            /* ... in user programs (at least one of the two) */
#define KM_CFG_CALLCHAIN 0x4u       /* samples carry a call chain of chain_depth */
#define KM_CFG_FIXED_PERIOD 0x8u    /* reload hardware counters with exactly the threshold
                                       instead of a randomized period: the old behaviour, kept to
                                       show the aliasing it causes (kmcheck alias); not in the
                                       wire protocol */
#define KM_CFG_GENERAL_PATH 0x10u   /* every PMU interrupt through the sampler's general path,
                                       none through its leaf path: to compare the two (kmcheck
                                       paths); not in the wire protocol */
/* km_config.unit of the slice: the protocol's proto_slice_unit (dci/abi_pins.c) */
#define KM_UNIT_CYCLES 1
#define KM_UNIT_INSTRUCTIONS 2
#define KM_UNIT_MICROSECONDS 3

struct km_group_config {
	char name[KM_GROUP_NAME];
	uint32_t share;             /* percent of the time; the groups' shares sum to 100 */
	uint32_t n_events;
	uint16_t event[KM_MAX_GROUP_EVENTS];     /* catalogue indices */
	uint64_t threshold[KM_MAX_GROUP_EVENTS]; /* sample every N events; 0 counts only */
	uint32_t chain_depth;       /* call-chain frames its samples carry, 0..KM_MAX_CHAIN; 0
	                               takes km_config.chain_depth (with KM_CFG_CALLCHAIN) */
	uint32_t pad;
};

/* SYS_KM_CONFIGURE in, SYS_KM_CONFIG_GET out (as applied: the KM adds instructions and
 * cycles to every group that has room, with threshold 0). n_groups 0 clears. */
struct km_config {
	uint32_t id;                /* out: numbers each configuration applied, from 1 */
	uint32_t n_groups;
	uint16_t unit;              /* KM_UNIT_* of slice */
	uint16_t flags;             /* KM_CFG_* */
	uint32_t chain_depth;       /* with KM_CFG_CALLCHAIN: 1..KM_MAX_CHAIN frames for every
	                               group that names no depth of its own; else 0 */
	uint64_t slice;
	struct km_group_config group[KM_MAX_GROUPS];
};

/* SYS_KM_CONTROL commands */
#define KM_CTL_START 1
#define KM_CTL_STOP 2

/* SYS_KM_SAMPLES: records as the sampler took them (its rings, common/monitor/sample_ring.h, hold
 * these very records); `object` is the context object's rep (0 with KM_SMP_NO_OBJECT), which the
 * caller maps to its COID through a scan. With a chain buffer (the call's third argument,
 * KM_MAX_CHAIN frames per sample) sample i's `depth` frames are at chains[i * KM_MAX_CHAIN],
 * innermost first: kernel frames, then (a sample taken in the kernel on behalf of a user
 * thread: a system call, an interrupt or a fault) the user frames from the user state saved
 * at the entry, each marked KM_FRAME_USER. */
#define KM_SMP_KERNEL 0x01u         /* the protocol's PROTO_SMP_* (dci/abi_pins.c) */
#define KM_SMP_USER 0x02u
#define KM_SMP_TRUNCATED 0x04u
#define KM_SMP_UNCERTAIN 0x08u
#define KM_SMP_NO_OBJECT 0x10u
struct km_sample {
	uint64_t timebase;
	uint64_t pc;
	uint64_t object;            /* rep of the context object, 0 when there is none */
	uint32_t config_id;         /* the configuration it was taken under */
	uint32_t pid;
	uint32_t tid;
	uint16_t cpu;
	uint16_t event;             /* catalogue index (SYS_KM_CATALOGUE) */
	uint16_t flags;             /* KM_SMP_*: exactly one of KERNEL and USER */
	uint16_t depth;             /* call-chain frames, 0..KM_MAX_CHAIN */
	uint32_t period;            /* events that passed for this sample: the counter's period
	                               that ended with it, drawn from [T - T/8, T + T/8] for hardware
	                               events (exactly T with KM_CFG_FIXED_PERIOD), T for software
	                               events; saturated at 2^32 - 1 */
	uint32_t chain;             /* the KM's own: its chain's sequence number in its CPU's chain
	                               ring (common/monitor/chain_ring.h) */
	uint32_t pad;
};
_Static_assert(sizeof(struct km_sample) == 56, "sample records are 56 bytes");
#define KM_FRAME_USER 0x1u          /* km_frame.pc: a user frame (pcs are 4-byte aligned) */
struct km_frame {
	uint64_t pc;                /* KM_FRAME_USER | the pc running in the frame */
	uint64_t object;            /* rep of the object whose method the frame is, 0 for none */
};

/* SYS_KM_COUNTS: the counts of the interval since the previous call (or START). */
struct km_count {
	uint16_t cpu, group, event, pad;
	uint64_t raw, enabled, running;   /* enabled and running in timebase ticks */
};
struct km_counts_head {
	uint32_t config_id;
	uint32_t count;             /* records written */
	uint64_t start, end;        /* timebase */
	uint32_t missed;            /* records that did not fit: kept, they come with the next read */
	uint32_t pad;
};

/* SYS_KM_LOST: samples the rings refused since the previous call, per CPU, ring and event. */
struct km_lost {
	uint16_t cpu;
	uint16_t pmc;               /* 1..8, 0 for software events */
	uint16_t event;
	uint16_t pad;
	uint64_t lost;
};

/* Lock statistics (lock_stat style) of spin and sleep locks, kernel and user. A record is made
 * the first time a lock is contended (or when a program monitors it) and then updated only by
 * the thread that holds the lock, so the lock itself serializes the figures. The uncontended
 * acquisition never looks at it, unless the lock is monitored (KM_LOCK_FULL): then every
 * acquisition and hold is counted. Times in timebase ticks, cumulative. */
#define KM_LOCK_SPIN 1u             /* kind: the protocol's PROTO_LOCK_* (dci/abi_pins.c) */
#define KM_LOCK_SLEEP 2u
#define KM_LOCK_FULL 0x1u           /* flags: every acquisition and hold counted */
#define KM_LOCK_OWNER_SET 0x2u      /* owner registered by the program, not found by a walk */
#define KM_LOCK_OWNER_GONE 0x4u     /* its owner was destroyed: attributed again when next met */
#define KM_LOCK_ATTRIBUTED 0x8u     /* its owner looked for (found or not): until then other
				     * threads' contentions may already be in it, and the monitor
				     * holds them back rather than report them as no object's */
#define KM_LOCK_SITES 4             /* contending call sites kept per lock */
struct km_lock_site {
	uint64_t pc;                /* return address of the lock call; 0: slot free */
	uint64_t count;             /* contentions from there */
};
struct km_lock_stats {
	uint64_t lock;              /* address of the lock; 0: a free slot of the table */
	uint16_t kind;              /* KM_LOCK_SPIN / KM_LOCK_SLEEP (0 while being made) */
	uint16_t flags;             /* KM_LOCK_*; before owner: a copy (read in address order)
				     * that sees KM_LOCK_ATTRIBUTED sees the owner stored first */
	uint32_t paused;            /* 1: full counting paused (INSTRUMENT sleep locks off) */
	uint64_t owner;             /* rep of the object it belongs to, 0 for none */
	uint64_t acquisitions;      /* with KM_LOCK_FULL all of them, else only contended ones */
	uint64_t contentions;       /* acquisitions that did not get the lock on the first try */
	uint64_t wait_total, wait_max, wait_min;   /* of contended acquisitions */
	uint64_t holds;             /* holds measured: contended ones (all with KM_LOCK_FULL) */
	uint64_t hold_total, hold_max;
	uint64_t bounces;           /* contended acquisitions on another CPU than the previous holder */
	uint64_t trylock_failures;  /* spin_trylock calls that found it taken */
	uint64_t qlen_samples, qlen_sum;   /* waiters seen by each thread that had to wait */
	uint32_t qlen_max;          /* the largest number of waiters seen */
	volatile uint32_t waiters;  /* threads waiting now */
	uint32_t last_cpu;          /* CPU of the last contended acquirer, + 1 (0: none yet) */
	uint32_t pad;
	uint64_t acquired_at;       /* timebase when a measured hold began, 0 when none is open */
	uint64_t other_sites;       /* contentions from call sites that did not fit site[] */
	struct km_lock_site site[KM_LOCK_SITES];
};
/* The table a process keeps its records in (registered with SYS_KM_LOCK_AREA; the kernel has
 * one of its own): open addressing on the lock address, records never removed. */
#define KM_LOCK_AREA_MAGIC 0x4c4b5354u   /* "LKST" */
struct km_lock_area {
	uint32_t magic;
	uint32_t capacity;          /* records, a power of two */
	volatile uint32_t used;     /* records made */
	uint32_t pad;
	volatile uint64_t dropped;  /* contentions not recorded because the table was full */
	struct km_lock_stats locks[];
};
/* SYS_KM_LOCKS out: one per lock record of the kernel (pid 0) and of every process. */
struct km_lock_record {
	uint32_t pid, pad;
	struct km_lock_stats s;
};

/* SYS_KM_STATE */
struct km_state {
	uint32_t config_id;
	uint32_t running;           /* 1 between START and STOP */
	uint64_t samples_taken, samples_delivered, samples_lost;
	uint64_t pmu_interrupts, switches;
	uint64_t handler_ticks;     /* timebase ticks in the overflow handler, from the interrupt's
	                               entry to the re-arm (the return's 20-odd instructions are
	                               not in it; under -icount shift=0 a tick is tb_freq/1e9
	                               instructions) */
	uint64_t handler_samples;   /* samples the handler recorded */
	uint64_t leaf_samples;      /* of those, the ones its leaf path took (a user-mode sample
	                               of a group sampling with one counter: kov/km_sampler.c) */
};

/* SYS_KM_THROTTLE: the monitor's bound on its own cost (common/monitor/throttle.h). Every
 * 100 ms the KM measures what sampling cost and, past the limit, multiplies every sampling
 * period by a factor (a power of two), back to 1 when the cost falls. Each change is an event,
 * numbered from 1. */
#define KM_THROTTLE_KEEP 0xFFFFFFFFu   /* set_limit: leave the limit as it is */
#define KM_THROTTLE_CHARGE 1u          /* charge: the caller's CPU time since its mark */
#define KM_THROTTLE_MARK 2u            /* charge: measure the caller's CPU time from here */
#define KM_THROTTLE_EVENTS 16          /* events returned per call at most */
struct km_throttle_event {
	uint64_t seq;               /* numbers the changes since boot, from 1 */
	uint64_t timebase;          /* when the window that decided it ended */
	uint32_t factor;            /* the periods' factor from then on (1: as asked) */
	uint32_t cost_bp;           /* the window's cost, basis points of the CPUs' time */
	uint32_t limit_bp;          /* the limit it was held to */
	uint32_t pad;
};
struct km_throttle_io {
	uint32_t charge;            /* in: KM_THROTTLE_MARK: the calling thread's CPU time is
	                               measured from here; KM_THROTTLE_CHARGE: its CPU time since
	                               its mark (or its previous charge) is monitoring's cost (the
	                               daemon: its drains, encoding and sending); 0: neither */
	uint32_t pad0;
	uint64_t since;             /* in: return the events numbered after this */
	uint32_t set_limit;         /* in: KM_THROTTLE_KEEP, or the new limit in basis points
	                               (0: throttling off; at most 10000) */
	uint32_t limit_bp;          /* out: the limit now */
	uint32_t factor;            /* out: the factor now */
	uint32_t cost_bp;           /* out: the last window's cost */
	uint64_t windows;           /* out: windows measured since boot */
	uint64_t seq;               /* out: the newest event's number (0: none yet) */
	uint64_t handler_ticks, other_ticks;   /* out: all CPUs' handler time, and the charging
	                                          callers' CPU time, since boot */
	uint32_t n_events;          /* out: events[0..n) are the oldest after `since` still kept */
	uint32_t pad;
	struct km_throttle_event events[KM_THROTTLE_EVENTS];
};

/* SYS_KM_SWAP / SYS_CO_SWAP_CMD: how a hot swap went (common/co/co_swap.h). */
#define KM_CLASS_NAME 32
#define KM_SWAP_NO_ANSWER -1        /* result: the runtime did not report */
struct km_swap_answer {
	int32_t result;             /* enum co_swap_result (0: swapped), or KM_SWAP_NO_ANSWER */
	uint32_t walks;             /* sleeping threads' stacks walked in the drain */
	uint64_t forward_ns, block_ns, transfer_ns;   /* the phases, on the runtime's clock */
	uint64_t forwarded, held;   /* calls the mediator forwarded, and held */
	char from[KM_CLASS_NAME];   /* the object's class before, and the class asked for */
	char to[KM_CLASS_NAME];
};

/* SYS_PLATFORM: the clock read at boot and the platform's self-report of its paths
 * (kernel/arch/platform_report.h; the boot's "platform:" lines). */
#define KM_PLATFORM_PATHS 12
enum km_path_state { KM_PATH_EXERCISED, KM_PATH_NEW, KM_PATH_UNEXERCISED, KM_PATH_UNCHECKABLE };
struct km_platform_path {
	char name[24];
	uint32_t state;             /* KM_PATH_* */
	char detail[112];
};
struct km_platform {
	int64_t rtc_boot;           /* seconds since 1970-01-01 UTC, if rtc_ok */
	uint32_t rtc_ok;
	uint32_t n_paths;
	uint32_t emulated;          /* the machine is one of QEMU's */
	char platform[16];          /* "pseries", "mac99" */
	char power_ctl[16];         /* "RTAS", "PMU99", "CUDA", "none" */
	struct km_platform_path paths[KM_PLATFORM_PATHS];
};

#endif

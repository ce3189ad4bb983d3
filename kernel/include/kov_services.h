/* The kernel's services to the monitor (kov/): the whole of the kernel the monitor sees, besides
 * the trap frame its hooks take (arch/trap.h) and the special-purpose registers it programs
 * (arch/cpu.h). The other direction, the kernel calling the monitor, is kernel/include/kov_hooks.h.
 *
 * Interfaces that are already small and stable come in whole: the kernel heap (kmalloc/kfree),
 * the console (kprintf), user copies of the calling process (copy_to_user ...), the clock
 * (clock_ns, tb_from_us; mftb in arch/cpu.h), the per-CPU area (this_cpu, percpu_area,
 * cpus_online: the sampler reads them in its hot path), spin and sleep locks, kernel stacks,
 * and the clustered-object table (co_gtt, co_index_limit, co_rep_on_cpu, invocation counting)
 * the scan and the lock tables walk. Processes and threads are opaque here: the monitor reaches
 * them through the functions below (kernel/kov_services.c, kernel/proc/). */
#ifndef KOV_KOV_SERVICES_H
#define KOV_KOV_SERVICES_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "kernel/mm/kmem.h"
#include "kernel/mm/uaccess.h"
#include "kernel/arch/console.h"
#include "kernel/arch/percpu.h"
#include "kernel/arch/timer.h"
#include "common/lib/spinlock.h"
#include "kernel/lock/sleeplock.h"
#include "kernel/proc/stack.h"
#include "common/co/cobj.h"

struct process;      /* the kernel's (kernel/proc/process.h) */
struct km_proc;      /* the monitor's state for one process (kov/km_proc.h) */
struct km_info;
struct km_process;
struct km_netinfo;

/* ---- Processes ---------------------------------------------------------------------------- */
/* The live process pid with a reference that keeps it (not its threads) from being freed
 * until svc_process_put; 0 when there is none or it is exiting. */
struct process *svc_process_get(uint32_t pid);
void svc_process_put(struct process *p);
#define SVC_MAX_PROCESSES 1024   /* live processes at most (kernel/proc/process.h) */
/* References to up to max live processes (svc_process_put each); returns how many. */
uint32_t svc_processes_get(struct process **out, uint32_t max);
/* Calls fn for every live process with the process table locked (fn must not block). */
void svc_process_for_each(void (*fn)(struct process *p, void *arg), void *arg);
/* Describes up to max live processes (kernel/abi/km_abi.h); returns how many there are. */
uint32_t svc_process_list(struct km_process *out, uint32_t max);

uint32_t svc_process_pid(const struct process *p);
const char *svc_process_name(const struct process *p);
bool svc_process_exiting(const struct process *p);
/* The GTT index of the process's own clustered object (the root of what it owns). */
uint32_t svc_process_index(const struct process *p);
/* The monitor's state for p (made by km_process_new when p was made). */
struct km_proc *svc_process_km(const struct process *p);

/* Copies len bytes at user address uaddr of p into dst; 0 or -errno. Nothing is allocated in
 * p: a page it never touched is -KOV_EFAULT (read) or reads as zeros (peek). Not with the
 * process table locked (svc_process_for_each): hold a reference (svc_process_get). */
long svc_process_read(struct process *p, uint64_t uaddr, void *dst, uint64_t len);
long svc_process_peek(struct process *p, uint64_t uaddr, void *dst, uint64_t len);

/* The calling thread's process, 0 in a kernel thread. */
struct process *svc_current_process(void);
/* Whether the calling thread belongs to a privileged process (init and what it started). */
bool svc_current_privileged(void);

/* What is running on this CPU, for a sample: pid and tid 0 and km 0 in a kernel thread.
 * Interrupt-safe; no lock; three loads (the scheduler keeps them in the per-CPU area). */
struct svc_running {
	uint32_t pid, tid;
	struct km_proc *km;
};
static inline struct svc_running svc_running(void)
{
	const struct percpu *cpu = this_cpu();
	return (struct svc_running){ cpu->running_pid, cpu->running_tid, cpu->running_km };
}

/* ---- Scan and instrument requests to a process's runtime (kernel/proc/co_scanner.c) --------
 * The runtime's scanner thread waits in SYS_CO_SCAN_WAIT; a request wakes it, it answers with
 * SYS_CO_SCAN_DONE (its records at svc_scan_area) after fetching the pending command, if any,
 * with SYS_CO_COUNT_CMD. */
/* Posts a request (cmd 0: a scan; else the command the runtime fetches) and wakes the scanner.
 * Returns the request's sequence number, -KOV_ENODEV when the process has no scanner. */
long svc_scan_request(struct process *p, uint64_t cmd);
/* Whether request seq was answered; then *count is the number of records written. */
bool svc_scan_answered(const struct process *p, uint32_t seq, uint32_t *count);
/* Where the runtime writes its scan records (user address in p; 0: no scanner). */
uint64_t svc_scan_area(const struct process *p);

/* ---- Threads: blocking and waking ----------------------------------------------------------- */
/* Blocks the calling thread while still_blocked(key) and clock_ns() < deadline_ns; true when
 * woken by svc_wake_all(key). */
bool svc_block_until(const void *key, bool (*still_blocked)(const void *key), uint64_t deadline_ns);
int svc_wake_all(const void *key);
void svc_yield(void);

/* ---- The machine ---------------------------------------------------------------------------- */
uint64_t svc_timebase_hz(void);
/* Fills the machine's part of the daemon's description: timebase frequency, memory, PVR,
 * CPUs online, profile and model. */
void svc_machine_describe(struct km_info *out);
/* The kernel's embedded symbol table (common/syms/ksyms.h layout) and its size; 0 if missing. */
const void *svc_kernel_symbols(size_t *size);
/* The network's state and open sockets; false without a NIC. */
bool svc_net_info(struct km_netinfo *out);

#endif

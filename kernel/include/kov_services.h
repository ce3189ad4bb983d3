/* The kernel's services to the monitor (kov/): the whole of the kernel the monitor sees. The
 * other direction, the kernel calling the monitor, is kernel/include/kov_hooks.h.
 *
 * Only declarations and opaque types: kernel/kov_services.c, which includes the kernel's own
 * headers as well, makes the compiler check every declaration here against them. What the
 * monitor needs inline in its PMU interrupt comes from small headers the kernel uses too: the
 * processor's registers (processor.h), the trap frame (trap_frame.h), this CPU's words
 * (this_cpu.h), fault-safe user loads (user_load.h) and kernel stacks (kernel_stack.h).
 * Processes and threads are opaque: the monitor reaches them through the functions below. */
#ifndef KOV_KOV_SERVICES_H
#define KOV_KOV_SERVICES_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "kernel/include/this_cpu.h"
#include "kernel/abi/km_abi.h"

struct process;      /* the kernel's (kernel/proc/process.h) */
struct km_proc;      /* the monitor's state for one process (kov/km_internal.h) */
struct km_cpu;       /* the monitor's state for one CPU (kov/km_internal.h) */
struct km_info;
struct km_process;
struct km_netinfo;

/* ---- Memory, console, clock (kernel/mm/kmem.h, arch/console.h, arch/timer.h) ----------- */
/* Zeroed, 16-byte aligned memory, or 0 when memory is exhausted; any CPU, interrupts on or off. */
void *kmalloc(size_t size);
void kfree(void *p);
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Nanoseconds since the timebase started; timebase ticks for a number of microseconds. */
uint64_t clock_ns(void);
uint64_t tb_from_us(uint64_t us);

/* ---- The calling process's memory (kernel/mm/uaccess.h) ------------------------------------ */
/* Whether [addr, addr + len) (an array of count elements of size bytes) is user memory. */
bool user_range_ok(uint64_t addr, uint64_t len);
bool user_array_ok(uint64_t addr, uint64_t count, uint64_t size);
/* 0 or -KOV_EFAULT; pages not mapped are faulted in. */
long copy_from_user(void *dst, uint64_t src, uint64_t len);
long copy_to_user(uint64_t dst, const void *src, uint64_t len);
/* n >= 1 aligned instruction words, with this CPU's nofault flag set (this_cpu.h): pages not
 * mapped now fail instead; 0 or -KOV_EFAULT. */
long uaccess_words32(uint32_t *dst, const uint32_t *src, uint64_t n);

/* ---- CPUs ------------------------------------------------------------------------------------ */
bool svc_cpu_online(unsigned cpu);
/* Interrupts CPU cpu now (an IPI; nothing on a platform without them, or for this CPU). */
void svc_cpu_kick(unsigned cpu);
/* Where the CPUs take turns on one host thread, hands this CPU's turn to the next CPU now and
 * returns true; false (nothing done) where they run in parallel (kernel/arch/smp_kind.h). */
bool svc_cpu_yield_turn(void);
/* Where CPU cpu's PMU interrupt finds the monitor's state for it (cpu_km in this_cpu.h). */
void svc_cpu_set_km(unsigned cpu, struct km_cpu *c);
/* Timebase ticks between this CPU's decrementer ticks. */
uint64_t svc_tick_period_tb(void);
/* The running thread's CPU time so far, timebase ticks (interrupts taken meanwhile included). */
uint64_t svc_thread_cpu_ticks(void);
/* CPU cpu's time in its idle thread so far, timebase ticks (read without its lock: a bound for
 * the throttle, which may be a switch behind). */
uint64_t svc_cpu_idle_ticks(unsigned cpu);

/* ---- Sleep locks for the monitor's thread-context state (kernel/lock/sleeplock.h) ---------- */
enum svc_lock {
	SVC_LOCK_CONTROL,    /* the KM's system calls, one caller at a time (kov/km.c) */
	SVC_LOCK_PROGRAMS,   /* the program cache (kov/km_program.c) */
	SVC_LOCKS
};
void svc_lock(enum svc_lock l);
void svc_unlock(enum svc_lock l);
/* The word of the kernel sleep lock at `lock` that carries its lock-statistics flags (SPIN_FULL,
 * common/lib/spinlock.h), as a spin lock's `word` does. */
volatile uint32_t *svc_sleeplock_word(const void *lock);

/* ---- Processes ---------------------------------------------------------------------------- */
/* The live process pid with a reference that keeps it (not its threads) from being freed
 * until svc_process_put; 0 when there is none or it is exiting. */
struct process *svc_process_get(uint32_t pid);
void svc_process_put(struct process *p);
#define SVC_MAX_PROCESSES 1024   /* live processes at most (kernel/proc/process.h) */
/* References to up to max live processes (svc_process_put each); returns how many. */
uint32_t svc_processes_get(struct process **out, uint32_t max);
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
 * p: a page it never touched is -KOV_EFAULT (read) or reads as zeros (peek). Hold a
 * reference (svc_process_get). */
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
	struct percpu *cpu = cpu_self();
	return (struct svc_running){ cpu_running_pid(cpu), cpu_running_tid(cpu), cpu_running_km(cpu) };
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
/* A hot-swap request (SYS_KM_SWAP): object `index` of p to class cls; the runtime fetches the
 * class with SYS_CO_SWAP_CMD and reports there how it went, before it answers the request.
 * Returns the request's sequence number as svc_scan_request does. */
long svc_swap_request(struct process *p, uint32_t index, const char cls[KM_CLASS_NAME]);
/* The answer the runtime reported (result KM_SWAP_NO_ANSWER before it did). */
void svc_swap_answer(const struct process *p, struct km_swap_answer *out);
/* A hot swap of the kernel's own object `index` to class cls, done by the calling thread
 * (kernel/co/cobj_swap_glue.c); a->result says how it went. */
void svc_kernel_swap(uint32_t index, const char cls[KM_CLASS_NAME], struct km_swap_answer *a);

/* ---- Threads ------------------------------------------------------------------------------- */
/* Blocks the calling thread while still_blocked(key) and clock_ns() < deadline_ns; true when
 * woken (by the kernel, waking the threads blocked on key). */
bool svc_block_until(const void *key, bool (*still_blocked)(const void *key), uint64_t deadline_ns);
/* Wakes every thread blocked on key; callable with interrupts off, from an interrupt too. */
void svc_wake_all(const void *key);
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

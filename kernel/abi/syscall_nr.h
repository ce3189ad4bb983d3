/* System call numbers, shared by the kernel and the C library (libc-instr). The number goes in
 * r0, arguments in r3-r8; the result comes back in r3, negative values being -errno. */
#ifndef KOV_SYSCALL_NR_H
#define KOV_SYSCALL_NR_H

#include "kov_limits.h"

#define SYS_EXIT      0   /* (status) */
#define SYS_WRITE     1   /* (fd, buf, len) -> bytes; fds 1 and 2 are the console */
#define SYS_GETPID    2   /* () -> pid */
#define SYS_SPAWN     3   /* (program name, argument string) -> pid */
#define SYS_WAIT      4   /* (pid, int *status) -> pid */
#define SYS_YIELD     5   /* () */
#define SYS_SBRK      6   /* (increment) -> previous break */
#define SYS_CLOCK     7   /* () -> nanoseconds since boot */
#define SYS_GETCPU    8   /* () -> CPU number */
#define SYS_MEMINFO   9   /* (what) -> MEMINFO_* figure */
#define SYS_THREAD_CREATE 10  /* (entry descriptor, arg, stack top, cpu) -> tid; cpu -1: any
                               * (the thread migrates), 0 .. THREAD_CPU_MAX - 1: pinned to that
                               * CPU if online, else any online CPU (a wish); other values
                               * -KOV_EINVAL */
#define SYS_THREAD_EXIT   11  /* (code): ends the calling thread */
#define SYS_THREAD_JOIN   12  /* (tid) -> its exit code */
#define SYS_FUTEX_WAIT    13  /* (addr, expected): sleeps while *addr == expected -> 0 */
#define SYS_FUTEX_WAKE    14  /* (addr, count) -> threads woken */
#define SYS_KM_SCAN       15  /* (struct scan_record *buf, max, struct scan_totals *) -> records
                               * written; privileged processes only (started by the kernel) */
#define SYS_CO_INIT       16  /* (default method table): user-level clustered objects */
#define SYS_CO_RESET      17  /* (LTT entry address): empty it on every CPU */
#define SYS_CO_SCANNER    18  /* (area, capacity in records): this process scans itself on
                               * request into area (struct scan_record[]) */
#define SYS_CO_SCAN_WAIT  19  /* () -> sleeps until the KM asks for a scan */
#define SYS_CO_SCAN_DONE  20  /* (records written) */
#define SYS_KM_INFO       21  /* (struct km_info *) -> 0; kernel/abi/km_abi.h */
#define SYS_KM_CATALOGUE  22  /* (struct km_event_info *buf, max) -> events in the catalogue */
#define SYS_KM_KSYMS      23  /* (buf, cap) -> size of the kernel symbol table (kernel/lib/
                               * ksyms.h layout); copied only when cap >= size */
#define SYS_FILE_READ     24  /* (file name, offset, buf, len) -> bytes read from the
                               * initial RAM disk file (0 at its end); any process */
#define SYS_KM_PROCESSES  25  /* (struct km_process *buf, max) -> live processes */
#define SYS_SOCKET        26  /* (domain, type, protocol) -> fd; sockets are fds >= 3 */
#define SYS_BIND          27  /* (fd, const struct sockaddr_in *, len) */
#define SYS_LISTEN        28  /* (fd, backlog) */
#define SYS_ACCEPT        29  /* (fd, struct sockaddr_in * or 0, u32 *len or 0) -> new fd */
#define SYS_CONNECT       30  /* (fd, const struct sockaddr_in *, len) */
#define SYS_SEND          31  /* (fd, buf, len, flags) -> bytes sent */
#define SYS_RECV          32  /* (fd, buf, len, flags) -> bytes received, 0 at end */
#define SYS_CLOSE         33  /* (fd) */
#define SYS_POLL          34  /* (struct pollfd *, n, timeout ms or -1) -> fds ready */
#define SYS_SETSOCKOPT    35  /* (fd, level, name, const void *val, len) */
#define SYS_SHUTDOWN      36  /* (fd, how) */
#define SYS_NETINFO       37  /* (struct km_netinfo *) -> 0, -ENODEV without a network */
#define SYS_GETSOCKNAME   38  /* (fd, struct sockaddr_in *, u32 *len, peer?) */
/* The KM's monitoring calls (kernel/include/kov_hooks.h; privileged processes only; records in km_abi.h). */
#define SYS_KM_CONFIGURE  39  /* (const struct km_config *, char *why, why_size) -> id */
#define SYS_KM_CONFIG_GET 40  /* (struct km_config *) -> 0 */
#define SYS_KM_CONTROL    41  /* (KM_CTL_START | KM_CTL_STOP) -> 0 */
#define SYS_KM_SAMPLES    42  /* (struct km_sample *, max) -> samples drained */
#define SYS_KM_COUNTS     43  /* (struct km_counts_head *, struct km_count *, max) -> records */
#define SYS_KM_LOST       44  /* (struct km_lost *, max) -> records */
#define SYS_KM_STATE      45  /* (struct km_state *) -> 0 */
#define SYS_KM_LOCK_AREA  46  /* (struct km_lock_area *) -> 0: where this process keeps its
                                 locks' statistics (any process; libc-instr does it at start) */
#define SYS_KM_LOCKS      47  /* (struct km_lock_record *, max) -> records (privileged) */
#define SYS_KM_INSTRUMENT 48  /* (pid, index or ~0 for all, on, what: 1 calls, 2 sleep
                                 locks, 3 full lock counting) -> 0 (privileged) */
#define SYS_CO_COUNT_CMD  49  /* () -> the KM's pending command for this process's runtime:
                                 1 << 62 | sleep locks << 61 | full lock counting << 60 |
                                 hot swap << 59 | on << 32 | index, or 0 for none */
#define SYS_KM_LOCK_OWNER 50  /* (lock) -> rep of the object whose method called (the innermost
                                 CO_METHOD frame on the caller's stack) if the lock lies in
                                 that rep, 0 for none */
#define SYS_KILL          51  /* (pid) -> 0: ends the process as a fatal fault would (status
                                 KILLED_STATUS); privileged callers, or the process's parent */
#define SYS_SCHED_SETAFFINITY 52  /* (tid or 0 for the caller, CPU mask: bit N = CPU N) -> 0; a
                                     thread of the caller's process; the mask must name an
                                     online CPU (-KOV_EINVAL); the thread moves there */
#define SYS_SCHED_GETAFFINITY 53  /* (tid or 0) -> its CPU mask */
#define SYS_KM_SWAP       54  /* (pid, object index, const char *class, struct km_swap_answer *)
                                 -> 0: the process's runtime tried to hot-swap the object to
                                 the class and says how it went in the answer (privileged;
                                 -ESRCH, -ENODEV without a runtime, -ETIMEDOUT, -ENOSYS for the
                                 kernel's objects) */
#define SYS_CO_SWAP_CMD   55  /* (char class[KM_CLASS_NAME] or 0, const struct km_swap_answer *
                                 or 0) -> the runtime's side of SYS_KM_SWAP: fetches the class
                                 the pending swap goes to, or reports how it went */
#define SYS_KM_THROTTLE   56  /* (struct km_throttle_io *) -> 0: reports the caller's own work
                                 on samples, sets the cost limit, returns the throttle's state
                                 and its events (privileged; -EINVAL for a limit over 10000) */
#define SYS_POWER         57  /* (POWER_OFF or POWER_REBOOT, POWER_MAGIC): powers the machine off
                                 or restarts it; does not return (privileged; -EINVAL for any
                                 other request or magic, -ENOSYS where the platform cannot) */
#define SYS_PLATFORM      58  /* (struct km_platform *) -> 0 (kernel/abi/km_abi.h) */
#define SYS_SCHED_SETCLASS 59 /* (tid or 0 for the caller, SCHED_CLASS_*) -> 0: a thread of the
                                 caller's process; the prompt class runs ahead of the normal
                                 one for up to half of each 100 ms of its CPU
                                 (kernel/proc/runqueue.h); privileged (-EPERM), -EINVAL for
                                 another class, -ESRCH for no such thread */
#define SYS_COUNT     60

#define SCHED_CLASS_NORMAL 0
#define SCHED_CLASS_PROMPT 1

#define POWER_OFF    1
#define POWER_REBOOT 2
#define POWER_MAGIC  0x4b4f5650u      /* "KOVP": a stray call with a random number does nothing */

#define KILLED_STATUS 137             /* the exit status of a killed process (128 + 9) */

/* The user LTT: the same address on every CPU, each CPU's own memory (kernel/mm/mmu.h). It has
 * user segment 13 to itself: a segment has one VSID per CPU, so nothing else may live there. */
#define USER_LTT_BASE 0xD0000000ull
#define USER_LTT_BYTES (256 * 1024ull)

/* CPU numbers a thread may name. */
#define THREAD_CPU_MAX KOV_MAX_CPUS

#define MEMINFO_FREE_PAGES  0   /* physical pages free (including empty heap pages kept) */
#define MEMINFO_PM_FRAMES   1   /* frames the page manager has handed out */
#define MEMINFO_HEAP_BLOCKS 2   /* kernel heap blocks in use */
#define MEMINFO_PROCESSES   3   /* live processes (ProcessAnnex) */
#define MEMINFO_CPUS        4   /* CPUs online, numbered 0 .. n - 1 */
#define MEMINFO_SOCKETS     5   /* sockets open, all processes together */
#define MEMINFO_HEAP_MARK   6   /* privileged: remember each kernel allocation site's live blocks */
#define MEMINFO_HEAP_REPORT 7   /* privileged: print the sites that differ from the mark; how many */
#define MEMINFO_ULTT_TABLES 8   /* user LTT tables: one per process and CPU its threads touched
                                   it on (threads migrate, so a process gains one on a CPU it
                                   first reaches) */
#define MEMINFO_HEAP_OWN    9   /* kernel heap blocks charged to the calling process: what its
                                   own threads allocated and nobody has freed yet */
#define MEMINFO_HEAP_UNOWNED 10 /* kernel heap blocks charged to no live process: the kernel's
                                   own and those that outlived the process that allocated them
                                   (a leak shows here; kernel/mm/kmem.h) */
#define MEMINFO_PAGES_ELSEWHERE 11 /* physical pages neither free nor held by the kernel heap or
                                   the page manager (handed out or cached): the devices' rings and
                                   the heap's descriptors, set at boot. A change means a page was
                                   lost or freed twice. Read with no page moving between
                                   counts, as is MEMINFO_FREE_PAGES; -KOV_EAGAIN if moves
                                   overlapped every try */

/* Error numbers (returned negated). */
#define KOV_EPERM   1
#define KOV_ENOENT  2
#define KOV_ESRCH   3
#define KOV_ECHILD  10
#define KOV_ENOMEM  12
#define KOV_EFAULT  14
#define KOV_EINVAL  22
#define KOV_ENOSYS  38
#define KOV_ENOEXEC 8
#define KOV_EBADF   9
#define KOV_EAGAIN  11
#define KOV_ENODEV  19
#define KOV_EMFILE  24
#define KOV_ENOTSOCK 88
#define KOV_ENOTSUP 95   /* the instrumentation asked for is compiled out of this image (kov_instr.h) */
#define KOV_EADDRINUSE 98
#define KOV_ECONNRESET 104
#define KOV_ENOTCONN 107
#define KOV_ETIMEDOUT 110
#define KOV_ECONNREFUSED 111
#define KOV_EINPROGRESS 115

#endif

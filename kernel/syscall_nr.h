/* System call numbers, shared by the kernel and the C library (libc-instr). The number goes in
 * r0, arguments in r3-r8; the result comes back in r3, negative values being -errno. */
#ifndef KOV_SYSCALL_NR_H
#define KOV_SYSCALL_NR_H

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
#define SYS_THREAD_CREATE 10  /* (entry descriptor, arg, stack top, cpu or -1) -> tid */
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
#define SYS_COUNT     21

/* The user LTT: the same address on every CPU, each CPU's own memory (kernel/mmu.h). It has
 * user segment 13 to itself: a segment has one VSID per CPU, so nothing else may live there. */
#define USER_LTT_BASE 0xD0000000ull
#define USER_LTT_BYTES (256 * 1024ull)

#define MEMINFO_FREE_PAGES  0   /* physical pages free (including empty heap pages kept) */
#define MEMINFO_PM_FRAMES   1   /* frames the page manager has handed out */
#define MEMINFO_HEAP_BLOCKS 2   /* kernel heap blocks in use */
#define MEMINFO_PROCESSES   3   /* live processes (ProcessAnnex) */

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

#endif

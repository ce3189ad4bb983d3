/* KOV's C library for user programs (libc-instr): system calls, console output, strings.
 * printf and friends use the same formatting code as the kernel (common/lib/format.c). */
#ifndef KOV_LIBC_H
#define KOV_LIBC_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

long __syscall(long nr, long a1, long a2, long a3, long a4, long a5);

void exit(int status) __attribute__((noreturn));
/* fds 1 and 2 are the console; write() is not buffered (it first writes what printf holds of
 * the calling thread's unfinished line). printf and puts are line-buffered per thread: a line
 * reaches the console whole, once its newline is printed; stdout_flush() writes an
 * unfinished one now (exit() and thread_exit() do). */
long write(int fd, const void *buf, size_t len);
void stdout_flush(void);
int getpid(void);
int spawn(const char *program, const char *args);
int wait_pid(int pid, int *status);
/* Ends process pid (status KILLED_STATUS): privileged programs any process, others their
 * children; 0 or a negative KOV_E* error. */
int kill(int pid);
/* Powers the machine off (POWER_OFF) or restarts it (POWER_REBOOT); returns only on refusal:
 * -KOV_EPERM unprivileged, -KOV_ENOSYS if the platform cannot. */
int power(int what);
void yield(void);
void *sbrk(long increment);
uint64_t clock_ns(void);
int getcpu(void);   /* where the caller runs now: threads migrate unless pinned */
/* The CPUs thread `tid` of this process (0: the caller) may run on, a bit per CPU: 0 or
 * -KOV_ESRCH (no such thread), -KOV_EINVAL (no online CPU in mask); the thread moves there. */
int sched_setaffinity(int tid, uint64_t mask);
long sched_getaffinity(int tid);   /* its mask, or -KOV_ESRCH */
/* Puts thread `tid` of this process (0: the caller) in SCHED_CLASS_NORMAL or
 * SCHED_CLASS_PROMPT (kernel/abi/syscall_nr.h): 0, or -KOV_EPERM (unprivileged), -KOV_EINVAL,
 * -KOV_ESRCH. */
int sched_setclass(int tid, int klass);
long meminfo(int what);   /* MEMINFO_* from kernel/abi/syscall_nr.h */

/* Threads: fn(arg) runs on `cpu`: -1 any CPU (it migrates as the load asks); 0 ..
 * THREAD_CPU_MAX - 1 (kernel/abi/syscall_nr.h) pinned to that CPU when it is online, else any
 * online CPU (a wish, so a program written for more CPUs runs on fewer); other numbers
 * -KOV_EINVAL. The stack comes from malloc. Returns the tid or
 * a negative error. */
int thread_create(void (*fn)(void *), void *arg, int cpu);
long thread_join(int tid);
void thread_exit(long code) __attribute__((noreturn));
long futex_wait(volatile uint32_t *addr, uint32_t expected);
long futex_wake(volatile uint32_t *addr, long count);

/* Spin locks (lwarx/stwcx., the same code as the kernel's) and sleep locks (mutexes) whose
 * waiters block in the kernel's blocked-thread queues. Every lock keeps lock statistics on its
 * contended path (contentions, wait and contended-hold times, waiters, CPU bounces, call
 * sites: kernel/abi/km_abi.h struct km_lock_stats) in a table the monitor reads; a lock belongs to
 * the object whose method first waited for it, unless the program names its owner. In an image
 * built without lock statistics (KOV_NO_LOCK_INSTR, kernel/abi/kov_instr.h) the locks keep
 * none: naming or monitoring a lock does nothing and returns 0 (so programs run unchanged),
 * spin_lock_stats returns 0, and the sleep-lock log records nothing. */
#include "common/lib/spinword.h"
/* A failed spin_trylock counts as a trylock failure in the lock's statistics. */
void spin_lock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
struct km_lock_stats;
struct mutex {
	volatile uint32_t locked, waiters;
	uint32_t logged, pad;
	struct km_lock_stats *stats;   /* set by mutex_monitor: every acquisition counted */
};
#define MUTEX_INIT { 0, 0, 0, 0, 0 }
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
/* Names the object (its rep, 0: none) a spin lock belongs to. 0, or -1 if the table is full. */
int spin_lock_owner(struct spinlock *l, const void *owner);
/* Counts every acquisition and hold of l from now on, as full counting does (the monitor's
 * switch turns it off again with the owner's other locks): names the owner, flags the record
 * and marks the word. 0, or -1 if the table is full. */
int spin_lock_monitor(struct spinlock *l, const void *owner);
/* The lock statistics record of l, 0 if it has none: for a program that checks the figures
 * of its own locks (lockbench). The holder writes them, so they are whole while it holds l. */
const struct km_lock_stats *spin_lock_stats(const struct spinlock *l);
/* Counts every acquisition and hold of m (not only the contended ones), attributed to the
 * object whose rep is `owner` (0: none). Costs a load and a branch per lock and unlock while
 * not monitored. Returns 0, or -1 when the process's lock table is full. */
int mutex_monitor(struct mutex *m, const void *owner);
/* Stops (paused 1) or resumes keeping the figures of the monitored mutexes owned by `owner`
 * (0: all of them); the KM asks for it through the runtime (INSTRUMENT sleep locks). */
void mutex_monitor_pause(const void *owner, int paused);

/* Condition variables for mutexes: wait releases the mutex and sleeps until a signal or
 * broadcast after it started waiting (or spuriously: callers re-check their condition). */
struct cond { volatile uint32_t seq; };
#define COND_INIT { 0 }
void cond_wait(struct cond *c, struct mutex *m);
void cond_signal(struct cond *c);
void cond_broadcast(struct cond *c);

/* Sleep-lock event log (the monitor's queue-length and waiter view): while a log is installed,
 * mutexes with `logged` set record each thread that starts waiting (ENQUEUE) and each waiter
 * that gets the lock (DEQUEUE). Nothing is recorded, and the uncontended path is unchanged,
 * while no log is installed. */
enum { LOCK_EVENT_ENQUEUE = 1, LOCK_EVENT_DEQUEUE = 2 };
struct lock_event { uint64_t ns; uint64_t lock; uint32_t thread; uint32_t kind; };
struct lock_log {
	struct lock_event *events;
	uint32_t capacity;
	volatile uint32_t next;        /* events written (or attempted: more than capacity = lost) */
};
void lock_log_install(struct lock_log *log);   /* 0 to stop */
int thread_self_id(void);                       /* a small per-process thread number */

/* A thread-safe heap on sbrk. */
void *malloc(size_t size);
void free(void *p);

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int snprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int puts(const char *s);

size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
void *memcpy(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
int strncmp(const char *a, const char *b, size_t n);
size_t strnlen(const char *s, size_t max);

#endif

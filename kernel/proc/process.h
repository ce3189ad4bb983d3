/* Processes (K42's Process object) and the ProcessAnnex that lists the live ones. A process
 * has one address space (a HAT and its Regions), an ELF program from the initial RAM disk
 * (an FR), and, for now, one thread. */
#ifndef KOV_PROCESS_H
#define KOV_PROCESS_H

#include <stdint.h>
#include <stdbool.h>
#include "common/co/cobj.h"
#include "../arch/percpu.h"
#include "thread.h"
#include "../abi/km_abi.h"

#define MAX_REGIONS 8
#define MAX_PROCESSES 1024
#define MAX_THREADS 64
#define PROC_MAX_SOCKETS 160           /* user fds 3.. (kernel/net/sockets.c) */

enum process_state { PROC_RUNNING, PROC_ZOMBIE };

struct process;
struct km_proc;
struct process_ops {
	/* Resolves a page fault at ea: 0, or -errno if no region allows the access. */
	long (*fault)(struct process *p, uint64_t ea, bool write);
	/* Moves the break by incr bytes; returns the old break or -errno. */
	long (*sbrk)(struct process *p, long incr);
};

/* A process runtime's scanner thread (co_scanner.c). */
struct co_scanner {
	uint64_t area;                     /* where the runtime writes its records (0: no scanner) */
	uint32_t cap;                      /* records that fit there */
	volatile uint32_t requested, done, count;   /* request and answer sequence, records written */
	volatile uint64_t cmd;             /* pending SYS_CO_COUNT_CMD answer, 0 for none */
	char swap_to[KM_CLASS_NAME];       /* a pending hot swap's class (SYS_KM_SWAP) */
	struct km_swap_answer swap_answer; /* ... and how it went */
};

struct process {
	const struct process_ops *ops;
	struct spinlock lock;
	coid_t self, hat, fr;
	uint32_t pid, ppid;
	bool privileged;                   /* init, and what the kernel or init started */
	char name[32];
	coid_t regions[MAX_REGIONS];
	uint64_t region_start[MAX_REGIONS], region_end[MAX_REGIONS];
	unsigned int nregions;
	uint64_t heap_start, brk, heap_end;
	uint64_t ctx;                      /* VSID context */
	volatile enum process_state state;
	long status;
	struct thread *thread;             /* the main thread */
	struct thread *threads[MAX_THREADS];   /* further threads, by slot (tid in t->tid); a
	                                          thread stays listed until joined and freed */
	uint64_t joining;                  /* slots a thread_join waits on (one joiner each) */
	volatile uint32_t live_threads;    /* running user threads, the main one included */
	volatile bool exiting;
	uint64_t co_default_ops;           /* user runtime's default method table, 0 before co_init */
	coid_t ultt[MAX_CPUS];             /* FCM of each CPU's user LTT, made on first touch */
	struct co_scanner scanner;         /* the monitor's requests to its runtime (co_scanner.c) */
	uint64_t entry, toc, sp, argc, argv;   /* initial user state */
	int32_t sockets[PROC_MAX_SOCKETS];     /* lwIP socket + 1 per fd, 0 free */
	struct km_proc *km;                    /* the monitor's state for it (kernel/include/kov_hooks.h hooks) */
	unsigned heap_account;                 /* what its threads allocate is charged to (kmem.h);
	                                          what spawn allocates for it, to the spawner */
	volatile uint32_t refs;                /* svc_process_get references: not freed before 0 */
};

struct annex;
struct annex_ops {
	bool (*add)(struct annex *a, coid_t process);
	void (*remove)(struct annex *a, coid_t process);
	coid_t (*find)(struct annex *a, uint32_t pid);
	uint32_t (*count)(struct annex *a);
};
struct annex {
	const struct annex_ops *ops;
	struct spinlock lock;
	coid_t procs[MAX_PROCESSES];
	uint32_t n;
};
extern coid_t process_annex;
/* Creates the ProcessAnnex (annex.c); from process_init. */
void annex_init(void);

void process_init(void);
struct km_process;
/* Describes up to max live processes (kernel/abi/km_abi.h); returns how many there are. */
uint32_t process_list(struct km_process *out, uint32_t max);
/* Starts `program` from the initial RAM disk with a comma-separated argument string.
 * Returns the pid or -errno. */
long process_spawn(const char *program, const char *args, uint32_t ppid);
/* Waits for child pid of parent ppid to exit; frees it; returns its status via *status. */
long process_wait(uint32_t pid, uint32_t ppid, long *status);
/* SYS_KILL: ends process pid (its threads leave at their next kernel entry or wake-up) with
 * KILLED_STATUS. Privileged callers may kill any process, others only their children. */
long process_kill(uint32_t pid);
/* Ends the calling thread's process (its other threads end at their next kernel entry). */
void process_exit(long status) __attribute__((noreturn));
/* Closes every socket of a process that is going away (kernel/net/sockets.c). */
void net_process_exit(struct process *p);
/* Starts another thread in the calling process at the user function descriptor `entry` with
 * r3 = arg and the given stack; returns its tid or -errno. */
long process_thread_create(uint64_t entry, uint64_t arg, uint64_t stack_top, long cpu);
void process_thread_exit(long code) __attribute__((noreturn));
long process_thread_join(uint32_t tid);
/* User-level clustered objects: registers the runtime's default method table (once), and
 * empties the LTT entry at entry_va on every CPU (after the runtime destroyed the object). */
long process_co_init(uint64_t default_ops);
long process_co_reset(uint64_t entry_va);
/* The runtime's scanner (co_scanner.c): registration, waiting for a request, fetching its
 * command, answering. */
long process_co_scanner(uint64_t area, uint64_t cap);
long process_co_scan_wait(void);
long process_co_count_cmd(void);
long process_co_scan_done(uint64_t count);
long process_co_swap_cmd(uint64_t class_out, uint64_t answer_in);
/* Reading another process's memory (the monitor, through kernel/include/kov_services.h). Neither
 * allocates anything in p, and neither may be called with the process table locked (the copy
 * can be long and takes p's FCM locks: it traps): hold a reference instead. process_read
 * copies len bytes at user address uaddr into dst, -KOV_EFAULT when a page of it was never
 * touched; process_peek reads such pages as zeros. 0 or -errno. */
long process_read(struct process *p, uint64_t uaddr, void *dst, uint64_t len);
long process_peek(struct process *p, uint64_t uaddr, void *dst, uint64_t len);
/* Whether this CPU holds the process table's lock (the readers' guard). */
bool process_table_locked_here(void);
/* Calls fn for every live process, with the process table locked (fn must not block). */
void process_for_each(void (*fn)(struct process *p, void *arg), void *arg);
/* Called on the way back to user mode: ends the thread if its process is exiting. */
void process_check_exit(void);
struct process *current_process(void);
/* MEMINFO_ULTT_TABLES: user LTT tables of live processes. */
uint32_t process_ultt_tables(void);
/* SYS_SCHED_SETAFFINITY / GETAFFINITY: a thread of the caller's process (tid 0: the caller). */
long process_set_affinity(uint64_t tid, uint64_t mask);
long process_get_affinity(uint64_t tid);
/* SYS_SCHED_SETCLASS: puts a thread of the caller's process in a SCHED_CLASS_*. */
long process_set_class(uint64_t tid, uint64_t klass);

#endif

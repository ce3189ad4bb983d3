#include "process.h"
#include "exec.h"
#include "../abi/km_abi.h"
#include "../mem/vm.h"
#include "../mm/kmem.h"
#include "kernel/arch/console.h"
#include "../arch/platform.h"
#include "../arch/percpu.h"
#include "../abi/syscall_nr.h"
#include "../arch/cpu.h"
#include "../mm/uaccess.h"
#include "kernel/include/kov_hooks.h"
#include "kernel/include/kov_services.h"
#include <stddef.h>
#include "common/lib/string.h"

_Static_assert(THREAD_CPU_MAX == MAX_CPUS, "user programs name CPUs 0 .. MAX_CPUS - 1");

#define MAX_CONTEXTS 0xBFF

#define THREAD_SLOT_BUSY ((struct thread *)1)   /* a thread slot being created */
static uint32_t next_pid = 1;
static struct spinlock ctx_lock;
static uint8_t ctx_used[MAX_CONTEXTS + 1];
static uint32_t ctx_next = 1;
static volatile uint32_t ultt_tables;   /* MEMINFO_ULTT_TABLES */

uint32_t process_ultt_tables(void)
{
	return __atomic_load_n(&ultt_tables, __ATOMIC_RELAXED);
}

/* ---- Process -------------------------------------------------------------------------- */
/* A fault in the user LTT: this CPU's table, created with empty entries on first touch. */
static long ultt_fault(struct process *p, uint64_t ea)
{
	unsigned cpu = this_cpu()->index;
	if (!p->co_default_ops)
		return -KOV_EFAULT;   /* the runtime has not said where its default table is */
	spin_lock(&p->lock);
	if (!p->ultt[cpu] && (p->ultt[cpu] = fcm_create_ltt(ULTT_BASE, p->co_default_ops)))
		__atomic_add_fetch(&ultt_tables, 1, __ATOMIC_RELAXED);
	coid_t fcm = p->ultt[cpu];
	spin_unlock(&p->lock);
	uint64_t page = ea & ~(PAGE_SIZE - 1);
	uint64_t pa = fcm ? CO_CALL(struct fcm, fcm, get_page, page - ULTT_BASE) : 0;
	if (!pa)
		return -KOV_ENOMEM;
	return CO_CALL(struct hat, p->hat, map, page, pa, PROT_READ | PROT_WRITE) ? 0 : -KOV_ENOMEM;
}

long process_co_init(uint64_t default_ops)
{
	struct process *p = current_process();
	if (!user_range_ok(default_ops, 8 * CO_MAX_METHODS) || (default_ops & 7))
		return -KOV_EFAULT;
	uint64_t expected = 0;
	return __atomic_compare_exchange_n(&p->co_default_ops, &expected, default_ops, false,
					   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE) ? 0 : -KOV_EINVAL;
}

/* Index of the region containing ea, or -1. */
static int region_of(const struct process *p, uint64_t ea)
{
	for (unsigned i = 0; i < p->nregions; i++)
		if (ea >= p->region_start[i] && ea < p->region_end[i])
			return (int)i;
	return -1;
}

/* Copies user memory of p page by page, from the frames its FCMs already hold: a page the
 * process has not touched is an error (read) or reads as zeros (peek), never allocated. A
 * caller holding the process table's lock would nest p's FCM locks under it and keep every
 * spawn and exit waiting for the copy: that is a bug, stopped here with a trap (the panic
 * report names the caller). */
static long copy_from_process(struct process *p, uint64_t uaddr, void *dst, uint64_t len, bool peek)
{
	if (process_table_locked_here())
		__builtin_trap();
	uint8_t *out = dst;
	while (len) {
		uint64_t page = uaddr & ~(PAGE_SIZE - 1), n = PAGE_SIZE - (uaddr - page);
		if (n > len)
			n = len;
		int i = region_of(p, uaddr);
		struct region *r = i >= 0 ? co_rep(p->regions[i]) : 0;
		if (!r)
			return -KOV_EFAULT;
		uint64_t pa = CO_CALL(struct fcm, r->fcm, peek_page, page - r->start);
		if (pa)
			memcpy(out, (uint8_t *)kernel_ptr(pa) + (uaddr - page), n);
		else if (peek)
			memset(out, 0, n);
		else
			return -KOV_EFAULT;
		out += n;
		uaddr += n;
		len -= n;
	}
	return 0;
}

long process_read(struct process *p, uint64_t uaddr, void *dst, uint64_t len)
{
	return copy_from_process(p, uaddr, dst, len, false);
}

long process_peek(struct process *p, uint64_t uaddr, void *dst, uint64_t len)
{
	return copy_from_process(p, uaddr, dst, len, true);
}

long process_co_reset(uint64_t entry_va)
{
	struct process *p = current_process();
	if (entry_va < ULTT_BASE || entry_va >= ULTT_BASE + ULTT_BYTES || (entry_va & 15))
		return -KOV_EINVAL;
	uint64_t off = entry_va - ULTT_BASE;
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++) {
		coid_t fcm = p->ultt[cpu];
		uint64_t pa = fcm ? CO_CALL(struct fcm, fcm, peek_page, off) : 0;
		if (pa)
			ltt_fill_entry(kernel_ptr(pa), ULTT_BASE + (off & ~(PAGE_SIZE - 1)),
				       off & (PAGE_SIZE - 1), p->co_default_ops);
	}
	sync();
	return 0;
}

CO_METHOD(long, process_fault, struct process *p, uint64_t ea, bool write)
{
	if (ea >= ULTT_BASE && ea < ULTT_BASE + ULTT_BYTES)
		return ultt_fault(p, ea);
	int i = region_of(p, ea);
	if (i < 0 || (p->heap_end == p->region_end[i] && ea >= p->brk))
		return -KOV_EFAULT;   /* no region, or above the break: not yet part of the heap */
	return CO_CALL(struct region, p->regions[i], fault, ea, write, p->hat);
}

CO_METHOD(long, process_sbrk, struct process *p, long incr)
{
	spin_lock(&p->lock);
	uint64_t old = p->brk, new = old + (uint64_t)incr;
	long rc = (long)old;
	if (new < p->heap_start || new > p->heap_end)
		rc = -KOV_ENOMEM;
	else
		p->brk = new;
	spin_unlock(&p->lock);
	return rc;
}

static int process_children(void *rep, coid_t *children, int max)
{
	struct process *p = rep;
	int n = 0;
	if (n < max)
		children[n] = p->hat;
	n++;
	for (unsigned i = 0; i < p->nregions; i++, n++)
		if (n < max)
			children[n] = p->regions[i];
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (p->ultt[i]) {
			if (n < max)
				children[n] = p->ultt[i];
			n++;
		}
	return n;
}

static const struct process_ops process_ops = { process_fault, process_sbrk };
const struct co_class process_class = { "Process", &process_ops, 2, process_children };

void process_init(void)
{
	annex_init();
	co_register_class(&process_class);
	vm_register_classes();
	pm_init();
}

struct process *current_process(void)
{
	struct thread *t = current_thread();
	return t ? t->proc : 0;
}

static uint64_t alloc_context(void)
{
	uint64_t ctx = 0;
	spin_lock(&ctx_lock);
	for (uint32_t n = 0; n < MAX_CONTEXTS && !ctx; n++) {
		uint32_t c = ctx_next;
		ctx_next = ctx_next % MAX_CONTEXTS + 1;
		if (!ctx_used[c]) {
			ctx_used[c] = 1;
			ctx = c;
		}
	}
	spin_unlock(&ctx_lock);
	return ctx;
}

static void free_context(uint64_t ctx)
{
	spin_lock(&ctx_lock);
	ctx_used[ctx] = 0;
	spin_unlock(&ctx_lock);
}

static void destroy_address_space(struct process *p)
{
	if (p->hat) {
		CO_CALL(struct hat, p->hat, unmap_all);
		co_destroy(p->hat);
	}
	for (unsigned i = 0; i < p->nregions; i++) {
		struct region *r = co_rep(p->regions[i]);
		CO_CALL(struct fcm, r->fcm, release);
		co_destroy(r->fcm);
		co_destroy(p->regions[i]);
	}
	p->nregions = 0;
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (p->ultt[i]) {
			CO_CALL(struct fcm, p->ultt[i], release);
			co_destroy(p->ultt[i]);
			p->ultt[i] = 0;
			__atomic_sub_fetch(&ultt_tables, 1, __ATOMIC_RELAXED);
		}
	if (p->fr)
		co_destroy(p->fr);
	if (p->ctx)
		free_context(p->ctx);
}

/* Everything a process holds besides its own memory (freed when its object is reclaimed). */
static void release_process(struct process *p)
{
	destroy_address_space(p);
	km_process_free(p->km);
	p->km = 0;
	kmem_account_close(p->heap_account);   /* none of its threads runs any more */
	p->heap_account = KMEM_KERNEL;
}

static bool has_refs(const void *key)
{
	return __atomic_load_n((const volatile uint32_t *)key, __ATOMIC_ACQUIRE) != 0;
}

/* Takes p out of the annex: no new reference (svc_process_get) can be taken then, and the
 * monitor lets go of the old ones within its scan timeout. */
static void leave_annex(struct process *p)
{
	CO_CALL(struct annex, process_annex, remove, p->self);
	while (__atomic_load_n(&p->refs, __ATOMIC_ACQUIRE))
		thread_block_until((const void *)&p->refs, has_refs, clock_ns() + 1000000);
}

long process_spawn(const char *program, const char *args, uint32_t ppid)
{
	struct process *p = kmalloc(sizeof *p);
	if (!p)
		return -KOV_ENOMEM;
	p->ops = &process_ops;
	p->km = km_process_new();
	if (!p->km) {
		kfree(p);
		return -KOV_ENOMEM;
	}
	size_t n = strlen(program);
	memcpy(p->name, program, n < sizeof p->name - 1 ? n : sizeof p->name - 1);
	p->ppid = ppid;
	long rc = -KOV_ENOENT;
	p->fr = fr_create(program);
	if (!p->fr)
		goto fail;
	rc = -KOV_ENOMEM;
	p->ctx = alloc_context();
	p->hat = p->ctx ? hat_create(p->ctx) : 0;
	if (!p->hat)
		goto fail;
	rc = exec_load(p, program, args);
	if (rc)
		goto fail;
	rc = -KOV_ENOMEM;
	p->self = co_new_single(&process_class, p);
	if (!p->self)
		goto fail;
	p->pid = __atomic_fetch_add(&next_pid, 1, __ATOMIC_RELAXED);
	struct process *parent = current_process();
	p->privileged = ppid == 0 || (parent && strcmp(parent->name, "init") == 0 && parent->ppid == 0);
	if (!CO_CALL(struct annex, process_annex, add, p->self)) {
		co_destroy(p->self);   /* frees p when reclaimed */
		release_process(p);
		return -KOV_ENOMEM;
	}
	p->live_threads = 1;
	p->heap_account = kmem_account_open();
	p->thread = thread_create_user(p->name, exec_user_start, p, -1, p, p->ctx);
	if (!p->thread) {
		leave_annex(p);
		co_destroy(p->self);
		release_process(p);
		return -KOV_ENOMEM;
	}
	return p->pid;
fail:
	release_process(p);
	kfree(p);
	return rc;
}

/* The calling user thread ends; the last one to go makes the process a zombie. */
__attribute__((noreturn)) static void thread_leaves(struct process *p, long code)
{
	if (__atomic_sub_fetch(&p->live_threads, 1, __ATOMIC_ACQ_REL) == 0) {
		net_process_exit(p);
		__atomic_store_n(&p->state, PROC_ZOMBIE, __ATOMIC_RELEASE);
		thread_wake_all(p);
	}
	thread_exit(code);
}

/* What t sleeps on in the kernel, or 0 (under p->lock: a listed thread is not freed). */
static const void *sleeping_on(const struct thread *t)
{
	return t && t != THREAD_SLOT_BUSY && t->state == THREAD_BLOCKED ? t->wait_key : 0;
}

/* Wakes the process's threads that sleep in the kernel, so they notice the exit; threads
 * being joined among them (a joiner waits for its thread's exit, which this brings). */
static void wake_sleepers(struct process *p)
{
	const void *keys[MAX_THREADS + 1];
	unsigned n = 0;
	spin_lock(&p->lock);
	/* The main thread may run (and exit) before its creator has stored it. */
	if ((keys[n] = sleeping_on(p->thread)))
		n++;
	for (unsigned i = 0; i < MAX_THREADS; i++)
		if ((keys[n] = sleeping_on(p->threads[i])))
			n++;
	spin_unlock(&p->lock);
	for (unsigned i = 0; i < n; i++)
		thread_wake_all(keys[i]);
}

void process_exit(long status)
{
	struct process *p = current_process();
	if (!__atomic_exchange_n(&p->exiting, true, __ATOMIC_ACQ_REL)) {
		p->status = status;
		wake_sleepers(p);
	}
	thread_leaves(p, status);
}

long process_kill(uint32_t pid)
{
	struct process *self = current_process();
	coid_t c = pid ? CO_CALL(struct annex, process_annex, find, pid) : 0;
	if (!c)
		return -KOV_ESRCH;
	struct process *p = co_rep(c);
	if (!self || (!self->privileged && p->ppid != self->pid))
		return -KOV_EPERM;
	if (!__atomic_exchange_n(&p->exiting, true, __ATOMIC_ACQ_REL)) {
		p->status = KILLED_STATUS;
		kprintf("kov: pid %u (%s) killed by pid %u (%s)\n", p->pid, p->name, self->pid, self->name);
		wake_sleepers(p);   /* its running threads leave at their next kernel entry */
	}
	return 0;
}

void process_check_exit(void)
{
	struct process *p = current_process();
	if (p && __atomic_load_n(&p->exiting, __ATOMIC_ACQUIRE))
		thread_leaves(p, p->status);
}

long process_thread_create(uint64_t udesc, uint64_t arg, uint64_t stack_top, long cpu)
{
	struct process *p = current_process();
	uint64_t desc[2];
	if (copy_from_user(desc, udesc, sizeof desc))
		return -KOV_EFAULT;
	if (!user_range_ok(desc[0], 4) || (stack_top & 15) || !user_range_ok(stack_top - 4096, 4096))
		return -KOV_EINVAL;
	/* A CPU number is a wish: one that is not online (or not present on this machine) gets
	 * any online CPU, as -1 does (thread_create_user), so a program written for a bigger
	 * machine still runs. Only numbers no machine can have are refused. */
	if (cpu < -1 || cpu >= THREAD_CPU_MAX)
		return -KOV_EINVAL;
	struct user_thread_start *u = kmalloc(sizeof *u);
	if (!u)
		return -KOV_ENOMEM;
	*u = (struct user_thread_start){ desc[0], desc[1], stack_top - 128, arg };
	spin_lock(&p->lock);
	int slot = -1;
	for (int i = 0; i < MAX_THREADS && slot < 0; i++)
		if (!p->threads[i])
			slot = i;
	if (slot >= 0)
		p->threads[slot] = THREAD_SLOT_BUSY;   /* reserved until created */
	spin_unlock(&p->lock);
	if (slot < 0) {
		kfree(u);
		return -KOV_EAGAIN;
	}
	__atomic_add_fetch(&p->live_threads, 1, __ATOMIC_ACQ_REL);
	struct thread *t = thread_create_user(p->name, exec_user_thread_start, u, (int)cpu, p, p->ctx);
	if (!t) {
		__atomic_sub_fetch(&p->live_threads, 1, __ATOMIC_ACQ_REL);
		p->threads[slot] = 0;
		kfree(u);
		return -KOV_ENOMEM;
	}
	p->threads[slot] = t;
	return t->tid;
}

void process_thread_exit(long code)
{
	thread_leaves(current_process(), code);
}

/* The caller's process's thread `tid` (0: the caller), under p->lock; 0 if none. */
static struct thread *thread_of(struct process *p, uint32_t tid)
{
	if (tid == 0)
		return current_thread();
	if (p->thread && p->thread->tid == tid)
		return p->thread;
	for (int i = 0; i < MAX_THREADS; i++)
		if (p->threads[i] && p->threads[i] != THREAD_SLOT_BUSY && p->threads[i]->tid == tid)
			return p->threads[i];
	return 0;
}

long process_set_affinity(uint64_t tid, uint64_t mask)
{
	struct process *p = current_process();
	uint32_t online = 0;
	for (unsigned c = 0; c < MAX_CPUS; c++)
		if (percpu_area[c].online)
			online |= 1u << c;
	if (tid > UINT32_MAX)
		return -KOV_ESRCH;
	if (mask >> MAX_CPUS || !(mask & online))
		return -KOV_EINVAL;
	spin_lock(&p->lock);
	struct thread *t = thread_of(p, (uint32_t)tid);
	if (t)
		thread_set_affinity(t, (uint32_t)mask);
	spin_unlock(&p->lock);
	if (!t)
		return -KOV_ESRCH;
	if (t == current_thread() && !(mask & (1u << this_cpu()->index)))
		thread_yield();   /* leaves this CPU now */
	return 0;
}

long process_set_class(uint64_t tid, uint64_t klass)
{
	struct process *p = current_process();
	if (!p->privileged)
		return -KOV_EPERM;
	if (klass != SCHED_CLASS_NORMAL && klass != SCHED_CLASS_PROMPT)
		return -KOV_EINVAL;
	if (tid > UINT32_MAX)
		return -KOV_ESRCH;
	spin_lock(&p->lock);
	struct thread *t = thread_of(p, (uint32_t)tid);
	if (t)
		t->prompt = klass == SCHED_CLASS_PROMPT;   /* taken into account from its next wake-up or tick */
	spin_unlock(&p->lock);
	return t ? 0 : -KOV_ESRCH;
}

long process_get_affinity(uint64_t tid)
{
	struct process *p = current_process();
	if (tid > UINT32_MAX)
		return -KOV_ESRCH;
	spin_lock(&p->lock);
	struct thread *t = thread_of(p, (uint32_t)tid);
	long mask = t ? (long)t->affinity : -KOV_ESRCH;
	spin_unlock(&p->lock);
	return mask;
}

long process_thread_join(uint32_t tid)
{
	struct process *p = current_process();
	struct thread *t = 0;
	int slot = -1;
	spin_lock(&p->lock);
	for (int i = 0; i < MAX_THREADS && slot < 0; i++)
		if (p->threads[i] && p->threads[i] != THREAD_SLOT_BUSY &&
		    !(p->joining & (1ull << i)) && p->threads[i]->tid == tid) {
			slot = i;
			t = p->threads[i];
		}
	if (t && t != current_thread())
		p->joining |= 1ull << slot;   /* one joiner only */
	spin_unlock(&p->lock);
	if (!t)
		return -KOV_ESRCH;
	if (t == current_thread())
		return -KOV_EINVAL;
	/* Listed while it is waited for, so that an exit of the process wakes it (wake_sleepers);
	 * unlisted before it is freed. */
	thread_wait_reaped(t);
	spin_lock(&p->lock);
	p->threads[slot] = 0;
	p->joining &= ~(1ull << slot);
	spin_unlock(&p->lock);
	return thread_free(t);
}

static bool still_running(const void *key)
{
	return ((const struct process *)key)->state != PROC_ZOMBIE;
}

/* Takes an exited thread off the process's list, then joins it: a kill's wake_sleepers may
 * still be looking at the list, and finds no freed thread there. */
static void join_unlisted(struct process *p, struct thread **slot)
{
	spin_lock(&p->lock);
	struct thread *t = *slot;
	*slot = 0;
	spin_unlock(&p->lock);
	if (t && t != THREAD_SLOT_BUSY)
		thread_join(t);
}

long process_wait(uint32_t pid, uint32_t ppid, long *status)
{
	coid_t c = CO_CALL(struct annex, process_annex, find, pid);
	if (!c)
		return -KOV_ECHILD;
	struct process *p = co_rep(c);
	if (p->ppid != ppid)
		return -KOV_ECHILD;
	while (still_running(p)) {
		struct process *self = current_process();
		if (self && self->exiting)
			return -KOV_ESRCH;   /* we are going away ourselves */
		thread_block_on(p, still_running);
	}
	/* The exit is complete once every thread is reaped. */
	join_unlisted(p, &p->thread);
	for (unsigned i = 0; i < MAX_THREADS; i++)
		join_unlisted(p, &p->threads[i]);
	*status = p->status;
	leave_annex(p);
	release_process(p);
	co_destroy(c);
	co_reclaim();   /* whatever earlier exits left behind and every CPU has let go of */
	return (long)pid;
}

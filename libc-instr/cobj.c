/* The user-level clustered-object runtime (see include/cobj.h). */
#include "kov.h"
#include "common/co/cobj.h"
#include "common/co/co_count.h"
#include "common/co/co_swap.h"
#include "uthread.h"
#include "locks.h"
#include "../kernel/abi/syscall_nr.h"
#include "../kernel/abi/scan.h"
#include "../kernel/abi/km_abi.h"

extern const void *const co_default_ops[];

_Static_assert(UTHREAD_MAX <= CO_SEEN_MAX, "quiescence snapshots must hold every thread");

static struct spinlock init_lock;
static int initialised;


#define SCAN_CAPACITY 1024

static void copy_str(char *dst, size_t n, const char *src)
{
	size_t len = strlen(src);
	if (len > n - 1)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = 0;
}

/* Answers the KM's scan requests: every live object of this process's runtime. */
static uint32_t scan_self(struct scan_record *out, uint32_t cap)
{
	uint32_t n = 0;
	for (uint32_t i = 1; i < co_index_limit() && n < cap; i++) {
		const struct gtt_entry *g = co_gtt(i);
		/* Acquire: another thread may be creating it (co_create publishes the root first). */
		if (__atomic_load_n(&g->state, __ATOMIC_ACQUIRE) != CO_LIVE)
			continue;
		struct scan_record *r = &out[n++];
		memset(r, 0, sizeof *r);
		struct co_root *root = g->root;
		r->index = i;
		r->generation = g->generation;
		r->root = (uint64_t)root;
		copy_str(r->class_name, sizeof r->class_name, root->cls->name);
		void *any = 0;
		for (unsigned c = 0; c < SCAN_MAX_CPUS && c < CO_MAX_CPUS; c++) {
			r->reps[c] = (uint64_t)root->reps[c];
			if (!any)
				any = root->reps[c];
		}
		if (root->cls->get_children && any) {
			coid_t kids[SCAN_MAX_CHILDREN];
			int k = root->cls->get_children(any, kids, SCAN_MAX_CHILDREN);
			r->nchildren = k > 0 ? (uint32_t)k : 0;
			for (int j = 0; j < k && j < SCAN_MAX_CHILDREN; j++)
				r->children[j] = co_index(kids[j]);
		}
		if (root->counting) {
			r->flags |= SCAN_COUNTED;
			r->invocations = co_count(co_from_index(i));
		}
		if (root->kind == CO_PER_CPU_REPS)
			r->flags |= SCAN_PER_CPU;
	}
	return n;
}

/* A rep of a live object of this process? */
static bool live_rep(uint64_t rep)
{
	for (uint32_t i = 1; i < co_index_limit(); i++)
		if (co_gtt(i)->state == CO_LIVE)
			for (unsigned c = 0; c < CO_MAX_CPUS; c++)
				if ((uint64_t)co_gtt(i)->root->reps[c] == rep)
					return true;
	return false;
}

/* The KM's hot-swap request (SYS_KM_SWAP): object `index` to the class the kernel holds; the
 * answer goes back before the scan that follows answers the request. */
static void swap_command(uint32_t index)
{
	struct km_swap_answer a = { .result = CO_SWAP_NOT_LIVE };
	if (__syscall(SYS_CO_SWAP_CMD, (long)a.to, 0, 0, 0, 0) != 0)
		return;
	co_swap_requested(index, &a);
	__syscall(SYS_CO_SWAP_CMD, 0, (long)&a, 0, 0, 0);
}

/* The KM's instrumenting command, if one is pending (kov/km.c): index (all: ~0), on/off, and
 * what: invocation counting, the monitored mutexes' figures (bit 61) or full lock counting
 * (bit 60) of the object(s); or a hot swap (bit 59). */
static void count_command(void)
{
	long cmd = __syscall(SYS_CO_COUNT_CMD, 0, 0, 0, 0, 0);
	if (cmd <= 0)
		return;
	uint32_t index = (uint32_t)cmd, on = (uint32_t)(cmd >> 32) & 1;
	if (cmd & (1l << 59)) {
		swap_command(index);
		return;
	}
	if (cmd & (3l << 60)) {   /* locks: those owned by the object(s) */
		const void *owner = 0;
		if (index != 0xFFFFFFFFu && index < co_index_limit() && co_gtt(index)->state == CO_LIVE)
			for (unsigned c = 0; c < CO_MAX_CPUS && !owner; c++)
				owner = co_gtt(index)->root->reps[c];
		if (index != 0xFFFFFFFFu && !owner)
			return;
		if (cmd & (1l << 61))
			mutex_monitor_pause(owner, !on);
		else
			__lock_full_counting(owner, live_rep, on);
		return;
	}
	for (uint32_t i = 1; i < co_index_limit(); i++) {
		if ((index != 0xFFFFFFFFu && i != index) || co_gtt(i)->state != CO_LIVE)
			continue;
		if (on)
			co_count_enable(co_from_index(i));
		else
			co_count_disable(co_from_index(i));
	}
}

static void scanner(void *arg)
{
	struct scan_record *area = arg;
	for (;;) {
		uthread_park(__builtin_frame_address(0));
		long rc = __syscall(SYS_CO_SCAN_WAIT, 0, 0, 0, 0, 0);
		uthread_unpark();
		if (rc < 0)
			thread_exit(0);
		count_command();
		__syscall(SYS_CO_SCAN_DONE, scan_self(area, SCAN_CAPACITY), 0, 0, 0, 0);
	}
}

bool co_runtime_prepare(void)
{
	if (__atomic_load_n(&initialised, __ATOMIC_ACQUIRE))
		return true;
	spin_lock(&init_lock);
	long rc = initialised ? 0 : __syscall(SYS_CO_INIT, (long)co_default_ops, 0, 0, 0, 0);
	if (rc == 0)
		__atomic_store_n(&initialised, 1, __ATOMIC_RELEASE);
	spin_unlock(&init_lock);
	if (rc != 0)
		return false;
	/* The runtime answers the KM's scans from a thread of its own. */
	struct scan_record *area = malloc(SCAN_CAPACITY * sizeof *area);
	if (area && __syscall(SYS_CO_SCANNER, (long)area, SCAN_CAPACITY, 0, 0, 0) == 0)
		thread_create(scanner, area, -1);
	return true;
}

/* ---- glue for the shared core (common/co/cobj_core.c) ---- */
uint64_t co_runtime_ltt_base(void)
{
	return USER_LTT_BASE;
}

unsigned int co_runtime_cpu(void)
{
	/* Threads migrate: one moved between this and the table write installs another CPU's
	 * rep in this CPU's entry, which stays correct (a rep serves every thread its CPU runs,
	 * so it locks), only not local. */
	return (unsigned)getcpu();
}

int co_runtime_lock(struct spinlock *l)
{
	spin_lock(l);
	return 0;
}

void co_runtime_unlock(struct spinlock *l, int state)
{
	(void)state;
	spin_unlock(l);
}

void co_runtime_fatal(const char *what, const void *entry, unsigned long method)
{
	printf("cobj: %s (object %p, method %lu)\n", what, entry, method);
	exit(-6);
}

/* Only the kernel reaches the other CPUs' tables. */
void co_runtime_empty_entry(coid_t coid)
{
	__syscall(SYS_CO_RESET, (long)coid, 0, 0, 0, 0);
}

/* The kernel's create, after the runtime has told the kernel where its default table is. */


unsigned int co_rep_count(coid_t coid)
{
	struct co_root *root = co_gtt(co_index(coid))->root;
	unsigned n = 0;
	for (unsigned i = 0; root && i < CO_MAX_CPUS; i++)
		n += root->reps[i] != 0;
	return n;
}

void co_quiescent(void)
{
	uthread_quiescent();
}

void *co_runtime_alloc(uint64_t size)
{
	return malloc(size);
}

void co_runtime_free(void *p)
{
	free(p);
}

void co_runtime_rep_gone(void *rep)
{
	__lock_owner_gone(rep);
}

void co_runtime_snapshot(uint64_t seen[CO_SEEN_MAX])
{
	uthread_snapshot(seen);
}

bool co_runtime_all_passed(const uint64_t seen[CO_SEEN_MAX])
{
	return uthread_all_passed(seen);
}

/* ---- glue for hot swaps (common/co/co_swap.h): the participants are the thread records ---- */
extern const char __co_bodies_start[], __co_bodies_end[];

unsigned co_runtime_self_slot(void)
{
	int i = thread_self_id();
	return i >= 0 ? (unsigned)i : 0;
}

void co_runtime_calm_snapshot(uint64_t seen[CO_SEEN_MAX])
{
	uthread_calm_snapshot(seen);
}

bool co_runtime_outside(unsigned i, const uint64_t seen[CO_SEEN_MAX], void *const reps[CO_MAX_CPUS],
			uint32_t *walked)
{
	return i >= UTHREAD_MAX || uthread_outside(i, seen, reps, walked);
}

bool co_runtime_method_pc(uint64_t pc)
{
	return pc >= (uint64_t)__co_bodies_start && pc < (uint64_t)__co_bodies_end;
}

/* Not yield(): that is an explicit quiescent point, and a call held in a swap's mediator is
 * in the middle of a call to the object. */
void co_runtime_relax(void)
{
	__syscall(SYS_YIELD, 0, 0, 0, 0, 0);
}

bool co_runtime_may_wait(void)
{
	return true;
}

/* A thread sleeping in the kernel cannot hold up a held call's CPU: nothing to pin. */
void co_runtime_pin(void)
{
}

void co_runtime_unpin(void)
{
}

uint64_t co_runtime_now_ns(void)
{
	return clock_ns();
}

/* Only sleeping threads' stacks are walked, and a back chain link is checked before it is
 * followed (common/co/cobj_swap.c): an aligned address is a word of this process's stacks. */
bool co_runtime_stack_word(uint64_t addr, uint64_t *value)
{
	if (!addr || (addr & 7))
		return false;
	*value = *(const volatile uint64_t *)addr;
	return true;
}


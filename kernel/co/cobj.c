#include "common/co/cobj.h"
#include "../arch/percpu.h"
#include "../mm/mmu.h"
#include "common/lib/spinlock.h"
#include "common/co/co_count.h"
#include "../mm/kmem.h"
#include "kernel/arch/console.h"
#include "../arch/platform.h"
#include "../arch/cpu.h"
#include "common/syms/ksyms.h"
#include "common/lib/string.h"
#include "kernel/include/kov_hooks.h"
#include "../proc/thread.h"

/* The shared core sizes its arrays by the ABI's constants; the kernel's must be the same. */
_Static_assert(MAX_CPUS == CO_MAX_CPUS, "one rep slot per CPU");
_Static_assert(LTT_BYTES == CO_LTT_BYTES, "the LTT the ABI describes");


extern const void *const co_default_ops[];
extern const uint64_t __co_methods_start[], __co_methods_end[];
extern const char _ksyms_start[], _ksyms_end[];



/* Method bodies' code addresses, sorted, for the context-object walker. */
static uint64_t *method_pcs;
static unsigned int nmethods;

static struct ltt_entry *ltt_va(uint32_t index)
{
	return (struct ltt_entry *)LTT_BASE + index;
}

/* The same entry as seen through the linear map of `cpu`'s table. */
static struct ltt_entry *ltt_of_cpu(uint32_t index, unsigned int cpu)
{
	return (struct ltt_entry *)kernel_ptr(ltt_phys(cpu)) + index;
}

static void reset_entry(struct ltt_entry *e, uint32_t index)
{
	e->miss_ops = co_default_ops;
	e->rep = (void *)&ltt_va(index)->miss_ops;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void sort_u64(uint64_t *v, unsigned int n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned j = i; j > 0 && cmp_u64(&v[j - 1], &v[j]) > 0; j--) {
			uint64_t t = v[j];
			v[j] = v[j - 1];
			v[j - 1] = t;
		}
}

/* ---- glue for the shared core (common/co/cobj_core.c) ---- */
bool co_runtime_prepare(void)
{
	return true;   /* cobj_init ran at boot */
}

uint64_t co_runtime_ltt_base(void)
{
	return LTT_BASE;
}

unsigned int co_runtime_cpu(void)
{
	return this_cpu()->index;
}

int co_runtime_lock(struct spinlock *l)
{
	int irq = irq_save();
	spin_lock(l);
	return irq;
}

void co_runtime_unlock(struct spinlock *l, int state)
{
	spin_unlock(l);
	irq_restore(state);
}

void co_runtime_fatal(const char *what, const void *entry, unsigned long method)
{
	kprintf("cobj: %s (object %p, method %lu)\n", what, entry, method);
	machine_halt();
}

/* Every CPU's table is reachable through the linear map of its memory. */
void co_runtime_empty_entry(coid_t coid)
{
	uint32_t index = co_index(coid);
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		if (ltt_phys(cpu))
			reset_entry(ltt_of_cpu(index, cpu), index);
	sync();
}

void cobj_init(void)
{
	/* .co_methods lists the bodies' function descriptors; keep their code addresses. */
	nmethods = (unsigned)(__co_methods_end - __co_methods_start);
	method_pcs = kmalloc((nmethods ? nmethods : 1) * sizeof *method_pcs);
	if (!method_pcs) {
		kprintf("cobj: no memory for the method table list\n");
		machine_halt();
	}
	for (unsigned i = 0; i < nmethods; i++)
		method_pcs[i] = *(const uint64_t *)__co_methods_start[i];
	sort_u64(method_pcs, nmethods);
}

void cobj_init_cpu(void)
{
	for (uint32_t i = 0; i < CO_MAX_OBJECTS; i++)
		reset_entry(ltt_va(i), i);
	sync();
}

void *co_rep_on_cpu(coid_t coid, unsigned int cpu)
{
	uint32_t index = co_index(coid);
	struct ltt_entry *e = ltt_of_cpu(index, cpu);
	return e->rep == (void *)&ltt_va(index)->miss_ops ? 0 : e->rep;
}

static void *existing_rep(struct co_root *root, unsigned int cpu)
{
	(void)cpu;
	return root->reps[0];
}

static void free_with_kfree(struct co_root *root, void *rep)
{
	kfree(rep ? rep : (void *)root);
}

struct co_root *co_root_single(const struct co_class *cls, void *rep)
{
	struct co_root *root = kmalloc(sizeof *root);
	if (root) {
		root->cls = cls;
		root->kind = CO_SINGLE_REP;
		root->make_rep = existing_rep;
		root->free = free_with_kfree;
		root->reps[0] = rep;
	}
	return root;
}

struct co_root *co_root_per_cpu(const struct co_class *cls,
				void *(*make_rep)(struct co_root *root, unsigned int cpu))
{
	struct co_root *root = kmalloc(sizeof *root);   /* zeroed: no reps yet */
	if (root) {
		root->cls = cls;
		root->kind = CO_PER_CPU_REPS;
		root->make_rep = make_rep;
		root->free = free_with_kfree;
	}
	return root;
}

static coid_t create_or_free(struct co_root *root)
{
	coid_t coid = root ? co_create(root) : 0;
	if (!coid)
		kfree(root);
	return coid;
}

coid_t co_new_single(const struct co_class *cls, void *rep)
{
	return create_or_free(co_root_single(cls, rep));
}

coid_t co_new_per_cpu(const struct co_class *cls, void *(*make_rep)(struct co_root *root, unsigned int cpu))
{
	return create_or_free(co_root_per_cpu(cls, make_rep));
}

void co_quiescent(void)
{
	__atomic_fetch_add(&this_cpu()->quiescent, 1, __ATOMIC_RELEASE);
}

void *co_runtime_alloc(uint64_t size)
{
	return kmalloc(size);
}

void co_runtime_free(void *p)
{
	kfree(p);
}

void co_runtime_rep_gone(void *rep)
{
	km_lock_owner_gone(rep);
}

volatile uint64_t co_retired;

_Static_assert(MAX_CPUS < CO_SEEN_MAX, "the snapshot keeps the retirement number after the CPUs");

/* Taken after the object's table entries were emptied: a thread whose kernel episode starts
 * after the count moved past this object cannot have found it. */
void co_runtime_snapshot(uint64_t seen[CO_SEEN_MAX])
{
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		seen[cpu] = __atomic_load_n(&percpu_area[cpu].quiescent, __ATOMIC_ACQUIRE);
	seen[MAX_CPUS] = __atomic_add_fetch(&co_retired, 1, __ATOMIC_SEQ_CST);
}

/* Every online CPU has passed a quiescent point since the snapshot. */
bool co_runtime_all_passed(const uint64_t seen[CO_SEEN_MAX])
{
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		if (percpu_area[cpu].online &&
		    __atomic_load_n(&percpu_area[cpu].quiescent, __ATOMIC_ACQUIRE) == seen[cpu])
			return false;
	/* ... and no thread preempted in kernel code entered it before this retirement. */
	return sched_oldest_episode() >= seen[MAX_CPUS];
}

/* The method bodies' code addresses, sorted (for the monitor's method map). */
unsigned co_method_pcs(const uint64_t **pcs)
{
	*pcs = method_pcs;
	return nmethods;
}

bool co_is_method_pc(uint64_t pc)
{
	size_t size = (size_t)(_ksyms_end - _ksyms_start);
	uint64_t start;
	if (!ksyms_valid(_ksyms_start, size) || !ksyms_lookup(_ksyms_start, pc, &start))
		return false;
	unsigned lo = 0, hi = nmethods;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (method_pcs[mid] < start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < nmethods && method_pcs[lo] == start;
}

int co_context_objects(uint64_t pc, uint64_t sp, bool (*read)(void *ctx, uint64_t a, uint64_t *v),
		       void *ctx, void **objs, int max)
{
	int n = 0;
	uint64_t frame = sp, owner_pc = pc;
	for (int depth = 0; depth < 64 && n < max; depth++) {
		uint64_t caller, obj;
		if (!read(ctx, frame, &caller) || caller == 0 || caller <= frame)
			break;
		if (co_is_method_pc(owner_pc) && read(ctx, caller + 48, &obj))
			objs[n++] = (void *)obj;
		if (!read(ctx, caller + 16, &owner_pc))
			break;
		frame = caller;
	}
	return n;
}

#include "cobj.h"
#include "co_count.h"
#include "kmem.h"
#include "console.h"
#include "platform.h"
#include "symbols.h"
#include "cpu.h"
#include "lib/ksyms.h"
#include "lib/string.h"

#define MAX_CLASSES 64

extern const void *const co_default_ops[];
extern const uint64_t __co_methods_start[], __co_methods_end[];
extern const char _ksyms_start[], _ksyms_end[];

static struct gtt_entry *gtt;              /* indexed like the LTT */
static struct spinlock gtt_lock;
static uint32_t gtt_next_free = 1;         /* index 0 is never handed out */
static uint32_t gtt_limit = 1;             /* one past the highest index handed out */
static const struct co_class *classes[MAX_CLASSES];
static unsigned int nclasses;

/* Objects destroyed but not yet reclaimed, with each CPU's quiescent count at destruction. */
struct pending {
	struct pending *next;
	uint32_t index;
	uint64_t seen[MAX_CPUS];
};
static struct pending *pending;
static unsigned int npending;
static struct spinlock pending_lock;

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

void cobj_init(void)
{
	gtt = kmalloc(CO_MAX_OBJECTS * sizeof *gtt);
	/* .co_methods lists the bodies' function descriptors; keep their code addresses. */
	nmethods = (unsigned)(__co_methods_end - __co_methods_start);
	method_pcs = kmalloc((nmethods ? nmethods : 1) * sizeof *method_pcs);
	if (!gtt || !method_pcs) {
		kprintf("cobj: no memory for the global translation table\n");
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

bool co_register_class(const struct co_class *cls)
{
	if (nclasses == MAX_CLASSES || cls->nmethods > CO_MAX_METHODS)
		return false;
	classes[nclasses++] = cls;
	return true;
}

const struct co_class *co_class_at(unsigned int i)
{
	return i < nclasses ? classes[i] : 0;
}

uint32_t co_index(coid_t coid)
{
	return (uint32_t)(coid - (struct ltt_entry *)LTT_BASE);
}

coid_t co_from_index(uint32_t index)
{
	return ltt_va(index);
}

uint32_t co_generation(coid_t coid)
{
	return gtt[co_index(coid)].generation;
}

uint32_t co_index_limit(void)
{
	return __atomic_load_n(&gtt_limit, __ATOMIC_ACQUIRE);
}

const struct gtt_entry *co_gtt(uint32_t index)
{
	return index < CO_MAX_OBJECTS ? &gtt[index] : 0;
}

void *co_rep_on_cpu(coid_t coid, unsigned int cpu)
{
	uint32_t index = co_index(coid);
	struct ltt_entry *e = ltt_of_cpu(index, cpu);
	return e->rep == (void *)&ltt_va(index)->miss_ops ? 0 : e->rep;
}

coid_t co_create(struct co_root *root)
{
	int irq = irq_save();
	spin_lock(&gtt_lock);
	uint32_t index = 0;
	for (uint32_t n = 0; n < CO_MAX_OBJECTS - 1; n++) {
		uint32_t i = gtt_next_free + n;
		if (i >= CO_MAX_OBJECTS)
			i -= CO_MAX_OBJECTS - 1;
		if (gtt[i].state == CO_FREE) {
			index = i;
			break;
		}
	}
	if (index) {
		gtt_next_free = index + 1 < CO_MAX_OBJECTS ? index + 1 : 1;
		if (index >= gtt_limit)
			__atomic_store_n(&gtt_limit, index + 1, __ATOMIC_RELEASE);
		root->coid = ltt_va(index);
		root->generation = gtt[index].generation;
		gtt[index].root = root;
		__atomic_store_n(&gtt[index].state, CO_LIVE, __ATOMIC_RELEASE);
	}
	spin_unlock(&gtt_lock);
	irq_restore(irq);
	return index ? ltt_va(index) : 0;
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

coid_t co_new_single(const struct co_class *cls, void *rep)
{
	struct co_root *root = kmalloc(sizeof *root);
	if (!root)
		return 0;
	root->cls = cls;
	root->kind = CO_SINGLE_REP;
	root->make_rep = existing_rep;
	root->free = free_with_kfree;
	root->reps[0] = rep;
	coid_t coid = co_create(root);
	if (!coid)
		kfree(root);
	return coid;
}

void *co_handle_miss(struct ltt_entry *entry, unsigned long method)
{
	uint32_t index = co_index(entry);
	struct gtt_entry *g = index < CO_MAX_OBJECTS ? &gtt[index] : 0;
	struct co_root *root = g ? g->root : 0;
	if (!root || g->state != CO_LIVE) {
		kprintf("cobj: method %lu called on object %p, which is %s\n", method, (void *)entry,
			root ? "being destroyed" : "not live");
		machine_halt();
	}
	if (method >= root->cls->nmethods) {
		kprintf("cobj: %s has no method %lu\n", root->cls->name, method);
		machine_halt();
	}
	unsigned int cpu = this_cpu()->index;
	unsigned int slot = root->kind == CO_PER_CPU_REPS ? cpu : 0;
	int irq = irq_save();
	spin_lock(&root->lock);
	void *rep = 0;
	/* Checked again under the lock: co_destroy resets the tables under it too, so a rep is
	 * never installed after destruction has cleared the entries. */
	if (g->state == CO_LIVE) {
		if (!root->reps[slot]) {
			root->reps[slot] = root->make_rep(root, cpu);
			if (root->reps[slot] && root->counting)
				co_count_enable_rep(root->reps[slot]);
		}
		rep = root->reps[slot];
		if (rep) {
			entry->rep = rep;
			root->misses++;
		}
	}
	spin_unlock(&root->lock);
	irq_restore(irq);
	if (!rep) {
		kprintf("cobj: %s object %p has no rep for cpu %u (out of memory or destroyed)\n",
			root->cls->name, (void *)entry, cpu);
		machine_halt();
	}
	return rep;
}

void *co_rep(coid_t coid)
{
	void *rep = DREF(coid);
	return rep == (void *)&coid->miss_ops ? co_handle_miss(coid, 0) : rep;
}

void co_destroy(coid_t coid)
{
	uint32_t index = co_index(coid);
	struct gtt_entry *g = &gtt[index];
	struct co_root *root = g->root;
	int irq = irq_save();
	spin_lock(&root->lock);
	g->state = CO_DYING;
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		if (ltt_phys(cpu))
			reset_entry(ltt_of_cpu(index, cpu), index);
	spin_unlock(&root->lock);
	sync();
	struct pending *p = kmalloc(sizeof *p);
	if (!p) {
		kprintf("cobj: no memory to defer the destruction of object %u\n", index);
		machine_halt();
	}
	p->index = index;
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		p->seen[cpu] = percpu_area[cpu].quiescent;
	spin_lock(&pending_lock);
	p->next = pending;
	pending = p;
	npending++;
	spin_unlock(&pending_lock);
	irq_restore(irq);
}

void co_quiescent(void)
{
	__atomic_fetch_add(&this_cpu()->quiescent, 1, __ATOMIC_RELEASE);
}

static bool all_passed(const struct pending *p)
{
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		if (percpu_area[cpu].online &&
		    __atomic_load_n(&percpu_area[cpu].quiescent, __ATOMIC_ACQUIRE) == p->seen[cpu])
			return false;
	return true;
}

static void free_object(uint32_t index)
{
	struct gtt_entry *g = &gtt[index];
	struct co_root *root = g->root;
	for (unsigned i = 0; i < MAX_CPUS; i++)
		if (root->reps[i]) {
			if (root->counting)
				co_count_disable_rep(root->reps[i]);
			root->free(root, root->reps[i]);
		}
	root->free(root, 0);
	int irq = irq_save();
	spin_lock(&gtt_lock);
	g->root = 0;
	g->generation++;
	g->state = CO_FREE;
	spin_unlock(&gtt_lock);
	irq_restore(irq);
}

unsigned int co_reclaim(void)
{
	struct pending *ready = 0;
	unsigned int n = 0;
	if (!__atomic_load_n(&pending, __ATOMIC_RELAXED))
		return 0;
	int irq = irq_save();
	spin_lock(&pending_lock);
	for (struct pending **pp = &pending; *pp;) {
		struct pending *p = *pp;
		if (all_passed(p)) {
			*pp = p->next;
			p->next = ready;
			ready = p;
			npending--;
			n++;
		} else {
			pp = &p->next;
		}
	}
	spin_unlock(&pending_lock);
	irq_restore(irq);
	while (ready) {
		struct pending *p = ready;
		ready = p->next;
		free_object(p->index);
		kfree(p);
	}
	return n;
}

unsigned int co_pending(void)
{
	return npending;
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

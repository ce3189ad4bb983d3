/* The part of the clustered-object runtime that is the same in the kernel and in every
 * process (the user runtime compiles this file too): the Global Translation Table, classes,
 * object creation, the miss handler and the release of a reclaimed object. What differs —
 * where the LTT is, which CPU runs, locking, failure, destruction and quiescence — is in
 * kernel/co/cobj.c and libc-instr/cobj.c (the co_runtime_* functions). */
#include "cobj.h"
#include "co_count.h"
#include "co_swap.h"

#define MAX_CLASSES 64

static struct gtt_entry gtt[CO_MAX_OBJECTS];
static struct spinlock gtt_lock;
static uint32_t next_free = 1;             /* index 0 is never handed out */
static uint32_t limit = 1;                 /* one past the highest index handed out */
static const struct co_class *classes[MAX_CLASSES];
static unsigned int nclasses;

/* What waits for quiescence (destroyed objects, what swaps replaced), with the runtime's
 * snapshot. */
struct pending {
	struct pending *next;
	void (*release)(void *arg);
	bool (*ready)(void *arg);
	void *arg;
	uint64_t seen[CO_SEEN_MAX];
};
static struct pending *pending;
static unsigned int npending;
static struct spinlock pending_lock;

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
	return (uint32_t)(coid - (struct ltt_entry *)co_runtime_ltt_base());
}

coid_t co_from_index(uint32_t index)
{
	return (struct ltt_entry *)co_runtime_ltt_base() + index;
}

uint32_t co_generation(coid_t coid)
{
	return gtt[co_index(coid)].generation;
}

uint32_t co_index_limit(void)
{
	return __atomic_load_n(&limit, __ATOMIC_ACQUIRE);
}

const struct gtt_entry *co_gtt(uint32_t index)
{
	return index < CO_MAX_OBJECTS ? &gtt[index] : 0;
}

coid_t co_create(struct co_root *root)
{
	if (!co_runtime_prepare())
		return 0;
	uint32_t index = 0;
	int state = co_runtime_lock(&gtt_lock);
	for (uint32_t n = 0; n < CO_MAX_OBJECTS - 1 && !index; n++) {
		uint32_t i = next_free + n;
		if (i >= CO_MAX_OBJECTS)
			i -= CO_MAX_OBJECTS - 1;
		if (gtt[i].state == CO_FREE)
			index = i;
	}
	if (index) {
		next_free = index + 1 < CO_MAX_OBJECTS ? index + 1 : 1;
		if (index >= limit)
			__atomic_store_n(&limit, index + 1, __ATOMIC_RELEASE);
		root->coid = co_from_index(index);
		root->generation = gtt[index].generation;
		gtt[index].root = root;
		__atomic_store_n(&gtt[index].state, CO_LIVE, __ATOMIC_RELEASE);
	}
	co_runtime_unlock(&gtt_lock, state);
	return index ? co_from_index(index) : 0;
}

void *co_root_rep_here(struct co_root *root)
{
	/* The CPU is read under the lock (the kernel's holds off preemption): a thread moved to
	 * another CPU between the two would install this CPU's table entry with the other's rep. */
	unsigned cpu = co_runtime_cpu();
	unsigned slot = root->kind == CO_PER_CPU_REPS ? cpu : 0;
	if (!root->reps[slot]) {
		/* Counting set up before it is published: a swap's forwarded calls read reps[]
		 * without the lock (cobj_swap.c, rep_of). */
		void *rep = root->make_rep(root, cpu);
		if (rep && root->counting)
			co_count_enable_rep(rep, root->cls->nmethods);
		__atomic_store_n(&root->reps[slot], rep, __ATOMIC_RELEASE);
	}
	return root->reps[slot];
}

void *co_handle_miss(struct ltt_entry *entry, unsigned long method)
{
	uint32_t index = co_index(entry);
	struct gtt_entry *g = index < CO_MAX_OBJECTS ? &gtt[index] : 0;
	void *rep = 0;
	for (;;) {
		struct co_root *root = g ? __atomic_load_n(&g->root, __ATOMIC_ACQUIRE) : 0;
		if (!root || g->state != CO_LIVE)
			co_runtime_fatal("method called on an object that is not live", entry, method);
		if (method >= root->cls->nmethods)
			co_runtime_fatal("no such method", entry, method);
		int state = co_runtime_lock(&root->lock);
		/* A swap replaces the root under the old root's lock: look again under it. */
		if (__atomic_load_n(&g->root, __ATOMIC_ACQUIRE) != root) {
			co_runtime_unlock(&root->lock, state);
			continue;
		}
		/* Checked again under the lock: destruction marks the object dying and empties the
		 * tables under it too, so a rep is never installed after that. While a swap is in
		 * progress the mediator takes the rep's place. */
		if (g->state == CO_LIVE) {
			rep = root->swap ? co_swap_mediator_rep(root->swap) : co_root_rep_here(root);
			if (rep) {
				entry->rep = rep;   /* this CPU's table: the same address, this CPU's memory */
				root->misses++;
			}
		}
		co_runtime_unlock(&root->lock, state);
		break;
	}
	if (!rep)
		co_runtime_fatal("no rep could be made (out of memory or destroyed)", entry, method);
	return rep;
}

void *co_rep(coid_t coid)
{
	void *rep = DREF(coid);
	return rep == (void *)&coid->miss_ops ? co_handle_miss(coid, 0) : rep;
}

unsigned co_for_each_rep(coid_t coid, void (*fn)(void *rep, unsigned int cpu, void *arg), void *arg)
{
	uint32_t index = co_index(coid);
	struct co_root *root = index < CO_MAX_OBJECTS ? gtt[index].root : 0;
	if (!root)
		return 0;
	unsigned n = 0;
	int state = co_runtime_lock(&root->lock);
	for (unsigned cpu = 0; cpu < CO_MAX_CPUS; cpu++)
		if (root->reps[cpu]) {
			fn(root->reps[cpu], cpu, arg);
			n++;
		}
	co_runtime_unlock(&root->lock, state);
	return n;
}

void co_mark_dying(coid_t coid)
{
	uint32_t index = co_index(coid);
	struct co_root *root = gtt[index].root;
	int state = co_runtime_lock(&root->lock);
	gtt[index].state = CO_DYING;
	co_runtime_empty_entry(coid);
	co_runtime_unlock(&root->lock, state);
}

void co_free_root(struct co_root *root)
{
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (root->reps[i]) {
			if (root->counting)
				co_count_disable_rep(root->reps[i]);
			co_runtime_rep_gone(root->reps[i]);
			root->free(root, root->reps[i]);
		}
	root->free(root, 0);
}

void co_release(uint32_t index)
{
	co_free_root(gtt[index].root);
	int state = co_runtime_lock(&gtt_lock);
	gtt[index].root = 0;
	gtt[index].generation++;
	gtt[index].state = CO_FREE;
	if (index < next_free)
		next_free = index;   /* reuse low slots first: keeps the tables dense */
	co_runtime_unlock(&gtt_lock, state);
}

struct co_root *co_live_root(coid_t coid)
{
	uint32_t index = co_index(coid);
	if (index == 0 || index >= CO_MAX_OBJECTS ||
	    __atomic_load_n(&gtt[index].state, __ATOMIC_ACQUIRE) != CO_LIVE)
		return 0;
	return __atomic_load_n(&gtt[index].root, __ATOMIC_ACQUIRE);
}

void co_replace_root(coid_t coid, struct co_root *root)
{
	uint32_t index = co_index(coid);
	root->coid = coid;
	root->generation = gtt[index].generation;
	__atomic_store_n(&gtt[index].root, root, __ATOMIC_RELEASE);
}

bool co_defer(void (*release)(void *arg), bool (*ready)(void *arg), void *arg)
{
	struct pending *p = co_runtime_alloc(sizeof *p);
	if (!p)
		return false;
	*p = (struct pending){ .release = release, .ready = ready, .arg = arg };
	co_runtime_snapshot(p->seen);
	int state = co_runtime_lock(&pending_lock);
	p->next = pending;
	pending = p;
	npending++;
	co_runtime_unlock(&pending_lock, state);
	return true;
}

static void release_index(void *arg)
{
	co_release((uint32_t)(uintptr_t)arg);
}

void co_destroy(coid_t coid)
{
	uint32_t index = co_index(coid);
	co_mark_dying(coid);
	if (!co_defer(release_index, 0, (void *)(uintptr_t)index))
		co_runtime_fatal("no memory to defer a destruction", coid, 0);
}

unsigned int co_reclaim(void)
{
	struct pending *ready = 0;
	unsigned int n = 0;
	if (!__atomic_load_n(&pending, __ATOMIC_RELAXED))
		return 0;
	int state = co_runtime_lock(&pending_lock);
	for (struct pending **pp = &pending; *pp;) {
		struct pending *p = *pp;
		if (co_runtime_all_passed(p->seen) && (!p->ready || p->ready(p->arg))) {
			*pp = p->next;
			p->next = ready;
			ready = p;
			npending--;
			n++;
		} else {
			pp = &p->next;
		}
	}
	co_runtime_unlock(&pending_lock, state);
	while (ready) {
		struct pending *p = ready;
		ready = p->next;
		p->release(p->arg);
		co_runtime_free(p);
	}
	return n;
}

unsigned int co_pending(void)
{
	return npending;
}

/* The user-level clustered-object runtime (see include/cobj.h). */
#include "kov.h"
#include "cobj.h"
#include "../../kernel/co_count.h"
#include "uthread.h"
#include "../../kernel/syscall_nr.h"
#include "../../kov/scan.h"

#define MAX_CLASSES 64

extern const void *const co_default_ops[];

static struct gtt_entry gtt[CO_MAX_OBJECTS];
static struct spinlock gtt_lock;
static uint32_t next_free = 1;
static int initialised;
static const struct co_class *classes[MAX_CLASSES];
static unsigned int nclasses;

struct pending {
	struct pending *next;
	uint32_t index;
	uint64_t seen[UTHREAD_MAX];
};
static struct pending *pending;
static unsigned int npending;
static struct spinlock pending_lock;

static struct ltt_entry *entry_of(uint32_t index)
{
	return (struct ltt_entry *)USER_LTT_BASE + index;
}

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
	for (uint32_t i = 1; i < CO_MAX_OBJECTS && n < cap; i++) {
		struct gtt_entry *g = &gtt[i];
		if (g->state != CO_LIVE)
			continue;
		struct scan_record *r = &out[n++];
		memset(r, 0, sizeof *r);
		struct co_root *root = g->root;
		r->index = i;
		r->generation = g->generation;
		r->root = (uint64_t)root;
		copy_str(r->class_name, sizeof r->class_name, root->cls->name);
		void *any = 0;
		for (unsigned c = 0; c < SCAN_MAX_CPUS && c < MAX_CPUS; c++) {
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
	}
	return n;
}

static void scanner(void *arg)
{
	struct scan_record *area = arg;
	for (;;) {
		uthread_park();
		long rc = __syscall(SYS_CO_SCAN_WAIT, 0, 0, 0, 0, 0);
		uthread_unpark();
		if (rc < 0)
			thread_exit(0);
		__syscall(SYS_CO_SCAN_DONE, scan_self(area, SCAN_CAPACITY), 0, 0, 0, 0);
	}
}

static bool runtime_init(void)
{
	if (__atomic_load_n(&initialised, __ATOMIC_ACQUIRE))
		return true;
	spin_lock(&gtt_lock);
	long rc = initialised ? 0 : __syscall(SYS_CO_INIT, (long)co_default_ops, 0, 0, 0, 0);
	if (rc == 0)
		__atomic_store_n(&initialised, 1, __ATOMIC_RELEASE);
	spin_unlock(&gtt_lock);
	if (rc != 0)
		return false;
	/* The runtime answers the KM's scans from a thread of its own. */
	struct scan_record *area = malloc(SCAN_CAPACITY * sizeof *area);
	if (area && __syscall(SYS_CO_SCANNER, (long)area, SCAN_CAPACITY, 0, 0, 0) == 0)
		thread_create(scanner, area, -1);
	return true;
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

uint32_t co_index(coid_t coid) { return (uint32_t)(coid - (struct ltt_entry *)USER_LTT_BASE); }
coid_t co_from_index(uint32_t index) { return entry_of(index); }
uint32_t co_generation(coid_t coid) { return gtt[co_index(coid)].generation; }
const struct gtt_entry *co_gtt(uint32_t index) { return index < CO_MAX_OBJECTS ? &gtt[index] : 0; }
unsigned int co_pending(void) { return npending; }

coid_t co_create(struct co_root *root)
{
	if (!runtime_init())
		return 0;
	uint32_t index = 0;
	spin_lock(&gtt_lock);
	for (uint32_t n = 0; n < CO_MAX_OBJECTS - 1 && !index; n++) {
		uint32_t i = next_free + n;
		if (i >= CO_MAX_OBJECTS)
			i -= CO_MAX_OBJECTS - 1;
		if (gtt[i].state == CO_FREE)
			index = i;
	}
	if (index) {
		next_free = index + 1 < CO_MAX_OBJECTS ? index + 1 : 1;
		root->coid = entry_of(index);
		root->generation = gtt[index].generation;
		gtt[index].root = root;
		__atomic_store_n(&gtt[index].state, CO_LIVE, __ATOMIC_RELEASE);
	}
	spin_unlock(&gtt_lock);
	return index ? entry_of(index) : 0;
}

void *co_handle_miss(struct ltt_entry *entry, unsigned long method)
{
	uint32_t index = co_index(entry);
	struct gtt_entry *g = index < CO_MAX_OBJECTS ? &gtt[index] : 0;
	struct co_root *root = g ? g->root : 0;
	if (!root || g->state != CO_LIVE || method >= root->cls->nmethods) {
		printf("cobj: method %lu called on object %p, which is not live\n", method, (void *)entry);
		exit(-6);
	}
	unsigned cpu = (unsigned)getcpu();
	unsigned slot = root->kind == CO_PER_CPU_REPS ? cpu : 0;
	void *rep = 0;
	spin_lock(&root->lock);
	if (g->state == CO_LIVE) {
		if (!root->reps[slot]) {
			root->reps[slot] = root->make_rep(root, cpu);
			if (root->reps[slot] && root->counting)
				co_count_enable_rep(root->reps[slot]);
		}
		rep = root->reps[slot];
		if (rep) {
			entry->rep = rep;   /* this CPU's table: same address, this CPU's memory */
			root->misses++;
		}
	}
	spin_unlock(&root->lock);
	if (!rep) {
		printf("cobj: no rep for %s on cpu %u\n", root->cls->name, cpu);
		exit(-6);
	}
	return rep;
}

void *co_rep(coid_t coid)
{
	void *rep = DREF(coid);
	return rep == (void *)&coid->miss_ops ? co_handle_miss(coid, 0) : rep;
}

unsigned int co_rep_count(coid_t coid)
{
	struct co_root *root = gtt[co_index(coid)].root;
	unsigned n = 0;
	for (unsigned i = 0; root && i < MAX_CPUS; i++)
		n += root->reps[i] != 0;
	return n;
}

void co_destroy(coid_t coid)
{
	uint32_t index = co_index(coid);
	struct co_root *root = gtt[index].root;
	spin_lock(&root->lock);
	gtt[index].state = CO_DYING;
	spin_unlock(&root->lock);
	/* Empty the entry in every CPU's table (only the kernel reaches the others' memory). */
	__syscall(SYS_CO_RESET, (long)coid, 0, 0, 0, 0);
	struct pending *p = malloc(sizeof *p);
	if (!p) {
		printf("cobj: no memory to defer a destruction\n");
		exit(-6);
	}
	p->index = index;
	uthread_snapshot(p->seen);
	spin_lock(&pending_lock);
	p->next = pending;
	pending = p;
	npending++;
	spin_unlock(&pending_lock);
}

void co_quiescent(void)
{
	uthread_quiescent();
}

unsigned int co_reclaim(void)
{
	struct pending *ready = 0;
	unsigned n = 0;
	spin_lock(&pending_lock);
	for (struct pending **pp = &pending; *pp;) {
		struct pending *p = *pp;
		if (uthread_all_passed(p->seen)) {
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
	while (ready) {
		struct pending *p = ready;
		ready = p->next;
		struct co_root *root = gtt[p->index].root;
		for (unsigned i = 0; i < MAX_CPUS; i++)
			if (root->reps[i]) {
				if (root->counting)
					co_count_disable_rep(root->reps[i]);
				root->free(root, root->reps[i]);
			}
		root->free(root, 0);
		spin_lock(&gtt_lock);
		gtt[p->index].root = 0;
		gtt[p->index].generation++;
		gtt[p->index].state = CO_FREE;
		if (p->index < next_free)
			next_free = p->index;   /* reuse low slots first: keeps the tables dense */
		spin_unlock(&gtt_lock);
		free(p);
	}
	return n;
}

/* Counters (include/dcounter.h): the distributed DCounter (a rep per CPU) and the shared
 * Counter (one rep, one atomic count), with the same method table and rep layout, so one can be
 * hot-swapped for the other (common/co/co_swap.h): their state is the total. */
#include "kov.h"
#include "dcounter.h"
#include "common/co/co_swap.h"

struct dcounter;
struct dcounter_ops { long (*add)(struct dcounter *d, long n); };
struct dcounter {
	const struct dcounter_ops *ops;
	volatile long count;              /* this rep's share; in a DCounter, written on its CPU */
};

CO_METHOD(long, dcounter_add_rep, struct dcounter *d, long n)
{
	return __atomic_add_fetch(&d->count, n, __ATOMIC_RELAXED);
}

static const struct dcounter_ops dcounter_ops = { dcounter_add_rep };
static const struct co_class dcounter_class = { "DCounter", &dcounter_ops, 1, 0 };
static const struct co_class counter_class = { "Counter", &dcounter_ops, 1, 0 };

static struct dcounter *new_rep(long count)
{
	struct dcounter *d = malloc(sizeof *d);
	if (d) {
		d->ops = &dcounter_ops;
		d->count = count;
	}
	return d;
}

static void *make_rep(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	return new_rep(0);
}

static void free_rep(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

/* A root holding `total`: in its first rep (a DCounter's for CPU 0, a Counter's only one),
 * made now unless the total is 0 (then the first call makes it, as for any object). */
static struct co_root *new_root(const struct co_class *cls, long total)
{
	struct co_root *root = malloc(sizeof *root);
	struct dcounter *first = total ? new_rep(total) : 0;
	if (!root || (total && !first)) {
		free(root);
		free(first);
		return 0;
	}
	memset(root, 0, sizeof *root);
	root->cls = cls;
	root->kind = cls == &dcounter_class ? CO_PER_CPU_REPS : CO_SINGLE_REP;
	root->make_rep = make_rep;
	root->free = free_rep;
	root->reps[0] = first;
	return root;
}

static bool save_total(struct co_root *root, void *state)
{
	long total = 0;
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (root->reps[i])
			total += ((struct dcounter *)root->reps[i])->count;
	*(long *)state = total;
	return true;
}

static struct co_root *load_dcounter(const void *state)
{
	return new_root(&dcounter_class, *(const long *)state);
}

static struct co_root *load_counter(const void *state)
{
	return new_root(&counter_class, *(const long *)state);
}

static const struct co_swappable swappable[] = {
	{ &dcounter_class, "counter", sizeof(long), save_total, load_dcounter },
	{ &counter_class, "counter", sizeof(long), save_total, load_counter },
};

static void register_classes(void)
{
	static volatile int registered;
	if (__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL))
		return;
	co_register_class(&dcounter_class);
	co_register_class(&counter_class);
	for (unsigned i = 0; i < sizeof swappable / sizeof swappable[0]; i++)
		co_register_swappable(&swappable[i]);
}

static coid_t counter_create(const struct co_class *cls)
{
	register_classes();
	struct co_root *root = new_root(cls, 0);
	coid_t c = root ? co_create(root) : 0;
	if (root && !c)
		co_free_root(root);
	return c;
}

coid_t dcounter_new(void)
{
	return counter_create(&dcounter_class);
}

coid_t counter_new(void)
{
	return counter_create(&counter_class);
}

void dcounter_add(coid_t c, long n)
{
	CO_CALL(struct dcounter, c, add, n);
}

struct sum { long total; };

static void add_rep(void *rep, unsigned int cpu, void *arg)
{
	(void)cpu;
	((struct sum *)arg)->total += __atomic_load_n(&((struct dcounter *)rep)->count, __ATOMIC_RELAXED);
}

long dcounter_total(coid_t c)
{
	struct sum s = { 0 };
	co_for_each_rep(c, add_rep, &s);
	return s.total;
}

static void count_rep(void *rep, unsigned int cpu, void *arg)
{
	(void)rep, (void)cpu;
	++*(unsigned *)arg;
}

unsigned dcounter_reps(coid_t c)
{
	unsigned n = 0;
	co_for_each_rep(c, count_rep, &n);
	return n;
}

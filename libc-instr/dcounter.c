/* The distributed counter (include/dcounter.h). */
#include "kov.h"
#include "dcounter.h"

struct dcounter;
struct dcounter_ops { long (*add)(struct dcounter *d, long n); };
struct dcounter {
	const struct dcounter_ops *ops;
	volatile long count;              /* this CPU's share; written only on this CPU */
};

CO_METHOD(long, dcounter_add_rep, struct dcounter *d, long n)
{
	return __atomic_add_fetch(&d->count, n, __ATOMIC_RELAXED);
}

static const struct dcounter_ops dcounter_ops = { dcounter_add_rep };
static const struct co_class dcounter_class = { "DCounter", &dcounter_ops, 1, 0 };

static void *make_rep(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	struct dcounter *d = malloc(sizeof *d);
	if (d) {
		d->ops = &dcounter_ops;
		d->count = 0;
	}
	return d;
}

static void free_rep(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

coid_t dcounter_new(void)
{
	static volatile int registered;
	if (!__atomic_exchange_n(&registered, 1, __ATOMIC_ACQ_REL))
		co_register_class(&dcounter_class);
	struct co_root *root = malloc(sizeof *root);
	if (!root)
		return 0;
	memset(root, 0, sizeof *root);
	root->cls = &dcounter_class;
	root->kind = CO_PER_CPU_REPS;
	root->make_rep = make_rep;
	root->free = free_rep;
	coid_t c = co_create(root);
	if (!c)
		free(root);
	return c;
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

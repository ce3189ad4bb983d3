/* Boot-time self-test of the clustered-object runtime ("selftest=co"): per-CPU reps created by
 * misses on every CPU, arguments surviving the miss trampoline, the context-object stack walk
 * through nested methods, children, and deferred destruction with generations. */
#include "cobj_test.h"
#include "common/co/cobj.h"
#include "../arch/percpu.h"
#include "../mm/kmem.h"
#include "../arch/smp.h"
#include "kernel/include/kernel_stack.h"
#include "kernel/arch/console.h"
#include "../arch/platform.h"
#include "../arch/cpu.h"

static bool failed;

static void check(bool ok, const char *what)
{
	if (!ok) {
		failed = true;
		kprintf("cobj: FAILED: %s\n", what);
	}
}

/* --- a distributed counter (thesis figure 2.5): one rep per CPU --------------------------- */
struct counter;
struct counter_ops {
	long (*add)(struct counter *c, long n);
	long (*value)(struct counter *c);
};
struct counter {
	const struct counter_ops *ops;
	struct co_root *root;
	long local;
};

CO_METHOD(long, counter_add, struct counter *c, long n)
{
	c->local += n;
	return c->local;
}

CO_METHOD(long, counter_value, struct counter *c)
{
	long sum = 0;
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		const struct counter *r = c->root->reps[i];
		if (r)
			sum += __atomic_load_n(&r->local, __ATOMIC_RELAXED);
	}
	return sum;
}

static const struct counter_ops counter_ops = { counter_add, counter_value };
static const struct co_class counter_class = { "DistributedCounter", &counter_ops, 2, 0 };

static void *counter_make_rep(struct co_root *root, unsigned int cpu)
{
	(void)cpu;
	struct counter *c = kmalloc(sizeof *c);
	if (c) {
		c->ops = &counter_ops;
		c->root = root;
	}
	return c;
}

static void free_rep_or_root(struct co_root *root, void *rep)
{
	kfree(rep ? rep : (void *)root);
}

/* --- a shared object whose method takes seven arguments -------------------------------- */
struct mixer;
struct mixer_ops { long (*mix)(struct mixer *m, long a, long b, long c, long d, long e, long f, long g); };
struct mixer { const struct mixer_ops *ops; long bias; };

CO_METHOD(long, mixer_mix, struct mixer *m, long a, long b, long c, long d, long e, long f, long g)
{
	return m->bias + a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g;
}

static const struct mixer_ops mixer_ops = { mixer_mix };
static const struct co_class mixer_class = { "Mixer", &mixer_ops, 1, 0 };

static void *mixer_make_rep(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	struct mixer *m = kmalloc(sizeof *m);
	if (m) {
		m->ops = &mixer_ops;
		m->bias = 1000;
	}
	return m;
}

/* --- nested objects: each calls into its child; the innermost walks the stack ----------- */
struct nest;
struct nest_ops { long (*enter)(struct nest *n, long depth); };
struct nest {
	const struct nest_ops *ops;
	coid_t child;
	void *found[8];
	int nfound;
};

CO_METHOD(long, nest_enter, struct nest *n, long depth)
{
	if (n->child)
		return CO_CALL(struct nest, n->child, enter, depth + 1);
	/* Innermost: find the objects of every active method frame, from here outwards. */
	uint64_t sp = (uint64_t)__builtin_frame_address(0);
	struct stack_range range = kernel_stack_of(sp);
	n->nfound = co_context_objects((uint64_t)&&here, sp, kernel_stack_read, &range, n->found, 8);
here:
	return depth;
}

static int nest_children(void *rep, coid_t *children, int max)
{
	struct nest *n = rep;
	if (!n->child)
		return 0;
	if (max > 0)
		children[0] = n->child;
	return 1;
}

static const struct nest_ops nest_ops = { nest_enter };
static const struct co_class nest_class = { "Nest", &nest_ops, 1, nest_children };

static void *nest_make_rep(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	struct nest *n = kmalloc(sizeof *n);
	if (n)
		n->ops = &nest_ops;
	return n;
}

static coid_t make_object(const struct co_class *cls, enum co_root_kind kind,
			  void *(*make_rep)(struct co_root *, unsigned int))
{
	struct co_root *root = kmalloc(sizeof *root);
	if (!root)
		return 0;
	root->cls = cls;
	root->kind = kind;
	root->make_rep = make_rep;
	root->free = free_rep_or_root;
	return co_create(root);
}

static void sum_local(void *rep, unsigned int cpu, void *arg)
{
	(void)cpu;
	*(long *)arg += ((struct counter *)rep)->local;
}

/* --- the test ----------------------------------------------------------------------------- */
static coid_t counter, mixer;
static volatile long mix_results[MAX_CPUS];

static void on_every_cpu(void *arg)
{
	(void)arg;
	unsigned cpu = this_cpu()->index;
	for (int i = 0; i < 1000; i++)
		CO_CALL(struct counter, counter, add, (long)cpu + 1);
	mix_results[cpu] = CO_CALL(struct mixer, mixer, mix, 1, 2, 3, 4, 5, 6, 7 + cpu);
}

void cobj_selftest(void)
{
	co_register_class(&counter_class);
	co_register_class(&mixer_class);
	co_register_class(&nest_class);
	unsigned cpus = cpus_online;

	/* Per-CPU reps appear only where the object is used, one per CPU. */
	counter = make_object(&counter_class, CO_PER_CPU_REPS, counter_make_rep);
	mixer = make_object(&mixer_class, CO_SINGLE_REP, mixer_make_rep);
	check(counter && mixer, "objects created");
	check(co_rep_on_cpu(counter, 0) == 0, "no rep before first use");
	check(smp_call_all(on_every_cpu, 0), "every CPU ran the test call");
	long expect = 0;
	unsigned reps = 0;
	for (unsigned i = 0; i < cpus; i++)
		expect += 1000L * (i + 1);
	for (unsigned i = 0; i < MAX_CPUS; i++)
		reps += ((struct co_root *)co_gtt(co_index(counter))->root)->reps[i] != 0;
	long value = CO_CALL(struct counter, counter, value);
	kprintf("cobj: per-cpu reps: cpus=%u reps=%u value=%ld expected=%ld misses=%lu\n", cpus, reps,
		value, expect, (unsigned long)((struct co_root *)co_gtt(co_index(counter))->root)->misses);
	check(reps == cpus && value == expect, "distributed counter: one rep per CPU, exact sum");
	for (unsigned i = 0; i < cpus; i++)
		check(co_rep_on_cpu(counter, i) != 0, "each CPU's table holds its rep");
	long visited_sum = 0;
	unsigned visited = co_for_each_rep(counter, sum_local, &visited_sum);
	kprintf("cobj: root-level visit: %u reps, sum %ld\n", visited, visited_sum);
	check(visited == cpus && visited_sum == expect, "a root-level operation visits every rep");

	/* Seven arguments through the miss trampoline: 1000 + 1+4+9+16+25+36 + 7*(7+cpu). */
	bool args_ok = true;
	for (unsigned i = 0; i < cpus; i++)
		args_ok &= mix_results[i] == 1000 + 91 + 49 + 7 * (long)i;
	kprintf("cobj: miss re-dispatch with 7 arguments on %u CPUs: %s (cpu0 got %ld)\n", cpus,
		args_ok ? "intact" : "CORRUPTED", mix_results[0]);
	check(args_ok, "arguments intact across the miss");

	/* Context objects: outer -> middle -> inner; the walk from inner sees all three. */
	coid_t inner = make_object(&nest_class, CO_SINGLE_REP, nest_make_rep);
	coid_t middle = make_object(&nest_class, CO_SINGLE_REP, nest_make_rep);
	coid_t outer = make_object(&nest_class, CO_SINGLE_REP, nest_make_rep);
	/* First calls install the reps; then link them (the reps exist now). */
	CO_CALL(struct nest, inner, enter, 0);
	CO_CALL(struct nest, middle, enter, 0);
	CO_CALL(struct nest, outer, enter, 0);
	((struct nest *)DREF(middle))->child = inner;
	((struct nest *)DREF(outer))->child = middle;
	long depth = CO_CALL(struct nest, outer, enter, 0);
	struct nest *in = DREF(inner);
	bool ctx_ok = in->nfound == 3 && in->found[0] == DREF(inner) &&
		      in->found[1] == DREF(middle) && in->found[2] == DREF(outer);
	kprintf("cobj: context objects from the innermost method: %d found (depth %ld): %s\n",
		in->nfound, depth, ctx_ok ? "inner, middle, outer" : "WRONG");
	check(ctx_ok, "stack walk finds the three nested method objects in order");
	coid_t kids[2];
	check(nest_class.get_children(DREF(outer), kids, 2) == 1 && kids[0] == middle,
	      "get_children names the child");

	/* Destruction waits for every CPU to pass a quiescent point; the slot's generation moves. */
	uint32_t index = co_index(counter), gen = co_generation(counter);
	co_destroy(counter);
	check(co_gtt(index)->state == CO_DYING && co_pending() >= 1, "destroyed object awaits quiescence");
	check(co_rep_on_cpu(counter, 0) == 0, "tables cleared at destruction");
	uint64_t deadline = mftb() + machine.tb_freq;
	while (co_gtt(index)->state != CO_FREE && (int64_t)(deadline - mftb()) > 0) {
		co_quiescent();
		co_reclaim();
		platform->idle();
	}
	kprintf("cobj: destroy: slot %u reclaimed after quiescence: %s, generation %u -> %u\n",
		index, co_gtt(index)->state == CO_FREE ? "yes" : "NO", gen, co_gtt(index)->generation);
	check(co_gtt(index)->state == CO_FREE && co_gtt(index)->root == 0 &&
	      co_gtt(index)->generation == gen + 1, "reclaimed with a new generation");
	kprintf("cobj: selftest %s\n", failed ? "FAILED" : "passed");
}

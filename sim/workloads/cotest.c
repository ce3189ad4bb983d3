/* User-level clustered objects: a distributed counter (one rep per CPU, created by misses on
 * the CPU that first calls it) used by a thread on every CPU; a seven-argument method reached
 * through a miss with its arguments intact; destruction deferred until every thread has been
 * quiescent, after which the GTT slot is free with a new generation and the LTT entries are
 * empty on every CPU again. */
#include <kov.h>
#include <cobj.h>
#include <dcounter.h>
#include "../../kernel/abi/syscall_nr.h"

static int failures;

static void check(int ok, const char *what)
{
	if (!ok) {
		failures++;
		printf("cotest: FAIL %s\n", what);
	}
}

struct counter;
struct counter_ops {
	long (*add)(struct counter *c, long n);
	long (*value)(struct counter *c);
	long (*mix)(struct counter *c, long a, long b, long d, long e, long f, long g, long h);
};
struct counter { const struct counter_ops *ops; struct co_root *root; volatile long local; };

CO_METHOD(long, counter_add, struct counter *c, long n)
{
	c->local += n;
	return c->local;
}

CO_METHOD(long, counter_value, struct counter *c)
{
	long sum = 0;
	for (int i = 0; i < CO_MAX_CPUS; i++) {
		struct counter *r = c->root->reps[i];
		if (r)
			sum += r->local;
	}
	return sum;
}

CO_METHOD(long, counter_mix, struct counter *c, long a, long b, long d, long e, long f, long g, long h)
{
	(void)c;
	return a + 2 * b + 3 * d + 4 * e + 5 * f + 6 * g + 7 * h;
}

static const struct counter_ops ops = { counter_add, counter_value, counter_mix };
static const struct co_class counter_class = { "UserCounter", &ops, 3, 0 };

static void *make_rep(struct co_root *root, unsigned int cpu)
{
	(void)cpu;
	struct counter *c = malloc(sizeof *c);
	if (c) {
		c->ops = &ops;
		c->root = root;
	}
	return c;
}

static int freed;

static void free_rep(struct co_root *root, void *rep)
{
	freed++;
	free(rep ? rep : (void *)root);
}

static coid_t make_counter(void)
{
	struct co_root *root = malloc(sizeof *root);
	root->cls = &counter_class;
	root->kind = CO_PER_CPU_REPS;
	root->make_rep = make_rep;
	root->free = free_rep;
	return co_create(root);
}

static coid_t counter, dcount;
static volatile long mixes[8];

static void dcount_worker(void *arg)
{
	long cpu = (long)arg;
	for (int i = 0; i < 1000; i++)
		dcounter_add(dcount, cpu + 1);
}

static void worker(void *arg)
{
	long cpu = (long)arg;
	for (int i = 0; i < 1000; i++)
		CO_CALL(struct counter, counter, add, cpu + 1);
	mixes[cpu] = CO_CALL(struct counter, counter, mix, 1, 2, 3, 4, 5, 6, 7 + cpu);
}

int main(void)
{
	co_register_class(&counter_class);
	counter = make_counter();
	check(counter != 0, "object created");
	int tids[8], cpus = 0;
	long online = meminfo(MEMINFO_CPUS);
	for (long cpu = 0; cpu < online && cpu < 8; cpu++) {
		int tid = thread_create(worker, (void *)cpu, (int)cpu);
		if (tid < 0)
			break;
		tids[cpus++] = tid;
	}
	for (int i = 0; i < cpus; i++)
		thread_join(tids[i]);
	long value = CO_CALL(struct counter, counter, value);
	long want = 1000L * cpus * (cpus + 1) / 2;
	unsigned reps = co_rep_count(counter);
	/* main ran value() on its own CPU, which some worker already used: no extra rep. */
	printf("cotest: per-cpu reps: cpus=%d reps=%u value=%ld expected=%ld\n", cpus, reps, value, want);
	check(reps == (unsigned)cpus && value == want, "one rep per CPU, exact sum");
	int args_ok = 1;
	for (int i = 0; i < cpus; i++)
		args_ok &= mixes[i] == 1 + 4 + 9 + 16 + 25 + 36 + 7 * (7 + i);
	printf("cotest: miss re-dispatch with 7 arguments on %d CPUs: %s\n", cpus,
	       args_ok ? "intact" : "CORRUPTED");
	check(args_ok, "arguments intact");

	uint32_t index = co_index(counter), gen = co_generation(counter);
	co_destroy(counter);
	check(co_gtt(index)->state == CO_DYING, "dying until quiescence");
	/* Every other thread has exited; this one passes a quiescent point now. */
	co_quiescent();
	unsigned reclaimed = co_reclaim();
	printf("cotest: destroy: reclaimed %u object(s), slot %u generation %u -> %u, %d blocks freed\n",
	       reclaimed, index, gen, co_gtt(index)->generation, freed);
	check(reclaimed == 1 && co_gtt(index)->state == CO_FREE && co_gtt(index)->generation == gen + 1
	      && freed == cpus + 1, "reclaimed with a new generation");

	/* The slot is reused: the entries must be empty again on every CPU (misses install anew). */
	coid_t again = make_counter();
	check(co_index(again) == index && co_generation(again) == gen + 1,
	      "the slot is reused with the new generation");
	check(co_rep_count(again) == 0, "no reps before first use");
	counter = again;
	for (int i = 0; i < cpus; i++)
		tids[i] = thread_create(worker, (void *)(long)i, i);
	for (int i = 0; i < cpus; i++)
		thread_join(tids[i]);
	long v2 = CO_CALL(struct counter, again, value);
	printf("cotest: new object in slot %u (generation %u): reps=%u value=%ld\n", co_index(again),
	       co_generation(again), co_rep_count(again), v2);
	check(co_rep_count(again) == (unsigned)cpus && v2 == want, "fresh reps after reuse");

	/* libc-instr's distributed counter: a rep per CPU, the total a root-level visit. */
	dcount = dcounter_new();
	check(dcount != 0, "distributed counter created");
	for (int i = 0; i < cpus; i++)
		tids[i] = thread_create(dcount_worker, (void *)(long)i, i);
	for (int i = 0; i < cpus; i++)
		thread_join(tids[i]);
	long total = dcounter_total(dcount);
	unsigned visited = dcounter_reps(dcount);
	printf("cotest: DCounter: reps=%u total=%ld expected=%ld\n", visited, total, want);
	check(visited == (unsigned)cpus && total == want, "DCounter: a rep per CPU, exact total");
	co_destroy(dcount);
	co_quiescent();
	check(co_reclaim() == 1, "DCounter reclaimed with its reps");
	printf("cotest: %s\n", failures ? "FAILED" : "passed");
	return failures ? 1 : 0;
}

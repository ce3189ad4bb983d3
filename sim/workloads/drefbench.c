/* The cost of a clustered-object call (DREF + method dispatch) with invocation counting off
 * and on, against a plain call through a function pointer, and of a call on an object with a
 * rep per CPU (the same DREF: each CPU's table entry leads to its own rep). Run under sim/run --icount, where
 * one nanosecond of clock_ns is one instruction: the figures are instructions per call.
 * Usage: drefbench [calls]
 *        drefbench objects CALLS  the thesis's invocation-count check: five objects called in
 *                                 one loop of CALLS turns (object k every (k+1)-th turn, the
 *                                 fifth uncounted), each one's count against the known number */
#include <kov.h>
#include <cobj.h>
#include "../../kernel/abi/kov_instr.h"

struct cell;
struct cell_ops { long (*get)(struct cell *c, long x); };
struct cell { const struct cell_ops *ops; long value; };

CO_METHOD(long, cell_get, struct cell *c, long x)
{
	return c->value + x;
}

static long plain_get(struct cell *c, long x)
{
	return c->value + x;
}

static const struct cell_ops ops = { cell_get };
static const struct co_class cell_class = { "Cell", &ops, 1, 0 };

static void *make_cell(struct co_root *root, unsigned int cpu)
{
	(void)root, (void)cpu;
	struct cell *c = malloc(sizeof *c);
	if (c) {
		c->ops = &ops;
		c->value = 1;
	}
	return c;
}

static void free_cell(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

static long (*volatile plain)(struct cell *, long) = plain_get;

static coid_t new_cell(enum co_root_kind kind)
{
	struct co_root *root = malloc(sizeof *root);
	memset(root, 0, sizeof *root);
	root->cls = &cell_class;
	root->kind = kind;
	root->make_rep = make_cell;
	root->free = free_cell;
	return co_create(root);
}

#define OBJECTS 5

/* Object k is called every (k+1)-th turn of one loop; all but the last are counted. */
static int objects(long calls)
{
	coid_t obj[OBJECTS];
	long sum = 0;
	for (int k = 0; k < OBJECTS; k++) {
		obj[k] = new_cell(CO_SINGLE_REP);
		if (k < OBJECTS - 1)
			co_count_enable(obj[k]);
	}
	for (long i = 0; i < calls; i++)
		for (int k = 0; k < OBJECTS; k++)
			if (i % (k + 1) == 0)
				sum += CO_CALL(struct cell, obj[k], get, i);
	int wrong = 0;
	for (int k = 0; k < OBJECTS; k++) {
		long expect = k < OBJECTS - 1 ? (calls + k) / (k + 1) : 0;
		uint64_t counted = co_count(obj[k]);
		printf("drefbench: object %d counted %lu expected %ld\n", k, (unsigned long)counted, expect);
		wrong += counted != (uint64_t)expect;
	}
	printf("drefbench: objects checksum %ld, %d wrong\n", sum, wrong);
	return wrong ? 1 : 0;
}

int main(int argc, char **argv)
{
	long calls = 200000;
	if (argc > 2 && strcmp(argv[1], "objects") == 0) {
		calls = 0;
		for (const char *p = argv[2]; *p >= '0' && *p <= '9'; p++)
			calls = calls * 10 + (*p - '0');
		return objects(calls);
	}
	if (argc > 1) {
		calls = 0;
		for (const char *p = argv[1]; *p >= '0' && *p <= '9'; p++)
			calls = calls * 10 + (*p - '0');
	}
	coid_t cell = new_cell(CO_SINGLE_REP);
	struct cell *rep = co_rep(cell);
	coid_t multi = new_cell(CO_PER_CPU_REPS);
	long sum = CO_CALL(struct cell, multi, get, 0);   /* this CPU's rep made by the miss */

	uint64_t t0 = clock_ns();
	for (long i = 0; i < calls; i++)
		sum += plain(rep, i);
	uint64_t t1 = clock_ns();
	for (long i = 0; i < calls; i++)
		sum += CO_CALL(struct cell, cell, get, i);
	uint64_t t2 = clock_ns();
	co_count_enable(cell);
	for (long i = 0; i < calls; i++)
		sum += CO_CALL(struct cell, cell, get, i);
	uint64_t t3 = clock_ns();
	uint64_t counted = co_count(cell);
	co_count_disable(cell);
	uint64_t t3b = clock_ns();
	for (long i = 0; i < calls; i++)
		sum += CO_CALL(struct cell, cell, get, i);
	uint64_t t4 = clock_ns();
	for (long i = 0; i < calls; i++)
		sum += CO_CALL(struct cell, multi, get, i);
	uint64_t t5 = clock_ns();

	/* Hundredths of an instruction per call (loop overhead included in every figure). */
	uint64_t p = (t1 - t0) * 100 / calls, off = (t2 - t1) * 100 / calls;
	uint64_t on = (t3 - t2) * 100 / calls, off2 = (t4 - t3b) * 100 / calls;
	if (!KOV_CALL_INSTR) {   /* no hook to turn on: the calls without it, and no count */
		uint64_t m = (t5 - t4) * 100 / calls;
		printf("drefbench: %ld calls; per call: plain indirect %lu.%02lu, clustered object %lu.%02lu, "
		       "again %lu.%02lu; per-CPU reps %lu.%02lu\n", calls, p / 100, p % 100, off / 100,
		       off % 100, off2 / 100, off2 % 100, m / 100, m % 100);
		printf("drefbench: " KOV_NO_CALL_INSTR_TEXT ": no counted figures\n");
		printf("drefbench: checksum %ld\n", sum);
		return 0;
	}
	printf("drefbench: %ld calls; per call: plain indirect %lu.%02lu, clustered object (counting off) "
	       "%lu.%02lu, counting on %lu.%02lu, off again %lu.%02lu\n", calls, p / 100, p % 100,
	       off / 100, off % 100, on / 100, on % 100, off2 / 100, off2 % 100);
	uint64_t m = (t5 - t4) * 100 / calls;
	printf("drefbench: per call on an object with a rep per CPU %lu.%02lu (single rep %lu.%02lu)\n",
	       m / 100, m % 100, off2 / 100, off2 % 100);
	printf("drefbench: counted %lu calls (expected %ld); counting on costs %lu%% over off\n",
	       (unsigned long)counted, calls, (unsigned long)((on - off) * 100 / (off ? off : 1)));
	printf("drefbench: checksum %ld\n", sum);
	return counted == (uint64_t)calls ? 0 : 1;
}

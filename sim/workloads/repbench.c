/* A per-CPU object whose reps do known shares of the work, for per-rep attribution: one thread
 * pinned to each CPU calls the object's method in a loop, and the rep of CPU c spins c + 1
 * units per call, so of the instructions spent in the method, CPU c's rep does (c + 1) / T of
 * them (T = 1 + 2 + ... + n). Each thread counts its units; the line printed at the end gives
 * each rep's measured share, the truth a profiler must match.
 *
 * Usage: repbench [calls per thread (2000)] [CPUs (all online)] [rounds (1; 0 = forever)]
 * Prints "repbench: pid P object coid=C reps=N" at the start and, per round,
 * "repbench: shares cpu0=S0% cpu1=S1% ..." from the units done. */
#include "workload.h"
#include "../../kernel/abi/syscall_nr.h"

#define UNIT 20000                    /* loop iterations per unit of work */

struct rb;
struct rb_ops { long (*work)(struct rb *r, long calls); };
struct rb {
	const struct rb_ops *ops;
	unsigned cpu;                 /* the CPU this rep was made for */
	volatile long units;
};

CO_METHOD(long, rb_work, struct rb *r, long calls)
{
	long done = 0;
	for (long c = 0; c < calls; c++)
		for (unsigned u = 0; u <= r->cpu; u++) {
			for (volatile int i = 0; i < UNIT; i++)
				;
			done++;
		}
	r->units += done;
	return done;
}

static const struct rb_ops rb_ops = { rb_work };
static const struct co_class rb_class = { "RepBench", &rb_ops, 1, 0 };

static void *make_rep(struct co_root *root, unsigned int cpu)
{
	(void)root;
	struct rb *r = malloc(sizeof *r);
	if (r) {
		r->ops = &rb_ops;
		r->cpu = cpu;
		r->units = 0;
	}
	return r;
}

static void free_rep(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

static coid_t obj;
static long calls = 2000;
static volatile long units[CO_MAX_CPUS];

static void worker(void *arg)
{
	long cpu = (long)arg;
	units[cpu] += CO_CALL(struct rb, obj, work, calls);
}

int main(int argc, char **argv)
{
	calls = wl_number(argc > 1 ? argv[1] : 0, 2000);
	long online = meminfo(MEMINFO_CPUS);
	long cpus = wl_number(argc > 2 ? argv[2] : 0, online);
	long rounds = wl_number(argc > 3 ? argv[3] : 0, 1);
	if (calls < 1 || cpus < 1 || cpus > online || cpus > CO_MAX_CPUS || rounds < 0) {
		printf("repbench: usage: repbench [calls >= 1] [CPUs 1-%ld] [rounds, 0 = forever]\n", online);
		return 2;
	}
	co_register_class(&rb_class);
	struct co_root *root = malloc(sizeof *root);
	if (!root)
		return 1;
	memset(root, 0, sizeof *root);
	root->cls = &rb_class;
	root->kind = CO_PER_CPU_REPS;
	root->make_rep = make_rep;
	root->free = free_rep;
	if (!(obj = co_create(root))) {
		printf("repbench: no object\n");
		return 1;
	}
	printf("repbench: pid %d object coid=%p cpus=%ld\n", getpid(), (void *)obj, cpus);
	for (long r = 0; rounds == 0 || r < rounds; r++) {
		int tids[CO_MAX_CPUS];
		for (long c = 0; c < cpus; c++)
			if ((tids[c] = thread_create(worker, (void *)c, (int)c)) < 0) {
				printf("repbench: round %ld: cannot create a thread (%d)\n", r + 1, tids[c]);
				return 1;
			}
		for (long c = 0; c < cpus; c++)
			thread_join(tids[c]);
		long total = 0;
		for (long c = 0; c < cpus; c++)
			total += units[c];
		printf("repbench: shares");
		for (long c = 0; c < cpus; c++) {
			long permille = total ? units[c] * 1000 / total : 0;
			printf(" cpu%ld=%ld.%ld%%", c, permille / 10, permille % 10);
		}
		printf(" (%ld units, %u reps)\n", total, co_rep_count(obj));
	}
	return 0;
}

/* An object-oriented spin-lock loop (thesis 4.4): a SpinBench object whose method runs the
 * loop, taking and releasing the object's spin lock around a counter update, from one or more
 * threads at once. Every instruction of the loop runs inside the object's method, so the
 * monitor should attribute (nearly) every sample taken in it to this object.
 * Usage: spinbench [iterations per round (1000000)] [threads (1)] [rounds (1; 0 = forever)]
 *                  [pause after each round, ms (0)]
 * A pause leaves the CPU idle between rounds: a steady stream of samples that does not take
 * all of the machine (tests that time the daemon's answers). */
#include "workload.h"
#include <socket.h>

struct bench;
struct bench_ops { long (*run)(struct bench *b, long iterations); };
struct bench { const struct bench_ops *ops; struct spinlock lock; volatile long count; };

CO_METHOD(long, bench_run, struct bench *b, long iterations)
{
	for (long i = 0; i < iterations; i++) {
		spin_lock(&b->lock);
		b->count++;
		spin_unlock(&b->lock);
	}
	return b->count;
}

static const struct bench_ops ops = { bench_run };
static const struct co_class bench_class = { "SpinBench", &ops, 1, 0 };

static struct bench the_bench = { &ops, SPINLOCK_INIT, 0 };
static coid_t bench;
static long iterations = 1000000;

static void worker(void *arg)
{
	(void)arg;
	CO_CALL(struct bench, bench, run, iterations);
}

int main(int argc, char **argv)
{
	iterations = wl_number(argc > 1 ? argv[1] : 0, 1000000);
	long threads = wl_number(argc > 2 ? argv[2] : 0, 1);
	long rounds = wl_number(argc > 3 ? argv[3] : 0, 1);
	long pause_ms = wl_number(argc > 4 ? argv[4] : 0, 0);
	if (threads < 1 || threads > 16) {
		printf("spinbench: threads must be 1 to 16\n");
		return 2;
	}
	bench = wl_static_object(&bench_class, &the_bench);
	if (!bench) {
		printf("spinbench: cannot create the object\n");
		return 1;
	}
	printf("spinbench: pid %d object rep=0x%lx index=%u iterations=%ld threads=%ld\n", getpid(),
	       (unsigned long)co_rep(bench), co_index(bench), iterations, threads);
	for (long r = 0; rounds == 0 || r < rounds; r++) {
		uint64_t t0 = clock_ns();
		int tids[16];
		for (long t = 1; t < threads; t++)
			if ((tids[t] = thread_create(worker, 0, -1)) < 0) {
				printf("spinbench: round %ld: cannot create a thread (%d)\n", r + 1, tids[t]);
				return 1;
			}
		worker(0);
		for (long t = 1; t < threads; t++)
			thread_join(tids[t]);
		if (rounds)
			printf("spinbench: round %ld done in %lu ns, count %ld\n", r + 1,
			       (unsigned long)(clock_ns() - t0), the_bench.count);
		if (pause_ms) {
			struct pollfd none = { -1, 0, 0 };   /* ignored: the wait is a sleep */
			poll(&none, 1, (int)pause_ms);
		}
	}
	return 0;
}

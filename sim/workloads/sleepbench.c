/* Sleep-lock contention on an object (thesis 3.2.1, lock statistics): a SleepBench object whose
 * method takes the object's monitored mutex, updates it and yields while holding it, so that
 * every other thread arrives, finds it taken and sleeps, then yields after releasing it so a
 * woken waiter gets it: nearly every acquisition waits, and the waiters seen reach
 * threads - 1.
 * Every 5 s of run time it prints a progress line (acquisitions so far, and their rate), so a
 * long or endless run shows it is alive.
 * Usage: sleepbench [threads (3)] [iterations per thread and round (1000)] [rounds (1; 0 = forever)] */
#include "workload.h"

struct sleeper;
struct sleeper_ops { long (*work)(struct sleeper *s, long iterations); };
struct sleeper { const struct sleeper_ops *ops; struct mutex lock; volatile long count; };

#define PROGRESS_NS 5000000000ull
static uint64_t started_ns;
static volatile uint64_t next_progress_ns;

/* One thread (whichever claims the slot) prints; checked every 64 iterations, off the lock. */
static void progress(long count)
{
	uint64_t due = next_progress_ns, now = clock_ns();
	if (now < due || !__atomic_compare_exchange_n(&next_progress_ns, &due, now + PROGRESS_NS, 0,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		return;
	uint64_t ms = (now - started_ns) / 1000000;
	printf("sleepbench: alive after %lu s: %ld acquisitions, %lu per second\n",
	       (unsigned long)(ms / 1000), count, (unsigned long)(ms ? (uint64_t)count * 1000 / ms : 0));
}

CO_METHOD(long, sleeper_work, struct sleeper *s, long iterations)
{
	for (long i = 0; i < iterations; i++) {
		mutex_lock(&s->lock);
		s->count++;
		yield();   /* hold it across a reschedule: the others queue up */
		mutex_unlock(&s->lock);
		yield();   /* and let the woken waiter take it, rather than retaking it at once */
		if ((i & 63) == 63)
			progress(s->count);
	}
	return s->count;
}

static const struct sleeper_ops ops = { sleeper_work };
static const struct co_class sleeper_class = { "SleepBench", &ops, 1, 0 };
static struct sleeper the_sleeper = { &ops, MUTEX_INIT, 0 };
static coid_t sleeper;
static long iterations;

static void worker(void *arg)
{
	(void)arg;
	CO_CALL(struct sleeper, sleeper, work, iterations);
}

int main(int argc, char **argv)
{
	long threads = wl_number(argc > 1 ? argv[1] : 0, 3);
	iterations = wl_number(argc > 2 ? argv[2] : 0, 1000);
	long rounds = wl_number(argc > 3 ? argv[3] : 0, 1);
	if (threads < 1 || threads > 16) {
		printf("sleepbench: threads must be 1 to 16\n");
		return 2;
	}
	sleeper = wl_static_object(&sleeper_class, &the_sleeper);
	if (!sleeper || mutex_monitor(&the_sleeper.lock, co_rep(sleeper)) != 0) {
		printf("sleepbench: cannot create the object or monitor its lock\n");
		return 1;
	}
	printf("sleepbench: pid %d object rep=0x%lx lock=0x%lx threads=%ld iterations=%ld\n", getpid(),
	       (unsigned long)co_rep(sleeper), (unsigned long)&the_sleeper.lock, threads, iterations);
	started_ns = clock_ns();
	next_progress_ns = started_ns + PROGRESS_NS;
	for (long r = 0; rounds == 0 || r < rounds; r++) {
		int tids[16];
		for (long t = 0; t < threads; t++)
			if ((tids[t] = thread_create(worker, 0, -1)) < 0) {
				printf("sleepbench: round %ld: cannot create a thread (%d)\n", r + 1, tids[t]);
				return 1;
			}
		for (long t = 0; t < threads; t++)
			thread_join(tids[t]);
		if (rounds)
			printf("sleepbench: round %ld done, count %ld\n", r + 1, the_sleeper.count);
	}
	for (int i = 0; i < 20; i++)   /* a moment for a monitor polling the lock (kmcheck) */
		yield();
	return 0;
}

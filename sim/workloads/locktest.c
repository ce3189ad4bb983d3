/* Threads on every CPU add to shared counters, one under a spin lock (lwarx/stwcx.) and one
 * under a sleep lock (a mutex whose waiters block in the kernel's blocked-thread queues).
 * The totals must be exact. Usage: locktest [threads-per-cpu] [rounds] */
#include <kov.h>

static struct spinlock spin;
static struct mutex mutex = MUTEX_INIT;
static volatile long spin_total, mutex_total;
static int rounds = 5000;

static int number(const char *s, int dflt)
{
	int v = 0;
	if (!s || !*s)
		return dflt;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return v;
}

static void adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < rounds; i++) {
		spin_lock(&spin);
		spin_total = spin_total + 1;
		spin_unlock(&spin);
		mutex_lock(&mutex);
		long v = mutex_total;
		if (i % 100 == 0)
			yield();   /* hold the sleep lock across a switch: others must block */
		mutex_total = v + 1;
		mutex_unlock(&mutex);
	}
}

static struct lock_event events[20000];
static struct lock_log log = { events, 20000, 0 };

int main(int argc, char **argv)
{
	int per_cpu = number(argc > 1 ? argv[1] : 0, 2);
	rounds = number(argc > 2 ? argv[2] : 0, 5000);
	mutex.logged = 1;
	lock_log_install(&log);
	int tids[64], n = 0, cpus = 0;
	/* Count the CPUs by asking for a thread on each until one is refused. */
	for (int cpu = 0; cpu < 8; cpu++) {
		int first = thread_create(adder, 0, cpu);
		if (first < 0)
			break;
		tids[n++] = first;
		cpus++;
		for (int i = 1; i < per_cpu && n < 64; i++)
			tids[n++] = thread_create(adder, 0, cpu);
	}
	uint64_t start = clock_ns();
	for (int i = 0; i < n; i++)
		thread_join(tids[i]);
	lock_log_install(0);
	long want = (long)n * rounds;
	/* Every enqueue has its dequeue by the same thread; the queue never goes negative. */
	uint32_t logged = log.next < log.capacity ? log.next : log.capacity;
	long enq = 0, deq = 0, depth = 0, max_depth = 0;
	int balanced = 1;
	for (uint32_t i = 0; i < logged; i++) {
		if (events[i].kind == LOCK_EVENT_ENQUEUE)
			enq++, depth++;
		else
			deq++, depth--;
		if (depth > max_depth)
			max_depth = depth;
		balanced &= depth >= 0;
	}
	printf("locktest: sleep-lock log: %u events (%u lost), %ld waits, %ld wake-ups, max waiters %ld\n",
	       logged, log.next - logged, enq, deq, max_depth);
	if (log.next <= log.capacity && (enq != deq || !balanced))
		return 2;
	printf("locktest: %d threads on %d CPUs x %d rounds: spin %ld, sleep %ld, expected %ld: %s "
	       "(%lu ms)\n", n, cpus, rounds, spin_total, mutex_total, want,
	       spin_total == want && mutex_total == want ? "exact" : "WRONG",
	       (unsigned long)((clock_ns() - start) / 1000000));
	return spin_total == want && mutex_total == want ? 0 : 1;
}

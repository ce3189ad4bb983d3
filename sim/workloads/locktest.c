/* Threads on every CPU add to shared counters, one under a spin lock (lwarx/stwcx.) and one
 * under a sleep lock (a mutex whose waiters block in the kernel's blocked-thread queues).
 * The totals must be exact. Usage: locktest [threads-per-cpu] [rounds] */
#include <kov.h>
#include "../../kernel/abi/syscall_nr.h"

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

/* A bounded queue between producers and consumers on different CPUs (mutex + two condition
 * variables): every item produced is consumed exactly once. */
#define QUEUE 8
static struct mutex qlock = MUTEX_INIT;
static struct cond not_empty = COND_INIT, not_full = COND_INIT;
static long queue[QUEUE], qhead, qcount, consumed_sum, consumed_n;
static const long items = 3000;

static void producer(void *arg)
{
	long base = (long)arg;
	for (long i = 1; i <= items; i++) {
		mutex_lock(&qlock);
		while (qcount == QUEUE)
			cond_wait(&not_full, &qlock);
		queue[(qhead + qcount++) % QUEUE] = base + i;
		cond_signal(&not_empty);
		mutex_unlock(&qlock);
	}
}

static void consumer(void *arg)
{
	(void)arg;
	for (long i = 0; i < items; i++) {
		mutex_lock(&qlock);
		while (qcount == 0)
			cond_wait(&not_empty, &qlock);
		consumed_sum += queue[qhead];
		consumed_n++;
		qhead = (qhead + 1) % QUEUE;
		qcount--;
		cond_signal(&not_full);
		mutex_unlock(&qlock);
	}
}

static int queue_test(int cpus)
{
	int t[4];
	t[0] = thread_create(producer, (void *)0, 0);
	t[1] = thread_create(producer, (void *)1000000, cpus > 1 ? 1 : 0);
	t[2] = thread_create(consumer, 0, cpus > 2 ? 2 : 0);
	t[3] = thread_create(consumer, 0, cpus > 3 ? 3 : 0);
	for (int i = 0; i < 4; i++)
		thread_join(t[i]);
	long want = 2 * (items * (items + 1) / 2) + 1000000 * items;
	printf("locktest: condition-variable queue: %ld items consumed, sum %ld, expected %ld: %s\n",
	       consumed_n, consumed_sum, want, consumed_sum == want && consumed_n == 2 * items ?
	       "exact" : "WRONG");
	return consumed_sum == want && consumed_n == 2 * items;
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
	long online = meminfo(MEMINFO_CPUS);
	for (int cpu = 0; cpu < online && cpu < 8; cpu++) {
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
	if (!queue_test(cpus))
		return 3;
	return spin_total == want && mutex_total == want ? 0 : 1;
}

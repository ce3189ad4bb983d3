/* Load balancing seen from user space: THREADS CPU-bound threads are all started pinned to
 * CPU 0 and then set free (affinity: every CPU), so the kernel must spread them itself (idle
 * CPUs pull, loaded ones push); a further thread is pinned to the last CPU and must never run
 * anywhere else. Every thread asks getcpu() between slices of work and counts where it ran;
 * where each free thread was at three quarters of the run (before threads end and the last
 * ones spread out again) is the snapshot the summary gives.
 * Prints one line per thread and a summary the test checks:
 *   spread: free tid=T snapshot_cpu=C moves=M cpus=n0/n1/...
 *   spread: pinned cpu=P elsewhere=E checks=N
 *   spread: summary threads=N cpus=K cpus_used=U max_per_cpu=M min_per_cpu=m moves=M
 * Usage: spread [threads (8)] [seconds (4)] */
#include "workload.h"
#include "../../kernel/abi/syscall_nr.h"

#define MAX_THREADS 16
#define SLICE 20000   /* iterations between getcpu() calls */

struct worker {
	int tid;
	volatile int final_cpu;
	volatile uint64_t moves, checks, elsewhere;
	volatile uint64_t ran_on[THREAD_CPU_MAX];
	int pinned_to;   /* -1: free */
};

static struct worker workers[MAX_THREADS + 1];
static volatile int stop;

static void work(void *arg)
{
	struct worker *w = arg;
	int last = -1;
	while (!stop) {
		for (volatile int i = 0; i < SLICE; i++)
			;
		int c = getcpu();
		if (c < 0 || c >= THREAD_CPU_MAX)
			continue;
		w->ran_on[c]++;
		w->checks++;
		if (last >= 0 && c != last)
			w->moves++;
		if (w->pinned_to >= 0 && c != w->pinned_to)
			w->elsewhere++;
		last = c;
		w->final_cpu = c;
	}
}

int main(int argc, char **argv)
{
	long n = wl_number(argc > 1 ? argv[1] : 0, 8);
	long seconds = wl_number(argc > 2 ? argv[2] : 0, 4);
	int cpus = (int)meminfo(MEMINFO_CPUS);
	if (n < 1 || n > MAX_THREADS || seconds < 1 || cpus < 1) {
		printf("spread: 1-%d threads, at least 1 second\n", MAX_THREADS);
		return 2;
	}
	uint64_t all = (1ull << cpus) - 1;
	for (long i = 0; i < n; i++) {
		workers[i].pinned_to = -1;
		workers[i].final_cpu = -1;
		workers[i].tid = thread_create(work, &workers[i], 0);
		if (workers[i].tid < 0) {
			printf("spread: thread_create failed: %d\n", workers[i].tid);
			return 1;
		}
		if (sched_getaffinity(workers[i].tid) != 1) {
			printf("spread: a thread created on CPU 0 is not pinned there\n");
			return 1;
		}
	}
	struct worker *pin = &workers[n];
	pin->pinned_to = cpus - 1;
	pin->tid = thread_create(work, pin, cpus - 1);
	for (long i = 0; i < n; i++)
		if (sched_setaffinity(workers[i].tid, all) != 0 ||
		    sched_getaffinity(workers[i].tid) != (long)all) {
			printf("spread: sched_setaffinity failed\n");
			return 1;
		}
	if (sched_setaffinity(0, 0) != -KOV_EINVAL || sched_setaffinity(1 << 30, all) != -KOV_ESRCH) {
		printf("spread: bad affinity arguments were not refused\n");
		return 1;
	}
	uint64_t start = clock_ns(), run = (uint64_t)seconds * 1000000000ull;
	int snapshot[MAX_THREADS];
	while (clock_ns() < start + run / 4 * 3)
		yield();
	for (long i = 0; i < n; i++)
		snapshot[i] = workers[i].final_cpu;
	while (clock_ns() < start + run)
		yield();
	stop = 1;
	for (long i = 0; i <= n; i++)
		thread_join(workers[i].tid);
	int per_cpu[THREAD_CPU_MAX] = { 0 };
	uint64_t moves = 0;
	for (long i = 0; i < n; i++) {
		struct worker *w = &workers[i];
		char ran[96];
		int len = 0;
		for (int c = 0; c < cpus; c++)
			len += snprintf(ran + len, sizeof ran - (size_t)len, "%s%lu", c ? "/" : "",
					(unsigned long)w->ran_on[c]);
		printf("spread: free tid=%d snapshot_cpu=%d moves=%lu cpus=%s\n", w->tid, snapshot[i],
		       (unsigned long)w->moves, ran);
		if (snapshot[i] >= 0)
			per_cpu[snapshot[i]]++;
		moves += w->moves;
	}
	printf("spread: pinned cpu=%d elsewhere=%lu checks=%lu\n", pin->pinned_to,
	       (unsigned long)pin->elsewhere, (unsigned long)pin->checks);
	int used = 0, most = 0, least = (int)n;
	for (int c = 0; c < cpus; c++) {
		used += per_cpu[c] > 0;
		most = per_cpu[c] > most ? per_cpu[c] : most;
		least = per_cpu[c] < least ? per_cpu[c] : least;
	}
	printf("spread: summary threads=%ld cpus=%d cpus_used=%d max_per_cpu=%d "
	       "min_per_cpu=%d moves=%lu\n", n, cpus, used, most, least, (unsigned long)moves);
	return 0;
}

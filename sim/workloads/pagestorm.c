/* A page-fault storm like the thesis's contention scenario: processes keep being created on
 * every CPU, each faulting in pages (Process -> Region -> FCM -> PM) and exiting, which gives
 * them back. The page manager and the file cache managers take spin locks on every fault, so
 * `kovctl top --metric spinlock` should rank those page-fetch objects first. Runs until the
 * machine stops (rounds 0), so it also serves live demos.
 * Usage: pagestorm [processes at once (8)] [pages each (64)] [rounds (0 = forever)]
 *        pagestorm child PAGES   (what each process runs) */
#include "workload.h"

#define PAGE 4096

static int child(long pages)
{
	volatile char *mem = malloc((size_t)pages * PAGE);
	if (!mem)
		return 1;
	for (long p = 0; p < pages; p++)
		mem[p * PAGE] = (char)p;   /* one fault per page */
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "child") == 0)
		return child(wl_number(argv[2], 64));
	long wave = wl_number(argc > 1 ? argv[1] : 0, 8);
	long pages = wl_number(argc > 2 ? argv[2] : 0, 64);
	long rounds = wl_number(argc > 3 ? argv[3] : 0, 0);
	if (wave < 1 || wave > 32 || pages < 1 || pages > 4096) {
		printf("pagestorm: 1-32 processes at once, 1-4096 pages each\n");
		return 2;
	}
	char args[32];
	snprintf(args, sizeof args, "child,%ld", pages);
	printf("pagestorm: pid %d, %ld processes at once, %ld pages each\n", getpid(), wave, pages);
	long failed = 0, done = 0;
	if (rounds)   /* the memory it will give back: a bounded run's own truth */
		printf("pagestorm: before: %ld pages free, %ld page-manager frames out, %ld pages "
		       "elsewhere\n", meminfo(MEMINFO_FREE_PAGES), meminfo(MEMINFO_PM_FRAMES),
		       meminfo(MEMINFO_PAGES_ELSEWHERE));
	uint64_t t0 = clock_ns(), next_ms = 1000;
	for (long r = 0; rounds == 0 || r < rounds; r++) {
		int pids[32];
		for (long i = 0; i < wave; i++)
			pids[i] = spawn("pagestorm", args);
		for (long i = 0; i < wave; i++) {
			int status = -1;
			if (pids[i] < 0 || wait_pid(pids[i], &status) != pids[i] || status != 0)
				failed++;
		}
		done += wave;
		if (rounds || done % 1000 == 0)
			printf("pagestorm: %ld processes done, %ld failed\n", done, failed);
		/* A progress line each second of the machine's clock: throughput over any span. */
		uint64_t ms = (clock_ns() - t0) / 1000000;
		if (ms >= next_ms) {
			printf("pagestorm: t=%lu ms done=%ld\n", (unsigned long)ms, done);
			next_ms = (ms / 1000 + 1) * 1000;
		}
	}
	/* Throughput of a bounded run (rounds > 0): processes and page faults per second. */
	uint64_t ms = (clock_ns() - t0) / 1000000;
	if (ms)
		printf("pagestorm: %ld processes, %ld heap-page faults in %lu ms: %lu processes/s, %lu faults/s, "
		       "%ld failed\n", done, done * pages, (unsigned long)ms,
		       (unsigned long)(done * 1000 / (long)ms), (unsigned long)(done * pages * 1000 / (long)ms),
		       failed);
	if (rounds) {
		printf("pagestorm: after: %ld pages free, %ld page-manager frames out, %ld pages "
		       "elsewhere\n", meminfo(MEMINFO_FREE_PAGES), meminfo(MEMINFO_PM_FRAMES),
		       meminfo(MEMINFO_PAGES_ELSEWHERE));
	}
	return failed ? 1 : 0;
}

/* Creates and reaps processes (200 by default, or argv[1]) in waves of up to 8 running at once,
 * then checks that every physical page, page-manager frame, kernel heap block and process slot
 * came back: nothing leaks through Process, Region, FCM, PM, HAT or SegmentHAT. */
#include <kov.h>
#include "../../kernel/abi/syscall_nr.h"
#include "workload.h"

#define WAVE 8

int main(int argc, char **argv)
{
	int total = 200;
	if (argc > 1) {
		total = 0;
		for (const char *p = argv[1]; *p >= '0' && *p <= '9'; p++)
			total = total * 10 + (*p - '0');
	}
	/* Warm up with one full wave: this process's stack and the kernel heap's size-class caches
	 * grow to their steady state, so what is measured afterwards is leaks only. */
	printf("spawnstorm: %d processes, %d at a time\n", total, WAVE);
	int warm[WAVE];
	for (int i = 0; i < WAVE; i++)
		warm[i] = spawn("hello", "0,quiet");
	for (int i = 0; i < WAVE; i++)
		wait_pid(warm[i], 0);
	wl_warm_every_cpu();
	long blocks = wl_settled_heap_blocks(), procs = meminfo(MEMINFO_PROCESSES);
	long pages = meminfo(MEMINFO_FREE_PAGES), frames = meminfo(MEMINFO_PM_FRAMES);
	uint64_t start = clock_ns();
	int done = 0, failed = 0;
	while (done < total) {
		int pids[WAVE], n = 0;
		for (; n < WAVE && done + n < total; n++)
			pids[n] = spawn("hello", "0,quiet");
		for (int i = 0; i < n; i++) {
			int status = -1;
			if (pids[i] < 0 || wait_pid(pids[i], &status) != pids[i] || status != 0)
				failed++;
		}
		done += n;
	}
	uint64_t ns = clock_ns() - start;
	long blocks2 = wl_settled_heap_blocks(), procs2 = meminfo(MEMINFO_PROCESSES);
	long pages2 = meminfo(MEMINFO_FREE_PAGES), frames2 = meminfo(MEMINFO_PM_FRAMES);
	printf("spawnstorm: %d processes created and reaped in %lu ms, %d failed\n", total,
	       (unsigned long)(ns / 1000000), failed);
	printf("spawnstorm: free pages %ld -> %ld, PM frames out %ld -> %ld, heap blocks %ld -> %ld, "
	       "processes %ld -> %ld\n", pages, pages2, frames, frames2, blocks, blocks2, procs, procs2);
	int ok = !failed && pages == pages2 && frames == frames2 && blocks == blocks2 && procs == procs2;
	printf("spawnstorm: %s\n", ok ? "nothing leaked" : "LEAK");
	return ok ? 0 : 1;
}

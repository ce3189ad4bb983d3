/* exit() while other threads still run: one spins in user mode, one sleeps on a futex that is
 * never woken. The process must end with main's status and give everything back. Run as a
 * child of itself ("threadexit" spawns "threadexit child" and checks the aftermath).
 * "threadexit join": the same while main is joining the sleeper, and a third thread calls
 * exit(): the exit must wake the thread being joined, and the join must not end before it has
 * (it used to end at the exit's wake-up and free the sleeper while it still slept). */
#include <kov.h>
#include "../../kernel/abi/syscall_nr.h"
#include "workload.h"

static volatile uint32_t never;

static void spinner(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ volatile("" : : : "memory");
}

static void sleeper(void *arg)
{
	(void)arg;
	futex_wait(&never, 0);
	printf("threadexit: sleeper woke up\n");
}

static __attribute__((noreturn)) void exiter(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++)
		yield();
	exit(3);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		thread_create(spinner, 0, -1);
		thread_create(sleeper, 0, -1);
		exiter(0);
	}
	if (argc > 1 && strcmp(argv[1], "joiner") == 0) {
		int sleeping = thread_create(sleeper, 0, -1);
		thread_create(exiter, 0, -1);
		thread_join(sleeping);
		printf("threadexit: the join of a sleeping thread ended before the exit\n");
		exit(4);
	}
	const char *child = argc > 1 && strcmp(argv[1], "join") == 0 ? "joiner" : "child";
	int warm = spawn("threadexit", child);
	wait_pid(warm, 0);
	wl_warm_every_cpu();
	/* Kernel heap blocks (ours, the kernel's and reaped processes': the child's among them once
	 * it is gone, wl_heap_blocks_mine) and page-manager frames are exact; free pages may differ
	 * by the heap's fragmentation (same blocks on different pages), so they are only reported. */
	long blocks = wl_settled_heap_blocks(), pages = meminfo(MEMINFO_FREE_PAGES);
	long frames = meminfo(MEMINFO_PM_FRAMES);
	meminfo(MEMINFO_HEAP_MARK);   /* each allocation site's live blocks, for the report below */
	int status = -1;
	int pid = spawn("threadexit", child);
	int got = wait_pid(pid, &status);
	long blocks2 = wl_settled_heap_blocks();
	/* A block whose object waits for a CPU's quiescent point can stay longer than the settle
	 * time on a loaded host: give it 2 s more, then name the sites that still differ. */
	for (uint64_t t = clock_ns(); blocks2 != blocks && clock_ns() - t < 2000000000ull;)
		yield(), blocks2 = wl_heap_blocks_mine();
	if (blocks2 != blocks)
		meminfo(MEMINFO_HEAP_REPORT);
	long pages2 = meminfo(MEMINFO_FREE_PAGES);
	long frames2 = meminfo(MEMINFO_PM_FRAMES);
	printf("threadexit: %s %d status %d; PM frames out %ld -> %ld, heap blocks %ld -> %ld, "
	       "free pages %ld -> %ld\n", child, got, status, frames, frames2, blocks, blocks2, pages, pages2);
	return got == pid && status == 3 && frames == frames2 && blocks == blocks2 ? 0 : 1;
}

/* Console lines under pressure: two processes (this one and a child copy) each run THREADS
 * threads printing LINES lines, every line built from several printf calls with yields
 * between them, every fifth one by puts; meanwhile the first process spawns CRASHES children
 * that die, so the kernel prints its kill reports at the same time. Every line must reach the
 * console whole (tests/qemu/console_lines.sh checks each one).
 *   linestorm [THREADS [LINES [CRASHES]]]     defaults 3 40 4 */
#include "workload.h"

#define MAX_THREADS 16

static long lines;

static void writer(void *arg)
{
	long t = (long)arg;
	int pid = getpid();
	for (long n = 0; n < lines; n++) {
		long words = 3 + n % 7;
		if (n % 5 == 4) {   /* one call for the whole line */
			char line[160];
			int len = snprintf(line, sizeof line, "linestorm: p%d t%ld n%ld", pid, t, n);
			for (long w = 0; w < words; w++)
				len += snprintf(line + len, sizeof line - (size_t)len, " w%ld", w);
			snprintf(line + len, sizeof line - (size_t)len, " end%d.%ld.%ld", pid, t, n);
			puts(line);
			continue;
		}
		printf("linestorm: p%d t%ld n%ld", pid, t, n);
		for (long w = 0; w < words; w++) {
			printf(" w%ld", w);
			if (w % 2)
				yield();   /* let the other writers in mid-line */
		}
		printf(" end%d.%ld.%ld\n", pid, t, n);
	}
}

int main(int argc, char **argv)
{
	bool child = argc > 1 && strcmp(argv[1], "child") == 0;
	int a = child ? 2 : 1;
	long threads = wl_number(argc > a ? argv[a] : 0, 3);
	lines = wl_number(argc > a + 1 ? argv[a + 1] : 0, 40);
	long crashes = child ? 0 : wl_number(argc > a + 2 ? argv[a + 2] : 0, 4);
	if (threads < 1 || threads > MAX_THREADS) {
		printf("linestorm: 1 to %d threads, not %ld\n", MAX_THREADS, threads);
		return 2;
	}
	int copy = -1;
	if (!child) {
		char args[48];
		snprintf(args, sizeof args, "child,%ld,%ld", threads, lines);   /* comma-separated */
		copy = spawn("linestorm", args);
	}
	int tids[MAX_THREADS];
	for (long t = 0; t < threads; t++)
		tids[t] = thread_create(writer, (void *)t, -1);
	for (long c = 0; c < crashes; c++) {
		int status;
		wait_pid(spawn("crash", 0), &status);
	}
	int failed = 0;
	for (long t = 0; t < threads; t++)
		failed += tids[t] < 0 || thread_join(tids[t]) != 0;
	int status = 0;
	if (copy > 0 && (wait_pid(copy, &status) != copy || status != 0))
		failed++;
	printf("linestorm: %s pid %d: %ld threads x %ld lines%s\n", child ? "child" : "parent",
	       getpid(), threads, lines, failed ? ", something failed" : "");
	return failed ? 1 : 0;
}

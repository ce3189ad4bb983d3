/* Ends every running process of a name, after a delay: what an operator (or a test) does to a
 * daemon that must come back. Started by the kernel or init, it is privileged and may end any
 * process.
 *
 * Usage: kill NAME [delay before, s (0)]
 * Prints one line per process ended; exits 0 if it ended at least one, 1 if none runs, 2 on a
 * usage error. */
#include "workload.h"
#include <socket.h>

int main(int argc, char **argv)
{
	if (argc < 2 || !argv[1][0]) {
		printf("kill: usage: kill NAME [delay s]\n");
		return 2;
	}
	long delay = wl_number(argc > 2 ? argv[2] : 0, 0);
	if (delay > 0) {
		struct pollfd none = { -1, 0, 0 };
		poll(&none, 1, (int)(delay * 1000));
	}
	static struct km_process procs[64];
	long n = km_processes(procs, 64);
	if (n < 0) {
		printf("kill: cannot list the processes: error %ld\n", -n);
		return 1;
	}
	int ended = 0;
	for (long i = 0; i < n && i < 64; i++) {
		if (procs[i].state != KM_PROC_RUNNING || strcmp(procs[i].name, argv[1]) != 0)
			continue;
		int rc = kill((int)procs[i].pid);
		if (rc == 0) {
			printf("kill: pid %u (%s) ended\n", procs[i].pid, procs[i].name);
			ended++;
		} else {
			printf("kill: pid %u (%s): error %d\n", procs[i].pid, procs[i].name, -rc);
		}
	}
	if (!ended)
		printf("kill: no running process is named %s\n", argv[1]);
	return ended ? 0 : 1;
}

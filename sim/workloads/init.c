/* The first user process. The kernel starts it with the boot command line's run= list:
 * "init PROGRAM ARG..." runs PROGRAM with its arguments and exits with its status, which the
 * kernel reports before powering off. Processes init starts (and init itself) may use the
 * monitor's privileged calls. */
#include <kov.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		printf("init: nothing to run\n");
		return 0;
	}
	char args[256];
	size_t len = 0;
	args[0] = 0;
	for (int i = 2; i < argc; i++) {
		size_t n = strlen(argv[i]);
		if (len + n + 2 > sizeof args) {
			printf("init: arguments too long\n");
			return 127;
		}
		if (i > 2)
			args[len++] = ',';
		memcpy(args + len, argv[i], n);
		len += n;
		args[len] = 0;
	}
	int pid = spawn(argv[1], args);
	if (pid < 0) {
		printf("kov: cannot run %s: error %d\n", argv[1], -pid);
		return 127;
	}
	int status = 0;
	if (wait_pid(pid, &status) != pid)
		return 127;
	return status;
}

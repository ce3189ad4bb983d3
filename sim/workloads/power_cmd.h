/* What halt and reboot share: an optional delay, the request, and a clear error if refused. */
#ifndef KOV_POWER_CMD_H
#define KOV_POWER_CMD_H

#include "workload.h"
#include <socket.h>

/* Usage: NAME [delay before, s (0)]. Returns (exit status 1) only if the kernel refused. */
static inline int power_cmd(int argc, char **argv, const char *name, int what)
{
	long delay = wl_number(argc > 1 ? argv[1] : 0, 0);
	if (delay < 0 || (argc > 1 && argv[1][0] && (argv[1][0] < '0' || argv[1][0] > '9'))) {
		printf("%s: usage: %s [delay s]\n", name, name);
		return 2;
	}
	if (delay > 0) {
		struct pollfd none = { -1, 0, 0 };
		poll(&none, 1, (int)(delay * 1000));
	}
	int rc = power(what);
	printf("%s: refused: %s\n", name, rc == -KOV_EPERM ? "not privileged (started by the kernel "
	       "or init only)" : rc == -KOV_ENOSYS ? "this platform cannot" : "error");
	return 1;
}

#endif

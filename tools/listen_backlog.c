/* liblisten-backlog.so: preloaded into QEMU by sim/run when it forwards host ports.
 *
 * QEMU's user networking (libslirp) listens on a forwarded port with a backlog of 1. A client
 * that opens many connections at once (ApacheBench -c 64) then overflows the host kernel's
 * accept queue: the connections complete on the client's side through SYN cookies, their
 * requests are dropped, and their retransmissions, all timed alike, overflow the queue again,
 * so most wait for seconds or never reach the target (measured: 43 of 64 keep-alive
 * connections unanswered after 10 s). Raising the backlog of QEMU's listen() calls to at
 * least LISTEN_BACKLOG_MIN lets libslirp take them at its own pace. Nothing else changes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/socket.h>

#define LISTEN_BACKLOG_MIN 128

int listen(int fd, int backlog)
{
	static int (*real_listen)(int, int);
	if (!real_listen)
		real_listen = (int (*)(int, int))dlsym(RTLD_NEXT, "listen");
	return real_listen(fd, backlog < LISTEN_BACKLOG_MIN ? LISTEN_BACKLOG_MIN : backlog);
}

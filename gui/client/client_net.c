/* Opening the TCP connection: every resolved address in turn, each with a non-blocking
 * connect bounded by what is left of the time limit, so an unreachable target costs the
 * timeout and not the kernel's minutes of SYN retries. */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "client/client.h"
#include "client/client_net.h"

/* Waits for a non-blocking connect to finish: 0 connected, else an errno (ETIMEDOUT when
 * the deadline passed). */
static int finish_connect(int fd, uint64_t deadline)
{
	for (;;) {
		uint64_t now = kov_now_ns();
		if (now >= deadline)
			return ETIMEDOUT;
		struct pollfd p = { .fd = fd, .events = POLLOUT };
		int ms = (int)((deadline - now + 999999) / 1000000);
		int r = poll(&p, 1, ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno;
		if (r == 0)
			continue;
		int err = 0;
		socklen_t len = sizeof err;
		if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0)
			return errno;
		return err;
	}
}

static int try_address(const struct addrinfo *ai, uint64_t deadline, int *err)
{
	int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
	if (fd < 0) {
		*err = errno;
		return -1;
	}
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC) < 0) {
		*err = errno;
		close(fd);
		return -1;
	}
	*err = 0;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) < 0) {
		*err = errno == EINPROGRESS ? finish_connect(fd, deadline) : errno;
	}
	if (*err) {
		close(fd);
		return -1;
	}
	/* Requests are small and answered at once: do not let Nagle hold them back. */
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	return fd;
}

int kov_net_connect(const char *host, const char *port, int timeout_ms, char *err, size_t n)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	struct addrinfo *list = NULL;
	int g = getaddrinfo(host, port, &hints, &list);
	if (g != 0) {
		snprintf(err, n, "cannot resolve %s: %s", host,
		         g == EAI_SYSTEM ? strerror(errno) : gai_strerror(g));
		return -1;
	}
	uint64_t deadline = kov_now_ns() + (uint64_t)timeout_ms * 1000000u;
	int fd = -1, last = 0;
	for (const struct addrinfo *ai = list; ai && fd < 0; ai = ai->ai_next) {
		fd = try_address(ai, deadline, &last);
		if (last == ETIMEDOUT)
			break;
	}
	freeaddrinfo(list);
	if (fd >= 0)
		return fd;
	if (last == ETIMEDOUT) {
		snprintf(err, n, "no answer within %d.%03d s", timeout_ms / 1000, timeout_ms % 1000);
		return -2;
	}
	snprintf(err, n, "%s", strerror(last));
	return -1;
}

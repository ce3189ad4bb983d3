/* Socket test and TCP echo server. First checks that bad socket calls fail cleanly, then
 * listens on a port (default 7242) and serves `conns` connections one after another: each
 * either echoes what it receives ("echo") or, if the client's first line is "sink N\n",
 * reads N bytes, or "source N\n", sends N bytes; it prints a line per connection.
 * With connect=P it is a client instead: it connects to the host (QEMU's 10.0.2.2) on port P,
 * sends a line, prints the answer and exits.
 * Usage: netecho [port=P] [conns=N] [connect=P] */
#include <kov.h>
#include <socket.h>
#include "../../kernel/abi/syscall_nr.h"

static int failures;

static void expect(const char *what, long got, long want)
{
	if (got != want) {
		printf("netecho: FAIL %s: got %ld, want %ld\n", what, got, want);
		failures++;
	}
}

static long arg_num(int argc, char **argv, const char *key, long dflt)
{
	size_t k = strlen(key);
	for (int i = 1; i < argc; i++)
		if (!memcmp(argv[i], key, k) && argv[i][k] == '=') {
			long v = 0;
			for (const char *s = argv[i] + k + 1; *s >= '0' && *s <= '9'; s++)
				v = v * 10 + (*s - '0');
			return v;
		}
	return dflt;
}

static void bad_calls(int lfd)
{
	struct sockaddr_in sa = { sizeof sa, AF_INET, htons(1), { 0 }, { 0 } };
	expect("socket with a bad domain", socket(99, SOCK_STREAM, 0), -KOV_EINVAL);
	expect("socket with a bad type", socket(AF_INET, 77, 0), -KOV_EINVAL);
	expect("bind on a bad fd", bind(1000, &sa, sizeof sa), -KOV_EBADF);
	expect("bind on the console fd", bind(1, &sa, sizeof sa), -KOV_EBADF);
	expect("bind with a kernel pointer", bind(lfd, (void *)0xC000000000001000ull, sizeof sa),
	       -KOV_EFAULT);
	expect("bind with a short address", bind(lfd, &sa, 4), -KOV_EINVAL);
	expect("send from an unmapped buffer", send(lfd, (void *)0x10, 100, 0), -KOV_EFAULT);
	expect("recv with unknown flags", recv(lfd, &sa, 1, 0x4000), -KOV_EINVAL);
	expect("poll with too many fds", poll((void *)0x10000, 100000, 0), -KOV_EINVAL);
	expect("poll from a kernel pointer", poll((void *)0xC000000000001000ull, 1, 0), -KOV_EFAULT);
	expect("setsockopt with an unknown option", setsockopt(lfd, SOL_SOCKET, 0x7777, &sa, 4),
	       -KOV_EINVAL);
	expect("setsockopt with a bad length", setsockopt(lfd, IPPROTO_TCP, TCP_NODELAY, &sa, 2),
	       -KOV_EINVAL);
	expect("close of a bad fd", close(77), -KOV_EBADF);
	struct pollfd p[2] = { { 55, POLLIN, 0 }, { -1, POLLIN, 0 } };
	expect("poll of a bad fd", poll(p, 2, 0), 1);
	expect("poll marks it POLLNVAL", p[0].revents, POLLNVAL);
	int s = socket(AF_INET, SOCK_STREAM, 0);
	expect("socket then close", close(s), 0);
	expect("close twice", close(s), -KOV_EBADF);
}

/* Threads left blocked in accept() and in an endless poll() when main returns: the process
 * must still exit (the kernel wakes them and closes their sockets). */
static void blocked_accept(void *arg)
{
	int fd = (int)(long)arg;
	accept(fd, 0, 0);
}

static void blocked_poll(void *arg)
{
	struct pollfd p = { (int)(long)arg, POLLIN, 0 };
	poll(&p, 1, -1);
}

static void leave_blocked_threads(void)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { sizeof sa, AF_INET, htons(7300), { INADDR_ANY }, { 0 } };
	expect("bind 7300", bind(fd, &sa, sizeof sa), 0);
	expect("listen 7300", listen(fd, 1), 0);
	thread_create(blocked_accept, (void *)(long)fd, -1);
	thread_create(blocked_poll, (void *)(long)fd, -1);
}

static long parse_count(const char *s)
{
	long v = 0;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return v;
}

static void serve(int c, char *buf, size_t cap)
{
	long n = recv(c, buf, cap, 0);
	if (n <= 0)
		return;
	uint64_t t0 = clock_ns();
	if (n > 5 && !memcmp(buf, "sink ", 5)) {
		long want = parse_count(buf + 5), got = 0;
		for (char *nl = buf; nl < buf + n; nl++)
			if (*nl == '\n') {
				got = buf + n - nl - 1;
				break;
			}
		while (got < want && (n = recv(c, buf, cap, 0)) > 0)
			got += n;
		send(c, "ok\n", 3, 0);
		printf("netecho: sink %ld bytes in %lu us\n", got, (unsigned long)((clock_ns() - t0) / 1000));
	} else if (n > 7 && !memcmp(buf, "source ", 7)) {
		long want = parse_count(buf + 7), sent = 0;
		memset(buf, 'k', cap);
		while (sent < want) {
			long chunk = want - sent < (long)cap ? want - sent : (long)cap;
			if ((n = send(c, buf, (size_t)chunk, 0)) <= 0)
				break;
			sent += n;
		}
		printf("netecho: source %ld bytes in %lu us\n", sent, (unsigned long)((clock_ns() - t0) / 1000));
	} else {
		long total = 0;
		do {
			if (send(c, buf, (size_t)n, 0) != n)
				break;
			total += n;
		} while ((n = recv(c, buf, cap, 0)) > 0);
		printf("netecho: echoed %ld bytes\n", total);
	}
}

static int client(int port)
{
	/* Outgoing connections need the address DHCP is still fetching just after boot. */
	struct km_netinfo ni;
	uint64_t start = clock_ns();
	while ((netinfo(&ni) != 0 || !ni.ipv4) && clock_ns() - start < 10000000000ull)
		yield();
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in host = { sizeof host, AF_INET, htons((uint16_t)port),
				    { htonl(0x0A000202u) }, { 0 } };   /* 10.0.2.2 */
	expect("connect", connect(fd, &host, sizeof host), 0);
	struct sockaddr_in me;
	socklen_t len = sizeof me;
	expect("getsockname", getsockname(fd, &me, &len), 0);
	static const char line[] = "hello from kov\n";
	expect("send", send(fd, line, sizeof line - 1, 0), (long)sizeof line - 1);
	char buf[128];
	long n = recv(fd, buf, sizeof buf - 1, 0);
	buf[n > 0 ? n : 0] = 0;
	uint32_t a = ntohl(me.sin_addr.s_addr);
	printf("netecho: connected from %u.%u.%u.%u:%u, the host said: %s", a >> 24, (a >> 16) & 255,
	       (a >> 8) & 255, a & 255, ntohs(me.sin_port), buf);
	expect("close", close(fd), 0);
	struct sockaddr_in nowhere = { sizeof nowhere, AF_INET, htons(1), { htonl(0x0A000202u) }, { 0 } };
	int fd2 = socket(AF_INET, SOCK_STREAM, 0);
	long rc = connect(fd2, &nowhere, sizeof nowhere);
	printf("netecho: connect to a closed port: error %ld\n", -rc);
	close(fd2);
	return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
	long to = arg_num(argc, argv, "connect", 0);
	if (to)
		return client((int)to);
	int port = (int)arg_num(argc, argv, "port", 7242);
	int conns = (int)arg_num(argc, argv, "conns", 1);
	int lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0) {
		printf("netecho: socket: error %d\n", -lfd);
		return 1;
	}
	bad_calls(lfd);
	int one = 1;
	expect("SO_REUSEADDR", setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one), 0);
	struct sockaddr_in sa = { sizeof sa, AF_INET, htons((uint16_t)port), { INADDR_ANY }, { 0 } };
	expect("bind", bind(lfd, &sa, sizeof sa), 0);
	expect("listen", listen(lfd, 4), 0);
	printf("netecho: %d bad-call checks failed; listening on %d\n", failures, port);
	size_t cap = 64 * 1024;
	char *buf = malloc(cap);
	for (int i = 0; i < conns; i++) {
		struct sockaddr_in peer;
		socklen_t len = sizeof peer;
		int c = accept(lfd, &peer, &len);
		if (c < 0) {
			printf("netecho: accept: error %d\n", -c);
			return 1;
		}
		uint32_t a = ntohl(peer.sin_addr.s_addr);
		printf("netecho: connection from %u.%u.%u.%u\n", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
		expect("TCP_NODELAY", setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one), 0);
		serve(c, buf, cap);
		/* Lingers until the client has everything: the machine may power off right after. */
		expect("shutdown", shutdown(c, SHUT_WR), 0);
		while (recv(c, buf, cap, 0) > 0)
			;
		expect("close", close(c), 0);
	}
	close(lfd);
	leave_blocked_threads();
	printf("netecho: done, %d failures\n", failures);
	return failures ? 1 : 0;
}

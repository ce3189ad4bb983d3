/* dcid: the DCI daemon. Arguments: [token=T] [port=N] [metrics=N]. */
#include "client.h"
#include "dispatch.h"
#include "status.h"
#include "monitor.h"

#define POLL_MS 200

/* The transport's way up: frames to the dispatch table, changes to everyone's STATUS. */
static const struct client_hooks hooks = { dispatch_frame, clients_push_status };

static int listen_on(uint16_t port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return fd;
	int one = 1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	struct sockaddr_in sa = { sizeof sa, AF_INET, htons(port), { INADDR_ANY }, { 0 } };
	int rc = bind(fd, &sa, sizeof sa);
	if (rc == 0)
		rc = listen(fd, DCID_BACKLOG);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* Takes every connection waiting on a listening socket (a burst of connects is not left in
 * the kernel's queue for later loops), at most `max` per loop so the others are served. */
static void accept_all(int lfd, void (*take)(int fd), int max)
{
	for (int k = 0; k < max; k++) {
		struct pollfd p = { lfd, POLLIN, 0 };
		if (k && poll(&p, 1, 0) <= 0)
			return;
		int fd = accept(lfd, 0, 0);   /* an aborted or unplaceable one fails: go on */
		if (fd >= 0)
			take(fd);
	}
}

static bool arg_value(const char *arg, const char *key, const char **value)
{
	size_t n = strlen(key);
	if (strncmp(arg, key, n) != 0 || arg[n] != '=')
		return false;
	*value = arg + n + 1;
	return true;
}

static bool parse_port(const char *s, uint16_t *out)
{
	unsigned long v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || (v = v * 10 + (unsigned long)(*s - '0')) > 65535)
			return false;
	}
	if (!v)
		return false;
	*out = (uint16_t)v;
	return true;
}

int main(int argc, char **argv)
{
	uint16_t port = PROTO_DEFAULT_PORT, metrics_port = PROTO_METRICS_DEFAULT_PORT;
	for (int i = 1; i < argc; i++) {
		const char *v;
		if (arg_value(argv[i], "token", &v) && strlen(v) <= PROTO_NAME_MAX) {
			memcpy(dcid.token, v, strlen(v) + 1);
		} else if (arg_value(argv[i], "port", &v) && parse_port(v, &port)) {
		} else if (arg_value(argv[i], "metrics", &v) && parse_port(v, &metrics_port)) {
		} else {
			printf("dcid: bad argument '%s' (token=T, port=N, metrics=N)\n", argv[i]);
			return 2;
		}
	}
	if (!target_load()) {
		printf("dcid: cannot read the target's description (not privileged?)\n");
		return 1;
	}
	int lfd = listen_on(port), mfd = listen_on(metrics_port);
	if (lfd < 0 || mfd < 0) {
		printf("dcid: cannot listen on %u and %u: error %d\n", port, metrics_port,
		       lfd < 0 ? -lfd : -mfd);
		return 1;
	}
	printf("dcid: listening on %u (protocol %u.%u), metrics on %u%s\n", port, PROTO_MAJOR,
	       PROTO_MINOR, metrics_port, dcid.token[0] ? ", controller token set" : "");

	/* Where the CPUs take turns on one host thread, a thread woken on another CPU waits for the
	 * host's round robin to reach that CPU: milliseconds, not an IPI's microseconds. The daemon
	 * then runs on CPU 0, with the network stack's threads and where the NIC interrupts, so a
	 * request reaches it without crossing CPUs (make bench's overload part, serial machine, 4
	 * CPUs, a sample every 1,000 instructions: ping median 26-46 ms before, 2.5 ms after). */
	if (target.info.cpus_run == KM_CPUS_TAKE_TURNS && sched_setaffinity(0, 1) != 0)
		printf("dcid: cannot keep to CPU 0, where the network stack runs\n");
	/* Ahead of the workload's threads on its CPU, within the prompt class's share: a busy
	 * workload thread's turn (10 ms) or one woken by another would otherwise come between a
	 * request and its answer, several times over where the CPUs take turns. */
	if (sched_setclass(0, SCHED_CLASS_PROMPT) != 0)
		printf("dcid: cannot run in the prompt class: answers may wait behind the workload\n");
	clients_init(&hooks);
	metrics_init();
	struct pollfd fds[2 + DCID_SLOTS + DCID_METRICS_CONNS];
	int slot[2 + DCID_SLOTS + DCID_METRICS_CONNS];
	for (;;) {
		unsigned n = 0;
		bool more_input = false;   /* received requests wait that can run now: do not block */
		fds[n++] = (struct pollfd){ lfd, POLLIN, 0 };
		fds[n++] = (struct pollfd){ mfd, POLLIN, 0 };
		for (int i = 0; i < DCID_SLOTS; i++) {
			struct client *c = &dcid.clients[i];
			if (!c->used)
				continue;
			slot[n] = i;
			if (c->in_pos < c->in_len && c->len < DCID_QUEUE_BYTES / 2)
				more_input = true;
			fds[n++] = (struct pollfd){ c->fd, (short)((client_wants_input(c) ? POLLIN : 0) |
								   (client_backlog(c) ? POLLOUT : 0)), 0 };
		}
		unsigned first_metrics = n;
		for (int i = 0; i < DCID_METRICS_CONNS; i++) {
			struct metrics_conn *m = &metrics_conns[i];
			if (m->state == METRICS_FREE)
				continue;
			slot[n] = i;
			fds[n++] = (struct pollfd){ m->fd, metrics_events(m), 0 };
		}
		int wait = monitor_wait_ms() >= 0 ? monitor_wait_ms() : POLL_MS;
		int ready = poll(fds, n, more_input ? 0 : wait);
		if (ready < 0) {
			printf("dcid: poll failed: error %d\n", -ready);
			return 1;
		}
		if (fds[0].revents & POLLIN)
			accept_all(lfd, client_open, DCID_BACKLOG);
		if (fds[1].revents & POLLIN)
			accept_all(mfd, metrics_accept, DCID_METRICS_CONNS);
		for (unsigned k = 2; k < first_metrics; k++) {
			struct client *c = &dcid.clients[slot[k]];
			if (!c->used || c->fd != fds[k].fd)
				continue;
			if (fds[k].revents & (POLLIN | POLLHUP | POLLERR))
				client_readable(c);
			if (c->used && client_backlog(c))
				client_writable(c);
			if (c->used && c->in_pos < c->in_len)
				client_resume(c);   /* the queue may have drained */
		}
		for (unsigned k = first_metrics; k < n; k++) {
			struct metrics_conn *m = &metrics_conns[slot[k]];
			if (m->state != METRICS_FREE && m->fd == fds[k].fd && fds[k].revents)
				metrics_ready(m, fds[k].revents);
		}
		metrics_timers(clock_ns());
		client_timers(clock_ns());
		monitor_poll(clock_ns());
	}
}

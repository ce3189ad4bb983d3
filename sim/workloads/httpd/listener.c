/* HttpListener (the poller) and WorkQueue (httpd.h). The poller is the only thread that
 * accepts and the only one that waits for clients: it polls the listening socket, its wake-up
 * socket and every connection it owns, queues the readable ones for the workers, and closes
 * those whose time ran out. */
#include "httpd.h"

struct listener;
struct listener_ops { void (*run)(struct listener *l); };
struct listener {
	const struct listener_ops *ops;
	int fd, wake_fd;
	struct sockaddr_in wake_addr;          /* 127.0.0.1 and the wake-up socket's port */
	struct spinlock ret_lock;
	struct http_conn *returned;            /* given back by workers, under ret_lock */
	bool in_poll, wake_pending;            /* under ret_lock */
	int n_owned;
	struct http_conn *owned[CONNS_MAX];    /* the connections the poller watches */
	struct pollfd pfd[CONNS_MAX + 2];
	char scratch[1024];                    /* drained input of lingering connections */
};
static struct listener listener;
static coid_t listener_coid;
volatile uint64_t accepted_total, refused_total;

/* ---- WorkQueue --------------------------------------------------------------------------- */

struct workqueue;
struct workqueue_ops {
	void (*push)(struct workqueue *q, struct http_conn *c);
	struct http_conn *(*pop)(struct workqueue *q);
};
struct workqueue {
	const struct workqueue_ops *ops;
	struct mutex lock;
	struct cond nonempty;
	struct http_conn **ring;               /* cfg.conns entries: each connection once at most */
	unsigned head, tail, sleepers;
};
static struct workqueue queue;
static coid_t queue_coid;

CO_METHOD(void, workqueue_push_m, struct workqueue *q, struct http_conn *c)
{
	mutex_lock(&q->lock);
	q->ring[q->tail++ % (unsigned)cfg.conns] = c;
	bool wake = q->sleepers > 0;
	mutex_unlock(&q->lock);
	if (wake)
		cond_signal(&q->nonempty);
}

CO_METHOD(struct http_conn *, workqueue_pop_m, struct workqueue *q)
{
	mutex_lock(&q->lock);
	while (q->head == q->tail) {
		q->sleepers++;
		cond_wait(&q->nonempty, &q->lock);
		q->sleepers--;
	}
	struct http_conn *c = q->ring[q->head++ % (unsigned)cfg.conns];
	mutex_unlock(&q->lock);
	return c;
}

static const struct workqueue_ops queue_ops = { workqueue_push_m, workqueue_pop_m };
static const struct co_class queue_class = { "WorkQueue", &queue_ops, 2, 0 };

bool workqueue_init(void)
{
	co_register_class(&queue_class);
	queue.ops = &queue_ops;
	queue.ring = malloc((size_t)cfg.conns * sizeof *queue.ring);
	return queue.ring && (queue_coid = wl_static_object(&queue_class, &queue)) != 0 &&
	       mutex_monitor(&queue.lock, &queue) == 0;
}

void workqueue_push(struct http_conn *c)
{
	CO_CALL(struct workqueue, queue_coid, push, c);
}

struct http_conn *workqueue_pop(void)
{
	return CO_CALL(struct workqueue, queue_coid, pop);
}

/* ---- the poller --------------------------------------------------------------------------- */

static void own(struct listener *l, struct http_conn *c)
{
	l->owned[l->n_owned++] = c;
}

static void accept_one(struct listener *l, uint64_t now)
{
	int fd = accept(l->fd, 0, 0);
	if (fd < 0)
		return;   /* the client gave up in between */
	struct http_conn *c = conn_alloc(fd);
	if (!c) {     /* cannot happen: the listener is not polled when all slots are taken */
		close(fd);
		__atomic_add_fetch(&refused_total, 1, __ATOMIC_RELAXED);
		return;
	}
	__atomic_add_fetch(&accepted_total, 1, __ATOMIC_RELAXED);
	int one = 1;
	struct timeval tv = { cfg.timeout_s, 0 };
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);   /* a client that never reads */
	c->deadline = now + (uint64_t)cfg.timeout_s * 1000000000ull;
	c->state = CONN_POLLED;
	own(l, c);
}

/* A closing connection's input: read and dropped until the client closes. */
static bool drain(struct listener *l, struct http_conn *c)
{
	long n;
	while ((n = recv(c->fd, l->scratch, sizeof l->scratch, MSG_DONTWAIT)) > 0)
		;
	return n == -KOV_EAGAIN;   /* still open */
}

/* One connection after a poll: kept (true) or handed on or closed. */
static bool after_poll(struct listener *l, struct http_conn *c, short revents, uint64_t now)
{
	if (c->state == CONN_LINGER) {
		if ((revents && !drain(l, c)) || now >= c->deadline) {
			conn_close(c);
			return false;
		}
		return true;
	}
	if (revents) {   /* bytes, the client's close or an error: a worker finds out which */
		c->state = CONN_QUEUED;
		workqueue_push(c);
		return false;
	}
	if (now < c->deadline)
		return true;
	if (!c->len) {   /* idle too long */
		conn_close(c);
		return false;
	}
	CO_CALL(struct http_conn, conn_coids[c->index], expire);
	conn_linger(c);
	return true;
}

CO_METHOD(void, listener_run, struct listener *l)
{
	for (;;) {
		spin_lock(&l->ret_lock);
		struct http_conn *back = l->returned;
		l->returned = 0;
		l->in_poll = !back;
		spin_unlock(&l->ret_lock);
		while (back) {
			struct http_conn *next = back->next;
			own(l, back);
			back = next;
		}
		uint64_t now = now_ns(), nearest = now + 1000000000ull;
		int n = 0;
		bool room = l->n_owned < cfg.conns && conn_slots_free();
		l->pfd[n++] = (struct pollfd){ room ? l->fd : -1, POLLIN, 0 };
		l->pfd[n++] = (struct pollfd){ l->wake_fd, POLLIN, 0 };
		for (int i = 0; i < l->n_owned; i++) {
			l->pfd[n++] = (struct pollfd){ l->owned[i]->fd, POLLIN, 0 };
			if (l->owned[i]->deadline < nearest)
				nearest = l->owned[i]->deadline;
		}
		int timeout = !l->in_poll ? 0 : nearest <= now ? 0 : (int)((nearest - now + 999999) / 1000000);
		int ready = poll(l->pfd, (unsigned)n, timeout);
		spin_lock(&l->ret_lock);
		l->in_poll = l->wake_pending = false;
		spin_unlock(&l->ret_lock);
		if (ready < 0) {
			printf("httpd: poll: error %d\n", -ready);
			continue;
		}
		if (l->pfd[1].revents)
			while (recv(l->wake_fd, l->scratch, sizeof l->scratch, MSG_DONTWAIT) > 0)
				;
		now = now_ns();
		int kept = 0, polled = l->n_owned;
		for (int i = 0; i < polled; i++)
			if (after_poll(l, l->owned[i], l->pfd[2 + i].revents, now))
				l->owned[kept++] = l->owned[i];
		l->n_owned = kept;
		if (l->pfd[0].revents & POLLIN)
			accept_one(l, now);
	}
}

static const struct listener_ops listener_ops = { listener_run };
static const struct co_class listener_class = { "HttpListener", &listener_ops, 1, 0 };

void listener_thread(void *arg)
{
	(void)arg;
	CO_CALL(struct listener, listener_coid, run);
}

void listener_give_back(struct http_conn *c, int wake_fd)
{
	struct listener *l = &listener;
	spin_lock(&l->ret_lock);
	c->next = l->returned;
	l->returned = c;
	bool wake = l->in_poll && !l->wake_pending;
	if (wake)
		l->wake_pending = true;
	spin_unlock(&l->ret_lock);
	if (wake)
		send(wake_fd, "w", 1, MSG_DONTWAIT);
}

int listener_wake_socket(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return fd;
	int rc = connect(fd, &listener.wake_addr, sizeof listener.wake_addr);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

bool listener_init(void)
{
	struct listener *l = &listener;
	co_register_class(&listener_class);
	l->ops = &listener_ops;
	spin_lock_owner(&l->ret_lock, l);
	l->fd = socket(AF_INET, SOCK_STREAM, 0);
	if (l->fd < 0) {
		printf("httpd: socket: error %d\n", -l->fd);
		return false;
	}
	int one = 1;
	struct timeval guard = { 1, 0 };   /* accept only follows a poll that saw a client */
	setsockopt(l->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	setsockopt(l->fd, SOL_SOCKET, SO_RCVTIMEO, &guard, sizeof guard);
	struct sockaddr_in sa = { sizeof sa, AF_INET, htons((uint16_t)cfg.port), { INADDR_ANY }, { 0 } };
	int rc = bind(l->fd, &sa, sizeof sa);
	if (rc == 0)
		rc = listen(l->fd, 128);
	if (rc < 0) {
		printf("httpd: cannot listen on port %d: error %d\n", cfg.port, -rc);
		return false;
	}
	/* The wake-up socket: a datagram to 127.0.0.1 ends the poller's poll. */
	l->wake_fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in lo = { sizeof lo, AF_INET, 0, { htonl(0x7F000001u) }, { 0 } };
	socklen_t len = sizeof l->wake_addr;
	if (l->wake_fd < 0 || bind(l->wake_fd, &lo, sizeof lo) < 0 ||
	    getsockname(l->wake_fd, &l->wake_addr, &len) < 0) {
		printf("httpd: cannot make the loopback wake-up socket\n");
		return false;
	}
	return (listener_coid = wl_static_object(&listener_class, l)) != 0;
}

/* HttpConn: a connection slot (httpd.h). Serving reads without waiting, answers every complete
 * request in the buffer (pipelining included) and gives the connection back when more bytes
 * are needed: no worker ever waits for a client. */
#include "httpd.h"

struct http_conn *conns;
coid_t *conn_coids;
static struct http_conn *free_list;
static struct spinlock free_lock = SPINLOCK_INIT;
volatile int conns_live;

uint64_t now_ns(void)
{
	return clock_ns();
}

bool same(const char *a, size_t n, const char *b)
{
	return strlen(b) == n && !memcmp(a, b, n);
}

/* The connection's request: parsed (its body arrived too), a status to answer, or
 * incomplete. */
static int next_request(struct http_conn *c, struct http_request *req)
{
	if (!c->len)
		return HTTP_INCOMPLETE;
	int rc = http_parse(c->buf, c->len, req);
	if (rc != HTTP_PARSED)
		return rc;
	if (req->content_length > BODY_MAX)
		return 413;
	if (c->len < req->head_len + (size_t)(req->content_length > 0 ? req->content_length : 0))
		return HTTP_INCOMPLETE;
	return HTTP_PARSED;
}

CO_METHOD(enum conn_next, conn_serve, struct http_conn *c, struct http_worker *w)
{
	bool drained = false;   /* a read found nothing more: the rest is the poller's to wait for */
	for (;;) {
		struct http_request req;
		int rc = next_request(c, &req);
		if (rc == HTTP_INCOMPLETE) {
			if (drained)
				return CONN_WAIT;
			if (c->len == sizeof c->buf) {   /* cannot happen: a full buffer parses */
				respond(w, c, 431, &req, 0);
				return CONN_LINGER_CLOSE;
			}
			long n = recv(c->fd, c->buf + c->len, sizeof c->buf - c->len, MSG_DONTWAIT);
			if (n == -KOV_EAGAIN) {
				drained = true;
				continue;
			}
			if (n <= 0)
				return CONN_CLOSE;   /* the client closed or the connection broke */
			if (!c->len)             /* a request's first bytes: its time starts */
				c->deadline = now_ns() + (uint64_t)cfg.timeout_s * 1000000000ull;
			c->len += (size_t)n;
			continue;
		}
		const char *body = rc == HTTP_PARSED ? c->buf + req.head_len : 0;
		bool keep = respond(w, c, rc, &req, body);
		c->requests++;
		if (rc != HTTP_PARSED)
			return CONN_LINGER_CLOSE;   /* an error: what follows cannot be trusted */
		size_t used = req.head_len + (size_t)(req.content_length > 0 ? req.content_length : 0);
		memmove(c->buf, c->buf + used, c->len - used);
		c->len -= used;
		if (!keep)
			return c->len ? CONN_LINGER_CLOSE : CONN_CLOSE;
		if (c->len)   /* pipelined: its time starts now */
			c->deadline = now_ns() + (uint64_t)cfg.timeout_s * 1000000000ull;
		else
			c->deadline = now_ns() + (uint64_t)cfg.keepalive_s * 1000000000ull;
		if (!c->len && drained)
			return CONN_WAIT;
	}
}

CO_METHOD(void, conn_expire, struct http_conn *c)
{
	if (c->len)   /* a request cut short by a slow client */
		respond_error_now(c->fd, 408);
}

static const struct http_conn_ops conn_ops = { conn_serve, conn_expire };
static const struct co_class conn_class = { "HttpConn", &conn_ops, 2, 0 };

bool conns_init(void)
{
	co_register_class(&conn_class);
	conns = malloc((size_t)cfg.conns * sizeof *conns);
	conn_coids = malloc((size_t)cfg.conns * sizeof *conn_coids);
	if (!conns || !conn_coids)
		return false;
	for (int i = cfg.conns - 1; i >= 0; i--) {
		struct http_conn *c = &conns[i];
		c->ops = &conn_ops;
		c->index = i;
		c->fd = -1;
		c->state = CONN_FREE;
		c->next = free_list;
		free_list = c;
		if (!(conn_coids[i] = wl_static_object(&conn_class, c)))
			return false;
	}
	return true;
}

struct http_conn *conn_alloc(int fd)
{
	spin_lock(&free_lock);
	struct http_conn *c = free_list;
	if (c)
		free_list = c->next;
	spin_unlock(&free_lock);
	if (c) {
		__atomic_add_fetch(&conns_live, 1, __ATOMIC_RELAXED);
		c->fd = fd;
		c->len = 0;
		c->requests = 0;
		c->next = 0;
	}
	return c;
}

void conn_free(struct http_conn *c)
{
	c->state = CONN_FREE;
	c->fd = -1;
	spin_lock(&free_lock);
	c->next = free_list;
	free_list = c;
	spin_unlock(&free_lock);
	__atomic_sub_fetch(&conns_live, 1, __ATOMIC_RELAXED);
}

bool conn_slots_free(void)
{
	return __atomic_load_n(&free_list, __ATOMIC_RELAXED) != 0;
}

void conn_close(struct http_conn *c)
{
	close(c->fd);
	conn_free(c);
}

void conn_linger(struct http_conn *c)
{
	shutdown(c->fd, SHUT_WR);
	c->state = CONN_LINGER;
	c->deadline = now_ns() + LINGER_NS;
}

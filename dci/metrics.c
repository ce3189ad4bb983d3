/* The metrics port: GET /metrics answered with the exposition metrics_render() writes, in the
 * format the Accept header asks for. Each connection is a small state machine inside the
 * daemon's poll loop (never a blocking call): its request is read as it arrives, the answer is
 * rendered whole and then sent as the socket takes it, and deadlines bound every step. A slow
 * or silent client therefore costs a slot, not the daemon's time. */
#include "dcid.h"
#include "expo.h"
#include "http.h"
#include "common/lib/format.h"

struct metrics_conn metrics_conns[DCID_METRICS_CONNS];
struct metrics_stats metrics_stats;

static const char *plain = "text/plain; charset=utf-8";

static void conn_close(struct metrics_conn *m, bool early)
{
	close(m->fd);
	free(m->out);
	if (early)
		metrics_stats.closed++;
	*m = (struct metrics_conn){ .fd = -1 };
}

/* The answer is out: FIN, then close once the client closes (or at the linger deadline), so
 * unread input never makes the stack send a reset over the answer's last bytes. */
static void conn_finish(struct metrics_conn *m)
{
	shutdown(m->fd, SHUT_WR);
	m->state = METRICS_LINGER;
	m->deadline_ns = clock_ns() + DCID_LINGER_NS;
}

static void conn_send(struct metrics_conn *m)
{
	while (m->out_pos < m->out_len) {
		long n = send(m->fd, m->out + m->out_pos, m->out_len - m->out_pos, MSG_DONTWAIT);
		if (n == -KOV_EAGAIN)
			return;
		if (n <= 0) {
			conn_close(m, true);
			return;
		}
		m->out_pos += (size_t)n;
	}
	free(m->out);
	m->out = 0;
	conn_finish(m);
}

/* Queues head and body (body may be NULL: then text) as the answer and starts sending. */
static void answer(struct metrics_conn *m, const char *status, const char *type, const char *body,
		   size_t len)
{
	char head[256];
	int n = format_buf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
			   "Content-Length: %lu\r\nConnection: close\r\n%s\r\n", status, type,
			   (unsigned long)len, strncmp(status, "405", 3) == 0 ? "Allow: GET\r\n" : "");
	m->out = malloc((size_t)n + len);
	if (!m->out) {
		conn_close(m, true);
		return;
	}
	memcpy(m->out, head, (size_t)n);
	memcpy(m->out + n, body, len);
	m->out_len = (size_t)n + len;
	m->out_pos = 0;
	m->state = METRICS_ANSWERING;
	m->deadline_ns = clock_ns() + DCID_METRICS_ANSWER_NS;
	conn_send(m);
}

static void answer_text(struct metrics_conn *m, const char *status, const char *text)
{
	answer(m, status, plain, text, strlen(text));
}

static void answer_metrics(struct metrics_conn *m, enum http_format format)
{
	struct expo t;
	expo_init(&t, format, DCID_METRICS_BODY_MAX);
	if (metrics_render(&t)) {
		answer(m, "200 OK", expo_content_type(format), t.buf, t.len);
	} else {
		/* Never part of an exposition with 200: a scraper would store it as the truth. */
		char why[160];
		format_buf(why, sizeof why, "%s\n", t.failed ? "the exposition does not fit in memory "
			   "or in its limit" : "the target's snapshot of processes and objects failed");
		metrics_stats.failed++;
		answer_text(m, "503 Service Unavailable", why);
	}
	expo_free(&t);
}

static void request_done(struct metrics_conn *m, int rc, const struct http_request *r)
{
	switch (rc) {
	case -400: answer_text(m, "400 Bad Request", "malformed request\n"); return;
	case -414: answer_text(m, "414 URI Too Long", "try /metrics\n"); return;
	case -431: answer_text(m, "431 Request Header Fields Too Large", "request too large\n"); return;
	case -501: answer_text(m, "501 Not Implemented", "only GET\n"); return;
	case -505: answer_text(m, "505 HTTP Version Not Supported", "HTTP/1.x only\n"); return;
	}
	if (strcmp(r->method, "GET") != 0)
		answer_text(m, "405 Method Not Allowed", "only GET\n");
	else if (strcmp(r->path, "/metrics") != 0)
		answer_text(m, "404 Not Found", "try /metrics\n");
	else
		answer_metrics(m, r->format);
}

static void conn_read(struct metrics_conn *m)
{
	if (m->state == METRICS_LINGER) {   /* what still comes is dropped until the close */
		char sink[512];
		long n = recv(m->fd, sink, sizeof sink, MSG_DONTWAIT);
		if (n != -KOV_EAGAIN && n <= 0)
			conn_close(m, false);
		return;
	}
	long n = recv(m->fd, m->req + m->len, sizeof m->req - m->len, MSG_DONTWAIT);
	if (n == -KOV_EAGAIN)
		return;
	if (n <= 0) {
		conn_close(m, true);   /* gone before its request was complete */
		return;
	}
	m->len += (size_t)n;
	struct http_request r;
	int rc = http_parse_request(m->req, m->len, &r);
	if (rc != 0)
		request_done(m, rc, &r);
}

/* A free slot for a new connection. When there is none, one that will not finish in time
 * gives way: one lingering after its answer, else the oldest still reading its request (told
 * so with 408). 0 when every slot is sending an answer. */
static struct metrics_conn *slot_for_new(void)
{
	struct metrics_conn *oldest = 0;
	for (int i = 0; i < DCID_METRICS_CONNS; i++) {
		struct metrics_conn *m = &metrics_conns[i];
		if (m->state == METRICS_FREE)
			return m;
		if (m->state == METRICS_LINGER) {
			conn_close(m, false);
			return m;
		}
		if (m->state == METRICS_READING && (!oldest || m->opened_ns < oldest->opened_ns))
			oldest = m;
	}
	if (!oldest)
		return 0;
	metrics_stats.closed++;
	answer_text(oldest, "408 Request Timeout", "another connection needed the slot\n");
	if (oldest->state != METRICS_FREE)
		conn_close(oldest, false);
	return oldest;
}

void metrics_init(void)
{
	for (int i = 0; i < DCID_METRICS_CONNS; i++)
		metrics_conns[i] = (struct metrics_conn){ .fd = -1 };
}

void metrics_accept(int fd)
{
	uint64_t now = clock_ns();
	struct metrics_conn *m = slot_for_new();
	if (!m) {
		/* Every slot is sending an answer: this one is told so, without waiting. */
		static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain\r\n"
					   "Content-Length: 5\r\nRetry-After: 1\r\nConnection: close\r\n\r\nbusy\n";
		send(fd, busy, sizeof busy - 1, MSG_DONTWAIT);
		shutdown(fd, SHUT_WR);
		close(fd);
		metrics_stats.closed++;
		return;
	}
	*m = (struct metrics_conn){ .fd = fd, .state = METRICS_READING, .opened_ns = now,
				    .deadline_ns = now + DCID_METRICS_REQUEST_NS };
}

short metrics_events(const struct metrics_conn *m)
{
	return m->state == METRICS_ANSWERING ? POLLOUT : POLLIN;
}

void metrics_ready(struct metrics_conn *m, short revents)
{
	if (m->state == METRICS_ANSWERING && (revents & (POLLOUT | POLLERR | POLLHUP)))
		conn_send(m);
	else if (m->state != METRICS_ANSWERING && (revents & (POLLIN | POLLERR | POLLHUP)))
		conn_read(m);
}

void metrics_timers(uint64_t now)
{
	for (int i = 0; i < DCID_METRICS_CONNS; i++) {
		struct metrics_conn *m = &metrics_conns[i];
		if (m->state == METRICS_FREE || now < m->deadline_ns)
			continue;
		if (m->state == METRICS_READING) {
			metrics_stats.closed++;
			answer_text(m, "408 Request Timeout", "the request did not arrive in time\n");
		} else {
			conn_close(m, m->state == METRICS_ANSWERING);
		}
	}
}

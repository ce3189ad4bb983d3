/* Frames in and out of one connection: reading and checking what arrives (framing, the
 * role rules, full decoding), sorting it into answers and pushed frames, and sending
 * requests. The handshake is in client_hello.c. */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "client/client_priv.h"
#include "client/grow.h"
#include "common/lib/bytes.h"

#define INBUF_SIZE 65536
#define DEFAULT_TIMEOUT_MS 10000
#define DEFAULT_PUSH_QUEUE 256        /* frames of up to 64 KiB: at most 16 MiB held */

static char *dup_or_empty(const char *s)
{
	return strdup(s ? s : "");
}

struct kov_client *kov_client_new(const struct kov_client_options *opt)
{
	struct kov_client *c = calloc(1, sizeof *c);
	if (!c)
		return NULL;
	c->fd = -1;
	c->name = dup_or_empty(opt ? opt->name : NULL);
	c->token = dup_or_empty(opt ? opt->token : NULL);
	c->timeout_ms = opt && opt->timeout_ms > 0 ? opt->timeout_ms : DEFAULT_TIMEOUT_MS;
	c->no_data = opt && opt->no_data;
	c->pushq_cap = opt && opt->push_queue_max ? opt->push_queue_max : DEFAULT_PUSH_QUEUE;
	c->rbuf = malloc(PROTO_MAX_FRAME);
	c->inbuf = malloc(INBUF_SIZE);
	c->pushq = calloc(c->pushq_cap, sizeof *c->pushq);
	c->next_req = 1;
	if (!c->name || !c->token || !c->rbuf || !c->inbuf || !c->pushq) {
		kov_client_free(c);
		return NULL;
	}
	proto_reader_init(&c->reader, c->rbuf, PROTO_MAX_FRAME);
	return c;
}

void kov_frame_free(struct kov_frame *fr)
{
	free(fr->bytes);
	memset(fr, 0, sizeof *fr);
}

void kov_answer_free(struct kov_answer *a)
{
	for (size_t i = 0; i < a->count; i++)
		kov_frame_free(&a->frames[i]);
	free(a->frames);
	memset(a, 0, sizeof *a);
}

void kov_client_free(struct kov_client *c)
{
	if (!c)
		return;
	if (c->fd >= 0)
		close(c->fd);
	for (size_t i = 0; i < c->n_pending; i++)
		kov_answer_free(&c->pending[i].ans);
	free(c->pending);
	while (c->pushq_len) {
		kov_frame_free(&c->pushq[c->pushq_head]);
		c->pushq_head = (c->pushq_head + 1) % c->pushq_cap;
		c->pushq_len--;
	}
	for (size_t i = 0; i < c->n_events; i++) {
		free(c->events[i].description);
		free(c->events[i].why_not);
	}
	free(c->events);
	free(c->pushq);
	kov_chains_free(&c->chains);
	free(c->rbuf);
	free(c->inbuf);
	free(c->name);
	free(c->token);
	free(c);
}

int kov_fail(struct kov_client *c, int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->error, sizeof c->error, fmt, ap);
	va_end(ap);
	return code;
}

void kov_close(struct kov_client *c, int err)
{
	if (!c->dead)
		c->dead = err;
	if (c->fd >= 0) {
		close(c->fd);
		c->fd = -1;
	}
}

const char *kov_client_error(const struct kov_client *c) { return c->error; }
int kov_client_error_code(const struct kov_client *c) { return c->error_code; }
const struct kov_target *kov_client_target(const struct kov_client *c) { return &c->target; }
int kov_client_fd(const struct kov_client *c) { return c->fd; }
struct kov_client_stats kov_client_stats(const struct kov_client *c) { return c->stats; }

const struct kov_losses *kov_client_losses(const struct kov_client *c) { return &c->losses; }

const struct kov_event *kov_client_catalogue(const struct kov_client *c, size_t *n)
{
	*n = c->n_events;
	return c->events;
}

/* What came before the callback goes to it first, in order: a viewer that installed it after
 * the handshake lost the CHAINS pushed meanwhile, and drew later samples without stacks. */
void kov_client_on_push(struct kov_client *c, kov_push_fn fn, void *arg)
{
	struct kov_frame fr;
	while (fn && kov_client_next_push(c, &fr)) {
		fn(arg, &fr.f);
		kov_frame_free(&fr);
	}
	c->push_fn = fn;
	c->push_arg = arg;
}

int kov_client_next_push(struct kov_client *c, struct kov_frame *out)
{
	if (!c->pushq_len)
		return 0;
	*out = c->pushq[c->pushq_head];
	memset(&c->pushq[c->pushq_head], 0, sizeof *out);
	c->pushq_head = (c->pushq_head + 1) % c->pushq_cap;
	c->pushq_len--;
	return 1;
}

/* ---- incoming frames ------------------------------------------------------------------ */

static int copy_frame(const struct proto_frame *f, struct kov_frame *out)
{
	uint32_t len = PROTO_HEADER_SIZE + f->size;
	out->bytes = malloc(len ? len : 1);
	if (!out->bytes)
		return -1;
	/* The payload follows the header in the reader's buffer: copy the frame whole. */
	memcpy(out->bytes, f->payload - PROTO_HEADER_SIZE, len);
	out->len = len;
	out->f = *f;
	out->f.payload = out->bytes + PROTO_HEADER_SIZE;
	return 0;
}

static struct kov_pending *find_pending(struct kov_client *c, uint32_t req)
{
	for (size_t i = 0; i < c->n_pending; i++)
		if (c->pending[i].req == req)
			return &c->pending[i];
	return NULL;
}

/* Tells the target why it is being dropped (best effort: the connection closes anyway). */
static void send_fatal(struct kov_client *c, const struct proto_frame *f, int code)
{
	uint8_t buf[128];
	struct proto_error_msg m = { (uint16_t)code, f ? f->type : 0, PROTO_ERRF_FATAL,
	                             proto_cstr(proto_strerror(code)) };
	int n = proto_encode_error(buf, sizeof buf, f ? f->req : 0, 0, &m);
	if (n > 0 && c->fd >= 0)
		(void)!send(c->fd, buf, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static int protocol_error(struct kov_client *c, const struct proto_frame *f, int code,
                          const char *what)
{
	char type[16];
	if (f && proto_type_info(f->type))
		snprintf(type, sizeof type, "%s", proto_type_name(f->type));
	else if (f)
		snprintf(type, sizeof type, "type 0x%04x", (unsigned)f->type);
	if (f)
		kov_fail(c, KOV_E_PROTOCOL, "malformed frame from the target: %s %s (request id %u): %s",
		         type, what, (unsigned)f->req, proto_strerror(code));
	else   /* before the handshake this is most likely not a KOV daemon at all */
		kov_fail(c, KOV_E_PROTOCOL, "malformed frame from the target: %s: %s%s", what,
		         proto_strerror(code), c->role ? "" : " (is it a KOV target?)");
	c->error_code = code;
	send_fatal(c, f, code);
	kov_close(c, KOV_E_PROTOCOL);
	return KOV_E_PROTOCOL;
}

/* Makes room in the full push queue: the oldest data frame (one the target may drop too:
 * samples, counts, lock figures) goes, so that what later frames depend on (the CHAINS their
 * samples name, events) stays; the oldest frame only when all are such. A viewer slower than
 * the stream had lost CHAINS this way, and then most of its samples' stacks. */
static void drop_one_pushed(struct kov_client *c)
{
	size_t k = 0;
	while (k < c->pushq_len && !proto_droppable(c->pushq[(c->pushq_head + k) % c->pushq_cap].f.type))
		k++;
	if (k == c->pushq_len)
		k = 0;
	kov_frame_free(&c->pushq[(c->pushq_head + k) % c->pushq_cap]);
	for (; k > 0; k--)   /* the older ones move up one place */
		c->pushq[(c->pushq_head + k) % c->pushq_cap] = c->pushq[(c->pushq_head + k - 1) % c->pushq_cap];
	memset(&c->pushq[c->pushq_head], 0, sizeof *c->pushq);   /* no second owner of its bytes */
	c->pushq_head = (c->pushq_head + 1) % c->pushq_cap;
	c->pushq_len--;
}

static void queue_push(struct kov_client *c, const struct proto_frame *f)
{
	struct kov_frame fr;
	if (copy_frame(f, &fr) < 0) {
		c->stats.push_overflow++;
		return;
	}
	if (c->pushq_len == c->pushq_cap) {   /* full: one goes, counted */
		drop_one_pushed(c);
		c->stats.push_overflow++;
	}
	c->pushq[(c->pushq_head + c->pushq_len) % c->pushq_cap] = fr;
	c->pushq_len++;
}

static int handle_pushed(struct kov_client *c, const struct proto_frame *f)
{
	c->stats.pushed++;
	if (f->type == PROTO_CHAINS && kov_chains_note(&c->chains, f) != 0)
		c->stats.push_overflow++;   /* no memory: samples naming it stay without a chain */
	if (f->type == PROTO_ERROR) {
		struct proto_error_msg e;
		proto_decode_error(f, &e);   /* validated already */
		if (e.flags & PROTO_ERRF_FATAL) {
			const char *text = c->error_text;
			proto_str_copy(c->error_text, sizeof c->error_text, e.text);
			c->error_code = e.code;
			kov_fail(c, KOV_E_CLOSED, "target closed the connection: %s%s%s",
			         proto_strerror(e.code), text[0] ? ": " : "", text);
			kov_close(c, KOV_E_CLOSED);
			return KOV_E_CLOSED;
		}
	}
	if (c->push_fn)
		c->push_fn(c->push_arg, f);
	else
		queue_push(c, f);
	return 0;
}

/* The role comes from SERVER_HELLO itself, so the catalogue frames after it pass the role
 * check. The handshake (client_hello.c) reads the frame again from the answer. */
static int note_server_hello(struct kov_client *c, const struct proto_frame *f)
{
	struct proto_server_hello h;
	int err = proto_decode_any_server_hello(f, &h);
	if (err == -PROTO_E_VERSION || (err == 0 && h.status != 0))
		return (f->flags & PROTO_F_MORE) ? protocol_error(c, f, PROTO_E_INCONSISTENT,
		                                                  "refusal with MORE") : 0;
	if (err)
		return protocol_error(c, f, -err, "");
	c->role = (enum proto_role)h.role;
	return 0;
}

static int handle_answer_frame(struct kov_client *c, const struct proto_frame *f)
{
	struct kov_pending *p = find_pending(c, f->req);
	if (!p || p->done)
		return protocol_error(c, f, PROTO_E_UNEXPECTED, "for no outstanding request");
	/* Answers come in request order, each complete before the next starts. */
	for (struct kov_pending *q = c->pending; q < p; q++)
		if (!q->done)
			return protocol_error(c, f, PROTO_E_UNEXPECTED, "out of request order");
	if (proto_is_server_hello(f->type)) {
		int err = note_server_hello(c, f);
		if (err)
			return err;
	}
	struct kov_answer *a = &p->ans;
	if (!kov_grow((void **)&a->frames, &a->cap, a->count + 1, sizeof *a->frames))
		goto nomem;
	if (copy_frame(f, &a->frames[a->count]) < 0)
		goto nomem;
	a->count++;
	a->bytes += PROTO_HEADER_SIZE + f->size;
	p->done = !(f->flags & PROTO_F_MORE);
	return 0;
nomem:
	kov_fail(c, KOV_E_USAGE, "out of memory for an answer");
	kov_close(c, KOV_E_USAGE);
	return KOV_E_USAGE;
}

static int handle_frame(struct kov_client *c, const struct proto_frame *f)
{
	c->stats.frames_in++;
	c->stats.bytes_in += PROTO_HEADER_SIZE + f->size;
	int r = proto_check_incoming(f, PROTO_SIDE_CLIENT, c->role);
	if (r == PROTO_IGNORE) {
		c->stats.ignored++;
		return 0;
	}
	if (r < 0)
		return protocol_error(c, f, -r, "not allowed here");
	/* SERVER_HELLO from another major decodes only partly; note_server_hello judges it. */
	if (!proto_is_server_hello(f->type) && (r = proto_validate(f)) < 0)
		return protocol_error(c, f, -r, "does not decode");
	if (f->req == 0 && proto_is_server_hello(f->type))
		return protocol_error(c, f, PROTO_E_UNEXPECTED, "with request id 0");
	kov_losses_note(&c->losses, f);
	if (f->req == 0)
		return handle_pushed(c, f);
	return handle_answer_frame(c, f);
}

static int closed_by_peer(struct kov_client *c)
{
	const char *where = "";
	if (proto_reader_pending(&c->reader))
		where = " in the middle of a frame";
	else
		for (size_t i = 0; i < c->n_pending; i++)
			if (!c->pending[i].done) {
				where = c->pending[i].ans.count ? " in the middle of an answer"
				                                : " before answering";
				break;
			}
	kov_fail(c, KOV_E_CLOSED, "target closed the connection%s", where);
	kov_close(c, KOV_E_CLOSED);
	return KOV_E_CLOSED;
}

/* Reads what the socket has (without waiting) and handles every complete frame. */
static int read_available(struct kov_client *c)
{
	int handled = 0;
	for (;;) {
		ssize_t n = recv(c->fd, c->inbuf, INBUF_SIZE, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return handled;
		if (n < 0) {
			int e = errno;
			kov_fail(c, KOV_E_NET, "connection to the target failed: %s", strerror(e));
			kov_close(c, KOV_E_NET);
			return KOV_E_NET;
		}
		if (n == 0)
			return closed_by_peer(c);
		c->raw_in += (uint64_t)n;
		const uint8_t *data = c->inbuf;
		size_t left = (size_t)n;
		struct proto_frame f;
		int r;
		while ((r = proto_reader_feed(&c->reader, &data, &left, &f)) == 1) {
			int err = handle_frame(c, &f);
			if (err)
				return err;
			handled++;
		}
		if (r < 0)
			return protocol_error(c, NULL, -r, "bad length prefix");
		if ((size_t)n < INBUF_SIZE)
			return handled;
	}
}

/* Waits up to timeout_ms (-1: no limit) for the socket to be readable or writable as asked.
 * 1 ready, 0 timed out, or an error. */
static int wait_fd(struct kov_client *c, short events, int timeout_ms, short *revents)
{
	struct pollfd p = { .fd = c->fd, .events = events };
	int r = poll(&p, 1, timeout_ms);
	if (r < 0 && errno == EINTR)
		return kov_fail(c, KOV_E_INTERRUPTED, "interrupted");
	if (r < 0) {
		int e = errno;
		kov_fail(c, KOV_E_NET, "poll: %s", strerror(e));
		kov_close(c, KOV_E_NET);
		return KOV_E_NET;
	}
	*revents = p.revents;
	return r;
}

static int dead_error(struct kov_client *c)
{
	if (c->dead)
		return c->dead;   /* the text of what killed it stays in c->error */
	return kov_fail(c, KOV_E_USAGE, "not connected");
}

int kov_client_pump(struct kov_client *c, int timeout_ms)
{
	if (c->fd < 0)
		return dead_error(c);
	short rev = 0;
	int r = wait_fd(c, POLLIN, timeout_ms, &rev);
	if (r <= 0)
		return r;
	return read_available(c);
}

/* ---- requests and answers ------------------------------------------------------------- */

static uint32_t fresh_req(struct kov_client *c)
{
	for (;;) {
		uint32_t r = c->next_req++;
		if (r != 0 && !find_pending(c, r))
			return r;
	}
}

static int send_all(struct kov_client *c, const uint8_t *p, size_t len)
{
	uint64_t deadline = kov_now_ns() + (uint64_t)c->timeout_ms * 1000000u;
	while (len) {
		ssize_t n = send(c->fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n > 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
			int e = errno;
			if (e == EPIPE || e == ECONNRESET)
				return closed_by_peer(c);
			kov_fail(c, KOV_E_NET, "sending to the target failed: %s", strerror(e));
			kov_close(c, KOV_E_NET);
			return KOV_E_NET;
		}
		/* The socket is full. Keep reading meanwhile, or a target blocked on sending us
		 * answers would never read our requests. */
		uint64_t now = kov_now_ns();
		if (now >= deadline)
			return kov_fail(c, KOV_E_TIMEOUT, "timed out sending to the target");
		short rev = 0;
		int r = wait_fd(c, POLLIN | POLLOUT, (int)((deadline - now) / 1000000u) + 1, &rev);
		if (r < 0)
			return r;
		if (rev & (POLLIN | POLLHUP | POLLERR)) {
			r = read_available(c);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

int kov_client_send(struct kov_client *c, void *frame, size_t len, uint32_t *req)
{
	if (c->fd < 0)
		return dead_error(c);
	if (len < PROTO_HEADER_SIZE || len > PROTO_MAX_FRAME)
		return kov_fail(c, KOV_E_USAGE, "request frame of %zu bytes", len);
	if (!kov_grow((void **)&c->pending, &c->cap_pending, c->n_pending + 1, sizeof *c->pending))
		return kov_fail(c, KOV_E_USAGE, "out of memory for a request");
	uint32_t id = fresh_req(c);
	be32_store((uint8_t *)frame + 8, id);
	c->pending[c->n_pending++] = (struct kov_pending){ .req = id };
	int err = send_all(c, frame, len);
	if (err)
		return err;
	*req = id;
	return 0;
}

/* Turns an answer that is, or ends with, an ERROR into the client's error. */
static int answer_error(struct kov_client *c, const struct kov_answer *a)
{
	const struct proto_frame *last = &a->frames[a->count - 1].f;
	if (last->type != PROTO_ERROR)
		return 0;
	struct proto_error_msg e;
	proto_decode_error(last, &e);
	const char *text = c->error_text;
	proto_str_copy(c->error_text, sizeof c->error_text, e.text);
	c->error_code = e.code;
	kov_fail(c, KOV_E_TARGET, "target error (%s)%s%s", proto_strerror(e.code),
	         text[0] ? ": " : "", text);
	if (e.flags & PROTO_ERRF_FATAL)
		kov_close(c, KOV_E_CLOSED);
	return KOV_E_TARGET;
}

int kov_client_take(struct kov_client *c, uint32_t req, struct kov_answer *ans)
{
	struct kov_pending *p = find_pending(c, req);
	if (!p)
		return kov_fail(c, KOV_E_USAGE, "no request %u outstanding", (unsigned)req);
	if (!p->done)
		return c->dead ? dead_error(c) : 0;
	struct kov_answer a = p->ans;
	size_t i = (size_t)(p - c->pending);
	memmove(p, p + 1, (c->n_pending - i - 1) * sizeof *p);
	c->n_pending--;
	int err = answer_error(c, &a);
	if (err) {
		kov_answer_free(&a);
		return err;
	}
	*ans = a;
	return 1;
}

int kov_client_wait(struct kov_client *c, uint32_t req, struct kov_answer *ans)
{
	/* The limit runs from the last bytes received, so a long answer that keeps coming is
	 * not cut off, and a frame trickling in is not taken for silence. */
	uint64_t limit = (uint64_t)c->timeout_ms * 1000000u;
	uint64_t deadline = kov_now_ns() + limit;
	for (;;) {
		int r = kov_client_take(c, req, ans);
		if (r != 0)
			return r < 0 ? r : 0;
		uint64_t now = kov_now_ns(), before = c->raw_in;
		if (now >= deadline)
			return kov_fail(c, KOV_E_TIMEOUT, "no answer from the target within %d.%03d s",
			                c->timeout_ms / 1000, c->timeout_ms % 1000);
		r = kov_client_pump(c, (int)((deadline - now + 999999) / 1000000u));
		if (r < 0 && !c->dead)
			return r;   /* interrupted; a dead connection may still have completed it */
		if (c->raw_in != before)
			deadline = kov_now_ns() + limit;
	}
}

int kov_client_call(struct kov_client *c, void *frame, size_t len, struct kov_answer *ans)
{
	uint32_t req;
	int err = kov_client_send(c, frame, len, &req);
	return err ? err : kov_client_wait(c, req, ans);
}

/* The handshake: HELLO out; SERVER_HELLO and the event catalogue back, copied into the client
 * (decoded strings point into frames that are freed right after). Refusals become readable
 * errors that keep the server's reason. */
#include <stdlib.h>
#include <string.h>
#include "client/client_net.h"
#include "client/client_priv.h"

#define COPY(dst, s) proto_str_copy((dst), sizeof(dst), (s))

static char *str_dup(struct proto_str s)
{
	char *d = malloc((size_t)s.len + 1);
	if (d)
		proto_str_copy(d, (size_t)s.len + 1, s);
	return d;
}

static int refused(struct kov_client *c, const struct proto_server_hello *h)
{
	char reason[PROTO_TEXT_MAX + 1];
	proto_str_copy(reason, sizeof reason, h->reason);
	if (h->status == 0) {
		/* Accepted by a server of another major: nothing after the reason can be read. */
		c->error_code = PROTO_E_VERSION;
		return kov_fail(c, KOV_E_REFUSED,
		                "target speaks KOV protocol %u.%u, this client %u.%u: the major "
		                "versions must match", (unsigned)h->major, (unsigned)h->minor,
		                (unsigned)PROTO_MAJOR, (unsigned)PROTO_MINOR);
	}
	c->error_code = h->status;
	return kov_fail(c, KOV_E_REFUSED, "target refused: %s: %s", proto_strerror(h->status),
	                reason);
}

void kov_target_from_hello(struct kov_target *t, const struct proto_server_hello *h)
{
	const struct proto_target *pt = &h->target;
	t->major = h->major;
	t->minor = h->minor;
	t->client_id = h->client_id;
	t->role = (enum proto_role)h->role;
	COPY(t->reason, h->reason);
	t->timebase_hz = pt->timebase_hz;
	t->timebase_now = pt->timebase_now;
	t->memory = pt->memory;
	t->pvr = pt->pvr;
	t->cpus = pt->cpus;
	t->events = pt->events;
	COPY(t->profile, pt->profile);
	COPY(t->model, pt->model);
	COPY(t->pmu, pt->pmu);
	COPY(t->build_id, pt->build_id);
	COPY(t->server, pt->server);
	t->cpus_run = pt->cpus_run;
}

static int bad_catalogue(struct kov_client *c, const char *what)
{
	c->error_code = PROTO_E_INCONSISTENT;
	kov_fail(c, KOV_E_PROTOCOL, "malformed event catalogue from the target: %s", what);
	kov_close(c, KOV_E_PROTOCOL);
	return KOV_E_PROTOCOL;
}

/* Appends one EVENT_CATALOGUE frame; frames must come in index order and agree on the total
 * the handshake announced. */
static int add_catalogue(struct kov_client *c, const struct proto_frame *f)
{
	struct proto_catalogue_head h;
	struct proto_iter it;
	if (f->type != PROTO_EVENT_CATALOGUE || proto_decode_event_catalogue(f, &h, &it) < 0)
		return bad_catalogue(c, "a frame of another type in the handshake");
	if (h.total != c->target.events)
		return bad_catalogue(c, "its total differs from the handshake's event count");
	if (h.first != c->n_events)
		return bad_catalogue(c, "entries out of order");
	struct proto_event e;
	while (proto_next_event(&it, &e)) {
		struct kov_event *ke = &c->events[c->n_events];
		ke->source = e.source;
		ke->flags = e.flags;
		ke->code = e.code;
		COPY(ke->name, e.name);
		ke->description = str_dup(e.description);
		ke->why_not = str_dup(e.why_not);
		c->n_events++;   /* counted first, so kov_client_free releases what was copied */
		if (!ke->description || !ke->why_not)
			return kov_fail(c, KOV_E_USAGE, "out of memory for the event catalogue");
	}
	return 0;
}

static int read_welcome(struct kov_client *c, const struct kov_answer *a)
{
	struct proto_server_hello h;
	const struct proto_frame *f = &a->frames[0].f;
	if (!proto_is_server_hello(f->type)) {
		c->error_code = PROTO_E_UNEXPECTED;
		kov_fail(c, KOV_E_PROTOCOL, "target answered HELLO with %s", proto_type_name(f->type));
		kov_close(c, KOV_E_PROTOCOL);
		return KOV_E_PROTOCOL;
	}
	/* SERVER_HELLO_EX from a 1.5 server; checked when it arrived. */
	int err = proto_decode_any_server_hello(f, &h);
	if (err == -PROTO_E_VERSION || h.status != 0)
		return refused(c, &h);
	kov_target_from_hello(&c->target, &h);
	c->events = calloc(h.target.events ? h.target.events : 1, sizeof *c->events);
	if (!c->events)
		return kov_fail(c, KOV_E_USAGE, "out of memory for the event catalogue");
	for (size_t i = 1; i < a->count; i++) {
		err = add_catalogue(c, &a->frames[i].f);
		if (err)
			return err;
	}
	if (c->n_events != c->target.events)
		return bad_catalogue(c, "fewer entries than announced");
	return 0;
}

int kov_client_connect(struct kov_client *c, const char *host, const char *port)
{
	if (c->hello_sent || c->fd >= 0)
		return kov_fail(c, KOV_E_USAGE, "already connected");
	char why[256];
	int fd = kov_net_connect(host, port, c->timeout_ms, why, sizeof why);
	if (fd < 0)
		return kov_fail(c, fd == -2 ? KOV_E_TIMEOUT : KOV_E_NET, "cannot connect to %s:%s: %s",
		                host, port, why);
	c->fd = fd;
	c->hello_sent = true;

	uint8_t buf[256];
	struct proto_hello hello = { PROTO_MAGIC, PROTO_MAJOR, PROTO_MINOR, proto_cstr(c->name),
	                             proto_cstr(c->token) };
	if (hello.client.len > PROTO_NAME_MAX || hello.token.len > PROTO_NAME_MAX)
		return kov_fail(c, KOV_E_USAGE, "client name or token longer than %d bytes",
		                PROTO_NAME_MAX);
	int n = proto_encode_hello(buf, sizeof buf, 1, c->no_data ? PROTO_F_NO_DATA : 0, &hello);
	if (n < 0)
		return kov_fail(c, KOV_E_USAGE, "cannot encode HELLO: %s", proto_strerror(n));

	struct kov_answer a;
	int err = kov_client_call(c, buf, (size_t)n, &a);
	if (err == KOV_E_TARGET || (err == KOV_E_CLOSED && c->error_code)) {
		/* An ERROR instead of SERVER_HELLO (say, for a HELLO it could not decode). */
		err = kov_fail(c, KOV_E_REFUSED, "target refused: %s%s%s",
		               proto_strerror(c->error_code), c->error_text[0] ? ": " : "",
		               c->error_text);
	}
	if (err) {
		kov_close(c, err);
		return err;
	}
	err = read_welcome(c, &a);
	kov_answer_free(&a);
	if (err) {
		kov_close(c, err);
		return err;
	}
	return 0;
}

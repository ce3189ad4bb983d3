/* Session messages: the handshake, errors, ping, control, status and transport loss.
 *
 * HELLO up to its minor version and SERVER_HELLO up to its reason are the same in every major
 * version of the protocol, so two incompatible peers can still tell each other why. */
#include "dci/proto_wire.h"
#include "kernel/lib/format.h"

/* ---- HELLO --------------------------------------------------------------------------- */

static int put_hello(struct wr *w, const void *msg)
{
	const struct proto_hello *m = msg;
	if (proto_check_str(m->client, 0, PROTO_NAME_MAX) || proto_check_str(m->token, 0, PROTO_NAME_MAX))
		return PROTO_E_STRING;
	put_u32(w, m->magic);
	put_u16(w, m->major);
	put_u16(w, m->minor);
	put_str(w, m->client);
	put_str(w, m->token);
	return 0;
}

static void get_hello(struct rd *r, void *msg)
{
	struct proto_hello *m = msg;
	m->magic = get_u32(r);
	m->major = get_u16(r);
	m->minor = get_u16(r);
	m->client = m->token = (struct proto_str){ NULL, 0 };
	if (r->err)
		return;
	/* What follows the prefix is only known for our own magic and major. */
	if (m->magic != PROTO_MAGIC) {
		r->err = PROTO_E_BAD_MAGIC;
		return;
	}
	if (m->major != PROTO_MAJOR) {
		r->err = PROTO_E_VERSION;
		return;
	}
	proto_get_str(r, &m->client, 0, PROTO_NAME_MAX);
	proto_get_str(r, &m->token, 0, PROTO_NAME_MAX);
}

int proto_encode_hello(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_hello *m)
{
	return proto_fixed_encode(buf, cap, PROTO_HELLO, req, flags, put_hello, m);
}

int proto_decode_hello(const struct proto_frame *f, struct proto_hello *m)
{
	return proto_fixed_decode(f, PROTO_HELLO, get_hello, m);
}

int proto_refusal_text(const struct proto_hello *h, int err, char *buf, size_t n)
{
	if (err < 0)
		err = -err;
	switch (err) {
	case PROTO_E_BAD_MAGIC:
		return format_buf(buf, n, "not a KOV client: magic 0x%08x, expected 0x%08x (\"KOVP\")",
		                  (unsigned)h->magic, (unsigned)PROTO_MAGIC);
	case PROTO_E_VERSION:
		return format_buf(buf, n,
		                  "client speaks KOV protocol %u.%u, this server %u.%u: the major "
		                  "versions must match",
		                  (unsigned)h->major, (unsigned)h->minor, (unsigned)PROTO_MAJOR,
		                  (unsigned)PROTO_MINOR);
	default:
		return format_buf(buf, n, "bad HELLO: %s", proto_strerror(err));
	}
}

/* ---- SERVER_HELLO -------------------------------------------------------------------- */

static int check_server_hello(const struct proto_server_hello *m)
{
	if (m->status == 0) {
		if ((m->role != PROTO_ROLE_OBSERVER && m->role != PROTO_ROLE_CONTROLLER) ||
		    m->client_id == 0)
			return PROTO_E_INCONSISTENT;
	} else if (m->role != PROTO_ROLE_NONE || m->reason.len == 0) {
		return PROTO_E_INCONSISTENT;  /* a refusal says why, never silently */
	}
	return 0;
}

static int check_target(const struct proto_target *t)
{
	if (proto_check_str(t->profile, 1, PROTO_NAME_MAX) ||
	    proto_check_str(t->model, 0, PROTO_NAME_MAX) ||
	    proto_check_str(t->pmu, 0, PROTO_NAME_MAX) ||
	    proto_check_str(t->build_id, 0, PROTO_NAME_MAX) ||
	    proto_check_str(t->server, 0, PROTO_NAME_MAX))
		return PROTO_E_STRING;
	if (t->cpus == 0 || t->timebase_hz == 0)
		return PROTO_E_INCONSISTENT;
	return 0;
}

static int put_server_hello(struct wr *w, const void *msg)
{
	const struct proto_server_hello *m = msg;
	if (proto_check_str(m->reason, 0, PROTO_TEXT_MAX))
		return PROTO_E_STRING;
	int err = check_server_hello(m);
	if (!err && m->status == 0)
		err = check_target(&m->target);
	if (err)
		return err;
	put_u32(w, m->magic);
	put_u16(w, m->major);
	put_u16(w, m->minor);
	put_u16(w, m->status);
	put_u16(w, m->role);
	put_u32(w, m->client_id);
	put_str(w, m->reason);
	if (m->status != 0)
		return 0;
	const struct proto_target *t = &m->target;
	put_u64(w, t->timebase_hz);
	put_u64(w, t->timebase_now);
	put_u64(w, t->memory);
	put_u32(w, t->pvr);
	put_u16(w, t->cpus);
	put_u16(w, t->events);
	put_str(w, t->profile);
	put_str(w, t->model);
	put_str(w, t->pmu);
	put_str(w, t->build_id);
	put_str(w, t->server);
	return 0;
}

static void get_server_hello(struct rd *r, void *msg)
{
	struct proto_server_hello *m = msg;
	memset(&m->target, 0, sizeof m->target);
	m->magic = get_u32(r);
	m->major = get_u16(r);
	m->minor = get_u16(r);
	m->status = get_u16(r);
	m->role = get_u16(r);
	m->client_id = get_u32(r);
	proto_get_str(r, &m->reason, 0, PROTO_TEXT_MAX);
	if (r->err)
		return;
	if (m->magic != PROTO_MAGIC) {
		r->err = PROTO_E_BAD_MAGIC;
		return;
	}
	if (m->major != PROTO_MAJOR) {
		r->err = PROTO_E_VERSION;
		return;
	}
	if (check_server_hello(m)) {
		r->err = PROTO_E_INCONSISTENT;
		return;
	}
	if (m->status != 0)
		return;
	struct proto_target *t = &m->target;
	t->timebase_hz = get_u64(r);
	t->timebase_now = get_u64(r);
	t->memory = get_u64(r);
	t->pvr = get_u32(r);
	t->cpus = get_u16(r);
	t->events = get_u16(r);
	proto_get_str(r, &t->profile, 1, PROTO_NAME_MAX);
	proto_get_str(r, &t->model, 0, PROTO_NAME_MAX);
	proto_get_str(r, &t->pmu, 0, PROTO_NAME_MAX);
	proto_get_str(r, &t->build_id, 0, PROTO_NAME_MAX);
	proto_get_str(r, &t->server, 0, PROTO_NAME_MAX);
	if (!r->err && check_target(t))
		r->err = PROTO_E_INCONSISTENT;
}

int proto_encode_server_hello(void *buf, size_t cap, uint32_t req, uint16_t flags,
                              const struct proto_server_hello *m)
{
	return proto_fixed_encode(buf, cap, PROTO_SERVER_HELLO, req, flags, put_server_hello, m);
}

int proto_decode_server_hello(const struct proto_frame *f, struct proto_server_hello *m)
{
	return proto_fixed_decode(f, PROTO_SERVER_HELLO, get_server_hello, m);
}

/* ---- ERROR, PING, PONG, CLAIM_CONTROL ------------------------------------------------ */

static int put_error(struct wr *w, const void *msg)
{
	const struct proto_error_msg *m = msg;
	if (proto_check_str(m->text, 0, PROTO_TEXT_MAX))
		return PROTO_E_STRING;
	if (m->code == 0)
		return PROTO_E_INCONSISTENT;
	put_u16(w, m->code);
	put_u16(w, m->about);
	put_u16(w, m->flags);
	put_str(w, m->text);
	return 0;
}

static void get_error(struct rd *r, void *msg)
{
	struct proto_error_msg *m = msg;
	m->code = get_u16(r);
	m->about = get_u16(r);
	m->flags = get_u16(r);
	proto_get_str(r, &m->text, 0, PROTO_TEXT_MAX);
	if (!r->err && m->code == 0)
		r->err = PROTO_E_INCONSISTENT;
}

int proto_encode_error(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_error_msg *m)
{
	return proto_fixed_encode(buf, cap, PROTO_ERROR, req, flags, put_error, m);
}

int proto_decode_error(const struct proto_frame *f, struct proto_error_msg *m)
{
	return proto_fixed_decode(f, PROTO_ERROR, get_error, m);
}

static int put_ping(struct wr *w, const void *msg)
{
	put_u64(w, ((const struct proto_ping *)msg)->cookie);
	return 0;
}

static void get_ping(struct rd *r, void *msg)
{
	((struct proto_ping *)msg)->cookie = get_u64(r);
}

int proto_encode_ping(void *buf, size_t cap, uint32_t req, uint16_t flags,
                      const struct proto_ping *m)
{
	return proto_fixed_encode(buf, cap, PROTO_PING, req, flags, put_ping, m);
}

int proto_decode_ping(const struct proto_frame *f, struct proto_ping *m)
{
	return proto_fixed_decode(f, PROTO_PING, get_ping, m);
}

static int put_pong(struct wr *w, const void *msg)
{
	const struct proto_pong *m = msg;
	put_u64(w, m->cookie);
	put_u64(w, m->timebase);
	return 0;
}

static void get_pong(struct rd *r, void *msg)
{
	struct proto_pong *m = msg;
	m->cookie = get_u64(r);
	m->timebase = get_u64(r);
}

int proto_encode_pong(void *buf, size_t cap, uint32_t req, uint16_t flags,
                      const struct proto_pong *m)
{
	return proto_fixed_encode(buf, cap, PROTO_PONG, req, flags, put_pong, m);
}

int proto_decode_pong(const struct proto_frame *f, struct proto_pong *m)
{
	return proto_fixed_decode(f, PROTO_PONG, get_pong, m);
}

static int put_claim(struct wr *w, const void *msg)
{
	const struct proto_claim *m = msg;
	if (proto_check_str(m->token, 1, PROTO_NAME_MAX))
		return PROTO_E_STRING;
	put_str(w, m->token);
	return 0;
}

static void get_claim(struct rd *r, void *msg)
{
	proto_get_str(r, &((struct proto_claim *)msg)->token, 1, PROTO_NAME_MAX);
}

int proto_encode_claim(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_claim *m)
{
	return proto_fixed_encode(buf, cap, PROTO_CLAIM_CONTROL, req, flags, put_claim, m);
}

int proto_decode_claim(const struct proto_frame *f, struct proto_claim *m)
{
	return proto_fixed_decode(f, PROTO_CLAIM_CONTROL, get_claim, m);
}

/* ---- STATUS -------------------------------------------------------------------------- */

static int put_status(struct wr *w, const void *msg)
{
	const struct proto_status *m = msg;
	put_u64(w, m->timebase);
	put_u32(w, m->clients);
	put_u32(w, m->controller);
	put_u32(w, m->config_id);
	put_u32(w, m->streams);
	put_u32(w, m->clients_cut_off);
	put_u64(w, m->frames_dropped);
	put_u64(w, m->samples_lost);
	return 0;
}

static void get_status(struct rd *r, void *msg)
{
	struct proto_status *m = msg;
	m->timebase = get_u64(r);
	m->clients = get_u32(r);
	m->controller = get_u32(r);
	m->config_id = get_u32(r);
	m->streams = get_u32(r);
	m->clients_cut_off = get_u32(r);
	m->frames_dropped = get_u64(r);
	m->samples_lost = get_u64(r);
}

int proto_encode_status(void *buf, size_t cap, uint32_t req, uint16_t flags,
                        const struct proto_status *m)
{
	return proto_fixed_encode(buf, cap, PROTO_STATUS, req, flags, put_status, m);
}

int proto_decode_status(const struct proto_frame *f, struct proto_status *m)
{
	return proto_fixed_decode(f, PROTO_STATUS, get_status, m);
}

/* ---- DROPPED ------------------------------------------------------------------------- */

#define DROP_SIZE 18

static int put_dropped_head(struct wr *w, const void *msg)
{
	const struct proto_dropped_head *h = msg;
	put_u64(w, h->frames);
	put_u64(w, h->bytes);
	put_u64(w, h->records);
	return 0;
}

static void get_dropped_head(struct rd *r, void *msg)
{
	struct proto_dropped_head *h = msg;
	h->frames = get_u64(r);
	h->bytes = get_u64(r);
	h->records = get_u64(r);
}

static int put_drop(struct wr *w, const void *msg)
{
	const struct proto_drop *d = msg;
	put_u16(w, d->type);
	put_u64(w, d->frames);
	put_u64(w, d->records);
	return 0;
}

static void get_drop(struct rd *r, void *msg)
{
	struct proto_drop *d = msg;
	d->type = get_u16(r);
	d->frames = get_u64(r);
	d->records = get_u64(r);
}

int proto_begin_dropped(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                        uint16_t flags, const struct proto_dropped_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_DROPPED, req, flags, put_dropped_head, h);
}

int proto_add_drop(struct proto_builder *b, const struct proto_drop *r)
{
	return proto_list_add(b, PROTO_DROPPED, put_drop, r);
}

int proto_decode_dropped(const struct proto_frame *f, struct proto_dropped_head *h,
                         struct proto_iter *it)
{
	struct proto_drop scratch;
	return proto_list_decode(f, PROTO_DROPPED, get_dropped_head, h, get_drop, &scratch,
	                         DROP_SIZE, it);
}

bool proto_next_drop(struct proto_iter *it, struct proto_drop *r)
{
	return proto_list_next(it, PROTO_DROPPED, get_drop, r);
}

/* Session messages: the handshake, errors, ping, control, status, the kernel's wake-up
 * figures and transport loss, as layouts and entries of the codec's table (proto/proto_wire.h).
 *
 * HELLO up to its minor version and SERVER_HELLO up to its reason are the same in every major
 * version of the protocol, so two incompatible peers can still tell each other why. */
#include "proto_wire.h"
#include "common/lib/format.h"

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

/* SERVER_HELLO_EX (1.5): an accepted SERVER_HELLO, then how the CPUs ran. Refusals never
 * take this form: a client of any version must be able to read why it was refused. */
static int put_server_hello_ex(struct wr *w, const void *msg)
{
	const struct proto_server_hello *m = msg;
	if (m->status != 0 || m->target.cpus_run > PROTO_CPUS_RUN_MAX)
		return PROTO_E_INCONSISTENT;
	int err = put_server_hello(w, msg);
	if (!err)
		put_u8(w, m->target.cpus_run);
	return err;
}

static void get_server_hello_ex(struct rd *r, void *msg)
{
	struct proto_server_hello *m = msg;
	get_server_hello(r, msg);
	if (!r->err && m->status != 0)
		r->err = PROTO_E_INCONSISTENT;
	m->target.cpus_run = get_u8(r);
	if (!r->err && m->target.cpus_run > PROTO_CPUS_RUN_MAX)
		r->err = PROTO_E_INCONSISTENT;
}

/* ---- ERROR, PING, PONG, CLAIM_CONTROL, STATUS, WAKEUPS -------------------------------- */

static int check_error(const void *msg)
{
	return ((const struct proto_error_msg *)msg)->code == 0 ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field error_fields[] = {
	PF(struct proto_error_msg, code, PF_U16),
	PF(struct proto_error_msg, about, PF_U16),
	PF(struct proto_error_msg, flags, PF_U16),
	PF_S(struct proto_error_msg, text, 0, PROTO_TEXT_MAX),
};

static const struct proto_field ping_fields[] = {
	PF(struct proto_ping, cookie, PF_U64),
};

static const struct proto_field pong_fields[] = {
	PF(struct proto_pong, cookie, PF_U64),
	PF(struct proto_pong, timebase, PF_U64),
};

static const struct proto_field claim_fields[] = {
	PF_S(struct proto_claim, token, 1, PROTO_NAME_MAX),
};

static const struct proto_field status_fields[] = {
	PF(struct proto_status, timebase, PF_U64),
	PF(struct proto_status, clients, PF_U32),
	PF(struct proto_status, controller, PF_U32),
	PF(struct proto_status, config_id, PF_U32),
	PF(struct proto_status, streams, PF_U32),
	PF(struct proto_status, clients_cut_off, PF_U32),
	PF(struct proto_status, frames_dropped, PF_U64),
	PF(struct proto_status, samples_lost, PF_U64),
	/* since 1.3, STATUS_EX only */
	PF(struct proto_status, samples_discarded, PF_U64),
};
#define STATUS_FIELDS 8              /* STATUS carries the first 8 */

static const struct proto_field wakeups_fields[] = {
	PF(struct proto_wakeups, timebase, PF_U64),
	PF(struct proto_wakeups, rescues, PF_U64),
	PF(struct proto_wakeups, resets, PF_U64),
	PF(struct proto_wakeups, prods, PF_U64),
	PF(struct proto_wakeups, late_max_us, PF_U64),
	PF(struct proto_wakeups, ticks_pending, PF_U64),
};

/* ---- DROPPED ------------------------------------------------------------------------- */

#define DROP_SIZE 18

static const struct proto_field dropped_head_fields[] = {
	PF(struct proto_dropped_head, frames, PF_U64),
	PF(struct proto_dropped_head, bytes, PF_U64),
	PF(struct proto_dropped_head, records, PF_U64),
};

static const struct proto_field drop_fields[] = {
	PF(struct proto_drop, type, PF_U16),
	PF(struct proto_drop, frames, PF_U64),
	PF(struct proto_drop, records, PF_U64),
};

/* ---- the table ----------------------------------------------------------------------- */

static const struct proto_layout hello_layout =
	PROTO_CUSTOM(struct proto_hello, put_hello, get_hello);
static const struct proto_layout server_hello_layout =
	PROTO_CUSTOM(struct proto_server_hello, put_server_hello, get_server_hello);
static const struct proto_layout server_hello_ex_layout =
	PROTO_CUSTOM(struct proto_server_hello, put_server_hello_ex, get_server_hello_ex);
static const struct proto_layout error_layout =
	PROTO_LAYOUT(struct proto_error_msg, error_fields, check_error);
static const struct proto_layout ping_layout = PROTO_LAYOUT(struct proto_ping, ping_fields, NULL);
static const struct proto_layout pong_layout = PROTO_LAYOUT(struct proto_pong, pong_fields, NULL);
static const struct proto_layout claim_layout =
	PROTO_LAYOUT(struct proto_claim, claim_fields, NULL);
/* What STATUS does not carry reads as none. */
static const struct proto_layout status_layout = {
	status_fields, STATUS_FIELDS, true, sizeof(struct proto_status), NULL, NULL, NULL,
};
static const struct proto_layout status_ex_layout =
	PROTO_LAYOUT(struct proto_status, status_fields, NULL);
static const struct proto_layout wakeups_layout =
	PROTO_LAYOUT(struct proto_wakeups, wakeups_fields, NULL);
static const struct proto_layout dropped_head_layout =
	PROTO_LAYOUT(struct proto_dropped_head, dropped_head_fields, NULL);
static const struct proto_layout drop_layout = PROTO_LAYOUT(struct proto_drop, drop_fields, NULL);

const struct proto_message proto_session_messages[] = {
	{ PROTO_HELLO, &hello_layout, NULL, 0, NULL },
	{ PROTO_SERVER_HELLO, &server_hello_layout, NULL, 0, NULL },
	{ PROTO_ERROR, &error_layout, NULL, 0, NULL },
	{ PROTO_OK, NULL, NULL, 0, NULL },
	{ PROTO_PING, &ping_layout, NULL, 0, NULL },
	{ PROTO_PONG, &pong_layout, NULL, 0, NULL },
	{ PROTO_CLAIM_CONTROL, &claim_layout, NULL, 0, NULL },
	{ PROTO_STATUS_GET, NULL, NULL, 0, NULL },
	{ PROTO_STATUS, &status_layout, NULL, 0, NULL },
	{ PROTO_STATUS_EX, &status_ex_layout, NULL, 0, NULL },
	{ PROTO_DROPPED, &dropped_head_layout, &drop_layout, DROP_SIZE, NULL },
	{ PROTO_SERVER_HELLO_EX, &server_hello_ex_layout, NULL, 0, NULL },
	{ PROTO_WAKEUPS_GET, NULL, NULL, 0, NULL },
	{ PROTO_WAKEUPS, &wakeups_layout, NULL, 0, NULL },
	{ PROTO_POWER_OFF, NULL, NULL, 0, NULL },
	{ PROTO_REBOOT, NULL, NULL, 0, NULL },
};
const size_t proto_session_message_count =
	sizeof proto_session_messages / sizeof proto_session_messages[0];

PROTO_FIXED_NAMES(hello, PROTO_HELLO, struct proto_hello)
PROTO_FIXED_NAMES(server_hello, PROTO_SERVER_HELLO, struct proto_server_hello)
PROTO_FIXED_NAMES(server_hello_ex, PROTO_SERVER_HELLO_EX, struct proto_server_hello)
PROTO_FIXED_NAMES(error, PROTO_ERROR, struct proto_error_msg)
PROTO_FIXED_NAMES(ping, PROTO_PING, struct proto_ping)
PROTO_FIXED_NAMES(pong, PROTO_PONG, struct proto_pong)
PROTO_FIXED_NAMES(claim, PROTO_CLAIM_CONTROL, struct proto_claim)
PROTO_FIXED_NAMES(status, PROTO_STATUS, struct proto_status)
PROTO_FIXED_NAMES(status_ex, PROTO_STATUS_EX, struct proto_status)
PROTO_FIXED_NAMES(wakeups, PROTO_WAKEUPS, struct proto_wakeups)

bool proto_is_server_hello(uint16_t type)
{
	return type == PROTO_SERVER_HELLO || type == PROTO_SERVER_HELLO_EX;
}

const char *proto_cpus_run_name(uint8_t cpus_run)
{
	switch (cpus_run) {
	case PROTO_CPUS_TAKE_TURNS: return "take-turns";
	case PROTO_CPUS_PARALLEL: return "parallel";
	default: return "unknown";
	}
}

int proto_decode_any_server_hello(const struct proto_frame *f, struct proto_server_hello *m)
{
	return f->type == PROTO_SERVER_HELLO_EX ? proto_decode_server_hello_ex(f, m)
	                                        : proto_decode_server_hello(f, m);
}

int proto_decode_any_status(const struct proto_frame *f, struct proto_status *m)
{
	return f->type == PROTO_STATUS_EX ? proto_decode_status_ex(f, m) : proto_decode_status(f, m);
}
PROTO_LIST_NAMES(dropped, drop, PROTO_DROPPED, struct proto_dropped_head, struct proto_drop)

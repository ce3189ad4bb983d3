/* Requests whose answer is one fixed frame: PING, STATUS_GET, WAKEUPS_GET and SWAP. */
#include <string.h>
#include "client/client_priv.h"

/* The answer's one frame must be of the expected type and decode (it was validated on
 * arrival, so decoding here only fails for a wrong type). */
static int single(struct kov_client *c, const struct kov_answer *a, uint16_t type)
{
	if (a->count != 1 || a->frames[0].f.type != type) {
		c->error_code = PROTO_E_UNEXPECTED;
		return kov_fail(c, KOV_E_PROTOCOL, "target answered with %zu frame(s) of %s, not one %s",
		                a->count, proto_type_name(a->frames[0].f.type), proto_type_name(type));
	}
	return 0;
}

int kov_client_ping(struct kov_client *c, uint64_t cookie, struct proto_pong *pong,
                    uint64_t *rtt_ns)
{
	uint8_t buf[PROTO_HEADER_SIZE + 8];
	struct proto_ping ping = { cookie };
	int n = proto_encode_ping(buf, sizeof buf, 1, 0, &ping);
	if (n < 0)
		return kov_fail(c, KOV_E_USAGE, "cannot encode PING");
	struct kov_answer a;
	uint64_t t0 = kov_now_ns();
	int err = kov_client_call(c, buf, (size_t)n, &a);
	uint64_t t1 = kov_now_ns();
	if (err)
		return err;
	err = single(c, &a, PROTO_PONG);
	if (!err)
		proto_decode_pong(&a.frames[0].f, pong);
	if (!err && pong->cookie != cookie)
		err = kov_fail(c, KOV_E_PROTOCOL, "PONG carries cookie 0x%llx, the PING 0x%llx",
		               (unsigned long long)pong->cookie, (unsigned long long)cookie);
	kov_answer_free(&a);
	*rtt_ns = t1 - t0;
	return err;
}

/* Sends a request without payload (STATUS_GET, WAKEUPS_GET) and waits for its answer. */
static int call_empty(struct kov_client *c, uint16_t type, struct kov_answer *a)
{
	uint8_t buf[PROTO_HEADER_SIZE];
	int n = proto_encode_empty(buf, sizeof buf, type, 1, 0);
	if (n < 0)
		return kov_fail(c, KOV_E_USAGE, "cannot encode %s", proto_type_name(type));
	return kov_client_call(c, buf, (size_t)n, a);
}

int kov_client_status(struct kov_client *c, struct proto_status *st)
{
	struct kov_answer a;
	int err = call_empty(c, PROTO_STATUS_GET, &a);
	if (err)
		return err;
	/* A 1.3 server answers STATUS_EX (with the discards), an older one STATUS. */
	err = single(c, &a, a.count && a.frames[0].f.type == PROTO_STATUS_EX ? PROTO_STATUS_EX : PROTO_STATUS);
	if (!err)
		proto_decode_any_status(&a.frames[0].f, st);
	kov_answer_free(&a);
	return err;
}

int kov_client_wakeups(struct kov_client *c, struct proto_wakeups *w)
{
	/* An older server does not know the request: it would end the connection over it. */
	if (!kov_target_reports_machine(&c->target))
		return kov_fail(c, KOV_E_USAGE, "the target speaks protocol %u.%u: wake-up "
		                "counters came with 1.5", (unsigned)c->target.major,
		                (unsigned)c->target.minor);
	struct kov_answer a;
	int err = call_empty(c, PROTO_WAKEUPS_GET, &a);
	if (err)
		return err;
	err = single(c, &a, PROTO_WAKEUPS);
	if (!err)
		proto_decode_wakeups(&a.frames[0].f, w);
	kov_answer_free(&a);
	return err;
}

int kov_swapped_read(const struct proto_frame *f, struct kov_swapped *out)
{
	int err = proto_decode_swapped(f, &out->m);
	if (err)
		return err;
	proto_str_copy(out->from, sizeof out->from, out->m.from);
	proto_str_copy(out->to, sizeof out->to, out->m.to);
	out->m.from = proto_cstr(out->from);
	out->m.to = proto_cstr(out->to);
	return 0;
}

int kov_client_swap(struct kov_client *c, uint32_t pid, uint64_t coid, const char *to,
                    struct kov_swapped *out)
{
	if (c->target.major == 1 && c->target.minor < 6)
		return kov_fail(c, KOV_E_USAGE, "the target speaks protocol %u.%u: hot swaps came "
		                "with 1.6", (unsigned)c->target.major, (unsigned)c->target.minor);
	uint8_t buf[PROTO_HEADER_SIZE + 64];
	struct proto_swap m = { pid, coid, proto_cstr(to) };
	int n = proto_encode_swap(buf, sizeof buf, 1, 0, &m);
	if (n < 0)
		return kov_fail(c, KOV_E_USAGE, "cannot encode SWAP to '%s': %s", to, proto_strerror(n));
	struct kov_answer a;
	int err = kov_client_call(c, buf, (size_t)n, &a);
	if (err)
		return err;
	err = single(c, &a, PROTO_SWAPPED);
	if (!err)
		kov_swapped_read(&a.frames[0].f, out);
	kov_answer_free(&a);
	return err;
}

int kov_client_throttle(struct kov_client *c, bool set, uint32_t limit_bp,
                        struct proto_throttle *out)
{
	if (c->target.major == 1 && c->target.minor < 7)
		return kov_fail(c, KOV_E_USAGE, "the target speaks protocol %u.%u: the monitor's "
		                "cost bound came with 1.7", (unsigned)c->target.major,
		                (unsigned)c->target.minor);
	struct kov_answer a;
	int err;
	if (set) {
		uint8_t buf[PROTO_HEADER_SIZE + 8];
		struct proto_throttle_set m = { limit_bp };
		int n = proto_encode_throttle_set(buf, sizeof buf, 1, 0, &m);
		if (n < 0)
			return kov_fail(c, KOV_E_USAGE, "cannot encode THROTTLE_SET: %s", proto_strerror(n));
		err = kov_client_call(c, buf, (size_t)n, &a);
	} else {
		err = call_empty(c, PROTO_THROTTLE_GET, &a);
	}
	if (err)
		return err;
	err = single(c, &a, PROTO_THROTTLE);
	if (!err)
		proto_decode_throttle(&a.frames[0].f, out);
	kov_answer_free(&a);
	return err;
}

int kov_client_power(struct kov_client *c, bool reboot)
{
	if (c->target.major == 1 && c->target.minor < 8)
		return kov_fail(c, KOV_E_USAGE, "the target speaks protocol %u.%u: power-off and "
		                "reboot came with 1.8", (unsigned)c->target.major,
		                (unsigned)c->target.minor);
	struct kov_answer a;
	int err = call_empty(c, reboot ? PROTO_REBOOT : PROTO_POWER_OFF, &a);
	if (err)
		return err;
	err = single(c, &a, PROTO_OK);
	kov_answer_free(&a);
	return err;
}

int kov_client_platform(struct kov_client *c, struct kov_platform *out)
{
	if (c->target.major == 1 && c->target.minor < 8)
		return kov_fail(c, KOV_E_USAGE, "the target speaks protocol %u.%u: the platform's "
		                "self-report came with 1.8", (unsigned)c->target.major,
		                (unsigned)c->target.minor);
	struct kov_answer a;
	int err = call_empty(c, PROTO_PLATFORM_GET, &a);
	if (err)
		return err;
	err = single(c, &a, PROTO_PLATFORM);
	struct proto_platform_head h;
	struct proto_iter it;
	if (!err && proto_decode_platform(&a.frames[0].f, &h, &it) != 0)
		err = kov_fail(c, KOV_E_PROTOCOL, "the target's PLATFORM does not decode");
	if (!err) {
		memset(out, 0, sizeof *out);
		out->rtc_ok = h.rtc_ok;
		out->emulated = h.emulated;
		out->rtc_boot = h.rtc_boot;
		proto_str_copy(out->platform, sizeof out->platform, h.platform);
		proto_str_copy(out->power_ctl, sizeof out->power_ctl, h.power_ctl);
		struct proto_platform_path r;
		while (proto_next_platform_path(&it, &r) && out->n_paths < KOV_PLATFORM_PATHS) {
			struct kov_platform_path *p = &out->paths[out->n_paths++];
			p->state = r.state;
			proto_str_copy(p->name, sizeof p->name, r.name);
			proto_str_copy(p->detail, sizeof p->detail, r.detail);
		}
	}
	kov_answer_free(&a);
	return err;
}

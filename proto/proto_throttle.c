/* THROTTLE_GET, THROTTLE_SET and THROTTLE (proto/proto_throttle.h): layouts and entries of
 * the codec's table (proto/proto_wire.h). */
#include "proto_wire.h"
#include "proto_throttle.h"

static int check_set(const void *msg)
{
	const struct proto_throttle_set *m = msg;
	return m->limit_bp > PROTO_THROTTLE_MAX_LIMIT_BP ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field set_fields[] = {
	PF(struct proto_throttle_set, limit_bp, PF_U32),
};

static int check_throttle(const void *msg)
{
	const struct proto_throttle *m = msg;
	return m->factor == 0 || (m->factor & (m->factor - 1)) ||
	       m->limit_bp > PROTO_THROTTLE_MAX_LIMIT_BP ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field throttle_fields[] = {
	PF(struct proto_throttle, seq, PF_U64),
	PF(struct proto_throttle, timebase, PF_U64),
	PF(struct proto_throttle, factor, PF_U32),
	PF(struct proto_throttle, cost_bp, PF_U32),
	PF(struct proto_throttle, limit_bp, PF_U32),
	PF(struct proto_throttle, windows, PF_U64),
};

static const struct proto_layout set_layout =
	PROTO_LAYOUT(struct proto_throttle_set, set_fields, check_set);
static const struct proto_layout throttle_layout =
	PROTO_LAYOUT(struct proto_throttle, throttle_fields, check_throttle);

const struct proto_message proto_throttle_messages[] = {
	{ PROTO_THROTTLE_GET, NULL, NULL, 0, NULL },
	{ PROTO_THROTTLE_SET, &set_layout, NULL, 0, NULL },
	{ PROTO_THROTTLE, &throttle_layout, NULL, 0, NULL },
};
const size_t proto_throttle_message_count =
	sizeof proto_throttle_messages / sizeof proto_throttle_messages[0];

PROTO_FIXED_NAMES(throttle_set, PROTO_THROTTLE_SET, struct proto_throttle_set)
PROTO_FIXED_NAMES(throttle, PROTO_THROTTLE, struct proto_throttle)

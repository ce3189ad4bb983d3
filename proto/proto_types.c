/* What each message type is: its name, who may send it, and the rules a receiver applies
 * before decoding it (direction, handshake first, roles, request ids). */
#include "proto_wire.h"

#define C PROTO_FROM_CLIENT
#define S PROTO_FROM_SERVER
#define CTL PROTO_TA_CONTROLLER
#define DROP PROTO_TA_DROPPABLE

static const struct proto_type_info types[] = {
	{ PROTO_HELLO, "HELLO", C, 0, 0 },
	{ PROTO_SERVER_HELLO, "SERVER_HELLO", S, 0, 0 },
	{ PROTO_ERROR, "ERROR", C | S, 0, 0 },
	{ PROTO_OK, "OK", S, 0, 0 },
	{ PROTO_PING, "PING", C, 0, 0 },
	{ PROTO_PONG, "PONG", S, 0, 0 },
	{ PROTO_CLAIM_CONTROL, "CLAIM_CONTROL", C, 0, 0 },
	{ PROTO_STATUS_GET, "STATUS_GET", C, 0, 0 },
	{ PROTO_STATUS, "STATUS", S, 0, 0 },
	{ PROTO_DROPPED, "DROPPED", S, 0, 0 },
	{ PROTO_STATUS_EX, "STATUS_EX", S, 0, 3 },
	{ PROTO_SERVER_HELLO_EX, "SERVER_HELLO_EX", S, 0, 5 },
	{ PROTO_WAKEUPS_GET, "WAKEUPS_GET", C, 0, 5 },
	{ PROTO_WAKEUPS, "WAKEUPS", S, 0, 5 },
	{ PROTO_THROTTLE_GET, "THROTTLE_GET", C, 0, 7 },
	{ PROTO_POWER_OFF, "POWER_OFF", C, CTL, 8 },
	{ PROTO_REBOOT, "REBOOT", C, CTL, 8 },
	{ PROTO_PLATFORM_GET, "PLATFORM_GET", C, 0, 8 },
	{ PROTO_PLATFORM, "PLATFORM", S, 0, 8 },
	{ PROTO_SCAN_REQUEST, "SCAN_REQUEST", C, 0, 0 },
	{ PROTO_SCAN_PROCESSES, "SCAN_PROCESSES", S, 0, 0 },
	{ PROTO_SCAN_OBJECTS, "SCAN_OBJECTS", S, 0, 0 },
	{ PROTO_SYMBOL_LOOKUP, "SYMBOL_LOOKUP", C, 0, 0 },
	{ PROTO_SYMBOL_TABLE_GET, "SYMBOL_TABLE_GET", C, 0, 0 },
	{ PROTO_SYMBOLS, "SYMBOLS", S, 0, 0 },
	{ PROTO_CATALOGUE_GET, "CATALOGUE_GET", C, 0, 0 },
	{ PROTO_EVENT_CATALOGUE, "EVENT_CATALOGUE", S, 0, 0 },
	{ PROTO_PMU_CONFIG, "PMU_CONFIG", C | S, CTL, 0 },
	{ PROTO_CONFIG_GET, "CONFIG_GET", C, 0, 0 },
	{ PROTO_START, "START", C, CTL, 0 },
	{ PROTO_STOP, "STOP", C, CTL, 0 },
	{ PROTO_INSTRUMENT, "INSTRUMENT", C, CTL, 1 },
	{ PROTO_SWAP, "SWAP", C, CTL, 6 },
	{ PROTO_THROTTLE_SET, "THROTTLE_SET", C, CTL, 7 },
	{ PROTO_SAMPLES, "SAMPLES", S, DROP, 0 },
	{ PROTO_INTERVAL_COUNTS, "INTERVAL_COUNTS", S, DROP, 0 },
	{ PROTO_LOCK_STATS, "LOCK_STATS", S, DROP, 0 },
	{ PROTO_INVOCATIONS, "INVOCATIONS", S, DROP, 0 },
	{ PROTO_LOCK_CONTENTION, "LOCK_CONTENTION", S, DROP, 2 },
	{ PROTO_SAMPLES_CHAINED, "SAMPLES_CHAINED", S, DROP, 4 },
	{ PROTO_SAMPLES_PACKED, "SAMPLES_PACKED", S, DROP, 8 },
	/* The samples that follow name these chains: never dropped. */
	{ PROTO_CHAINS, "CHAINS", S, 0, 4 },
	/* A swap changes what the objects are: never dropped. */
	{ PROTO_SWAPPED, "SWAPPED", S, 0, 6 },
	{ PROTO_THROTTLE, "THROTTLE", S, 0, 7 },
	/* A report of loss is itself never dropped. */
	{ PROTO_LOST_SAMPLES, "LOST_SAMPLES", S, 0, 0 },
};

const struct proto_type_info *proto_type_info(uint16_t type)
{
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
		if (types[i].type == type)
			return &types[i];
	return NULL;
}

const char *proto_type_name(uint16_t type)
{
	const struct proto_type_info *t = proto_type_info(type);
	return t ? t->name : "?";
}

bool proto_requires_controller(uint16_t type)
{
	const struct proto_type_info *t = proto_type_info(type);
	return t && (t->attrs & PROTO_TA_CONTROLLER);
}

bool proto_droppable(uint16_t type)
{
	const struct proto_type_info *t = proto_type_info(type);
	return t && (t->attrs & PROTO_TA_DROPPABLE);
}

static int check_at_server(const struct proto_frame *f, enum proto_role role)
{
	if ((role == PROTO_ROLE_NONE) != (f->type == PROTO_HELLO))
		return -PROTO_E_UNEXPECTED;      /* HELLO first, and only once */
	if (f->req == 0 || (f->flags & PROTO_F_MORE))
		return -PROTO_E_UNEXPECTED;      /* id 0 is for pushed frames; requests are one frame */
	if (proto_requires_controller(f->type) && role != PROTO_ROLE_CONTROLLER)
		return -PROTO_E_NOT_CONTROLLER;
	return 0;
}

static int check_at_client(const struct proto_frame *f, enum proto_role role)
{
	/* The handshake's answer (SERVER_HELLO, or SERVER_HELLO_EX since 1.5) first, and once. */
	bool welcome = proto_is_server_hello(f->type);
	if (role == PROTO_ROLE_NONE && !welcome && f->type != PROTO_ERROR)
		return -PROTO_E_UNEXPECTED;
	if (role != PROTO_ROLE_NONE && welcome)
		return -PROTO_E_UNEXPECTED;
	if (f->req == 0 && (f->flags & PROTO_F_MORE))
		return -PROTO_E_UNEXPECTED;      /* only answers come in several frames */
	return 0;
}

int proto_check_incoming(const struct proto_frame *f, enum proto_side receiver,
                         enum proto_role role)
{
	const struct proto_type_info *t = proto_type_info(f->type);
	if (!t)
		return (f->flags & PROTO_F_OPTIONAL) ? PROTO_IGNORE : -PROTO_E_UNKNOWN_TYPE;
	uint8_t from = receiver == PROTO_SIDE_SERVER ? PROTO_FROM_CLIENT : PROTO_FROM_SERVER;
	if (!(t->from & from))
		return -PROTO_E_UNEXPECTED;
	return receiver == PROTO_SIDE_SERVER ? check_at_server(f, role) : check_at_client(f, role);
}

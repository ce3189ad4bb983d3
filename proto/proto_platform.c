/* PLATFORM_GET and PLATFORM (proto/proto_platform.h): layouts and entries of the codec's
 * table (proto/proto_wire.h). */
#include "proto_wire.h"
#include "proto_platform.h"

#define PATH_MIN 5   /* state, and two empty strings' lengths */
#define PLATFORM_PATHS_MAX 64

static const char *const state_names[PROTO_PATH_STATES] = {
	[PROTO_PATH_EXERCISED] = "exercised",
	[PROTO_PATH_NEW] = "new on this machine",
	[PROTO_PATH_UNEXERCISED] = "not exercised",
	[PROTO_PATH_UNCHECKABLE] = "cannot be checked here",
};

const char *proto_path_state_name(unsigned state)
{
	return state < PROTO_PATH_STATES ? state_names[state] : "unknown state";
}

static int check_head(const void *msg)
{
	const struct proto_platform_head *h = msg;
	return h->rtc_ok > 1 || h->emulated > 1 || (!h->rtc_ok && h->rtc_boot) ?
	       PROTO_E_INCONSISTENT : 0;
}

static int check_path(const void *msg)
{
	const struct proto_platform_path *p = msg;
	return p->state >= PROTO_PATH_STATES ? PROTO_E_INCONSISTENT : 0;
}

static int check_count(const void *head, uint32_t count)
{
	(void)head;
	return count > PLATFORM_PATHS_MAX ? PROTO_E_COUNT : 0;
}

static const struct proto_field head_fields[] = {
	PF(struct proto_platform_head, rtc_boot, PF_U64),
	PF(struct proto_platform_head, rtc_ok, PF_U8),
	PF(struct proto_platform_head, emulated, PF_U8),
	PF_S(struct proto_platform_head, platform, 1, PROTO_NAME_MAX),
	PF_S(struct proto_platform_head, power_ctl, 1, PROTO_NAME_MAX),
};

static const struct proto_field path_fields[] = {
	PF(struct proto_platform_path, state, PF_U8),
	PF_S(struct proto_platform_path, name, 1, PROTO_PLATFORM_NAME_MAX),
	PF_S(struct proto_platform_path, detail, 0, PROTO_PLATFORM_DETAIL_MAX),
};

static const struct proto_layout head_layout =
	PROTO_LAYOUT(struct proto_platform_head, head_fields, check_head);
static const struct proto_layout path_layout =
	PROTO_LAYOUT(struct proto_platform_path, path_fields, check_path);

const struct proto_message proto_platform_messages[] = {
	{ PROTO_PLATFORM_GET, NULL, NULL, 0, NULL },
	{ PROTO_PLATFORM, &head_layout, &path_layout, PATH_MIN, check_count },
};
const size_t proto_platform_message_count =
	sizeof proto_platform_messages / sizeof proto_platform_messages[0];

PROTO_LIST_NAMES(platform, platform_path, PROTO_PLATFORM, struct proto_platform_head,
		 struct proto_platform_path)

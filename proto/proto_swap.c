/* SWAP and SWAPPED (proto/proto_swap.h): layouts and entries of the codec's table
 * (proto/proto_wire.h). */
#include "proto_wire.h"
#include "proto_swap.h"

static const char *const result_names[PROTO_SWAP_RESULTS] = {
	[PROTO_SWAP_OK] = "swapped",
	[PROTO_SWAP_NOT_LIVE] = "no live object there",
	[PROTO_SWAP_NOT_SWAPPABLE] = "no swappable implementation of one of the classes",
	[PROTO_SWAP_INCOMPATIBLE] = "the classes' state formats differ",
	[PROTO_SWAP_BUSY] = "another swap of the object is in progress",
	[PROTO_SWAP_NESTED] = "called from inside the object",
	[PROTO_SWAP_NO_MEMORY] = "out of memory",
	[PROTO_SWAP_DRAIN_TIMEOUT] = "timed out: calls begun before the swap did not finish",
	[PROTO_SWAP_BLOCK_TIMEOUT] = "timed out: forwarded calls did not finish",
	[PROTO_SWAP_TRANSFER_FAILED] = "the state transfer failed",
};

const char *proto_swap_result_name(unsigned result)
{
	return result < PROTO_SWAP_RESULTS ? result_names[result] : "unknown result";
}

static int check_swap(const void *msg)
{
	const struct proto_swap *m = msg;
	return m->pid == PROTO_PID_ALL || m->coid == 0 ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field swap_fields[] = {
	PF(struct proto_swap, pid, PF_U32),
	PF(struct proto_swap, coid, PF_U64),
	PF_S(struct proto_swap, to, 1, PROTO_CLASS_MAX),
};

static int check_swapped(const void *msg)
{
	const struct proto_swapped *m = msg;
	return m->result >= PROTO_SWAP_RESULTS ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field swapped_fields[] = {
	PF(struct proto_swapped, pid, PF_U32),
	PF(struct proto_swapped, coid, PF_U64),
	PF(struct proto_swapped, result, PF_U16),
	PF(struct proto_swapped, walks, PF_U32),
	PF(struct proto_swapped, at_ns, PF_U64),
	PF(struct proto_swapped, forward_ns, PF_U64),
	PF(struct proto_swapped, block_ns, PF_U64),
	PF(struct proto_swapped, transfer_ns, PF_U64),
	PF(struct proto_swapped, forwarded, PF_U64),
	PF(struct proto_swapped, held, PF_U64),
	PF_S(struct proto_swapped, from, 0, PROTO_CLASS_MAX),
	PF_S(struct proto_swapped, to, 1, PROTO_CLASS_MAX),
};

static const struct proto_layout swap_layout = PROTO_LAYOUT(struct proto_swap, swap_fields, check_swap);
static const struct proto_layout swapped_layout =
	PROTO_LAYOUT(struct proto_swapped, swapped_fields, check_swapped);

const struct proto_message proto_swap_messages[] = {
	{ PROTO_SWAP, &swap_layout, NULL, 0, NULL },
	{ PROTO_SWAPPED, &swapped_layout, NULL, 0, NULL },
};
const size_t proto_swap_message_count = sizeof proto_swap_messages / sizeof proto_swap_messages[0];

PROTO_FIXED_NAMES(swap, PROTO_SWAP, struct proto_swap)
PROTO_FIXED_NAMES(swapped, PROTO_SWAPPED, struct proto_swapped)

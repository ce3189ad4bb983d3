/* Hot swaps over the DCI (since 1.6): SWAP asks the target to replace a live object's
 * implementation by another class with the same interface (common/co/co_swap.h); SWAPPED says
 * how it went, to the asker as its answer and to every other 1.6 subscriber as an event of the
 * stream (never dropped). */
#ifndef KOV_PROTO_SWAP_H
#define KOV_PROTO_SWAP_H

#include "proto_msg.h"

#define PROTO_CLASS_MAX 31           /* a class name's bytes */

struct proto_swap {                  /* SWAP (1.6), controller only */
	uint32_t pid;                /* a process (the kernel's objects cannot be swapped yet) */
	uint64_t coid;               /* one live object of pid's space */
	struct proto_str to;         /* 1..PROTO_CLASS_MAX: the class to swap to */
};

/* SWAPPED.result: the runtime's answer (pinned to enum co_swap_result: dci/abi_pins.c). */
enum proto_swap_result {
	PROTO_SWAP_OK = 0,
	PROTO_SWAP_NOT_LIVE,         /* the object died before the runtime got to it */
	PROTO_SWAP_NOT_SWAPPABLE,    /* no swappable implementation of its class, or of `to` */
	PROTO_SWAP_INCOMPATIBLE,     /* the two classes' state formats differ */
	PROTO_SWAP_BUSY,             /* another swap of it is in progress */
	PROTO_SWAP_NESTED,
	PROTO_SWAP_NO_MEMORY,
	PROTO_SWAP_DRAIN_TIMEOUT,    /* calls begun before the swap did not finish in time */
	PROTO_SWAP_BLOCK_TIMEOUT,    /* forwarded calls did not finish in time */
	PROTO_SWAP_TRANSFER_FAILED,
	PROTO_SWAP_RESULTS
};

struct proto_swapped {               /* SWAPPED (1.6) */
	uint32_t pid;
	uint64_t coid;
	uint16_t result;             /* enum proto_swap_result; the object is untouched unless OK */
	uint32_t walks;              /* sleeping threads' stacks the drain walked */
	uint64_t at_ns;              /* the target's clock when the swap ended */
	uint64_t forward_ns, block_ns, transfer_ns;   /* each phase (ns; instructions under icount) */
	uint64_t forwarded, held;    /* calls the mediator sent to the old instance, and held */
	struct proto_str from, to;   /* the classes before and asked for */
};

/* Text for a result ("unknown result" past the table). */
const char *proto_swap_result_name(unsigned result);

int proto_encode_swap(void *buf, size_t cap, uint32_t req, uint16_t flags, const struct proto_swap *m);
int proto_decode_swap(const struct proto_frame *f, struct proto_swap *m);
int proto_encode_swapped(void *buf, size_t cap, uint32_t req, uint16_t flags,
			 const struct proto_swapped *m);
int proto_decode_swapped(const struct proto_frame *f, struct proto_swapped *m);

#endif

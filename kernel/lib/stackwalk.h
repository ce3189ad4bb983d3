/* Back-chain stack walking for 64-bit PowerPC ELFv1 stacks, portable so that it is unit-tested
 * on the host and runs unchanged in the kernel and the KOV sampler.
 *
 * Each frame starts with the back chain (the caller's stack pointer); a function saves its
 * return address in the LR save doubleword, 16 bytes into its caller's frame. Memory is read
 * only through `read`, which must refuse addresses outside the stack being walked, so a corrupt
 * chain ends the walk instead of faulting. */
#ifndef KOV_STACKWALK_H
#define KOV_STACKWALK_H

#include <stdint.h>
#include <stdbool.h>

#define STACK_LR_SAVE 16

/* Why a walk ended. */
enum walk_end {
	WALK_END_CHAIN,     /* a zero back chain: the outermost frame was reached */
	WALK_END_BAD,       /* a back chain that is unreadable, misaligned or not moving up */
	WALK_END_TRUNCATED, /* `max` return addresses were collected */
};

struct stack_walk {
	uint64_t sp;                                  /* stack pointer to start from */
	bool (*read)(void *ctx, uint64_t addr, uint64_t *value);
	void *ctx;
	uint64_t max_frame;                           /* largest accepted frame size in bytes */
};

/* Collects up to `max` return addresses, innermost first, into pcs; returns how many and
 * stores the reason the walk stopped in *end. */
int stack_walk(const struct stack_walk *w, uint64_t *pcs, int max, enum walk_end *end);

#endif

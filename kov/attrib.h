/* Attribution of a sample to the object whose method was running: from the interrupted state
 * (pc, stack pointer, link register) walk the back chain to the innermost frame owned by a
 * clustered-object method body and read the rep its CO_METHOD entry stub stored in the home
 * slot of the first parameter (kernel/abi/co_abi.h), 48 bytes above the caller's stack pointer.
 *
 * The interrupted function may not own a frame: a leaf that never makes one, a prologue before
 * its `stdu r1`, or an epilogue after the frame was popped. Its instructions are read to tell
 * (from its start to pc, and a few ahead to its `blr`), so such samples are attributed exactly
 * instead of to the caller's object. Memory is read only through callbacks that refuse bad
 * addresses; a bad chain ends the walk with the TRUNCATED flag, never a fault. Portable: the
 * KM's sampler uses it, the host unit tests feed it synthetic and corrupt stacks. */
#ifndef KOV_ATTRIB_H
#define KOV_ATTRIB_H

#include <stdbool.h>
#include <stdint.h>

/* Which instructions belong to method bodies: one bit per 4-byte instruction from `base`. */
struct method_map {
	uint64_t base;
	uint64_t limit;             /* first address past the mapped text */
	const uint32_t *bits;
};

static inline bool method_map_has(const struct method_map *m, uint64_t pc)
{
	if (pc < m->base || pc >= m->limit)
		return false;
	uint64_t i = (pc - m->base) >> 2;
	return (m->bits[i >> 5] >> (i & 31)) & 1;
}

/* Bitmap words needed for text [base, limit). */
uint64_t method_map_words(uint64_t base, uint64_t limit);
/* Marks [start, end) as method body in bits (zeroed by the caller). */
void method_map_mark(uint32_t *bits, uint64_t base, uint64_t limit, uint64_t start, uint64_t end);

/* Where the interrupted function's return address and caller's frame are, worked out once
 * per program from its code. `noframe` marks where the function has no frame of its own (sp
 * is its caller's frame): prologue instructions before the `stdu r1`, whole frameless
 * functions and the instructions after a frame pop up to the `blr`; `popped` marks the last
 * kind where the return address was saved (it is then in the caller's LR save slot, not in
 * LR). `unsaved_lr` marks where the function has its frame but has not saved LR (yet, or on
 * this path): instructions after the `stdu` up to the first `std r0,N(r1)` of an `mflr r0`,
 * in address order. GCC's shrink-wrapping puts a function's fast path, which never saves LR,
 * before the slow path that does; there the LR save slot still holds whatever an earlier
 * call left, and the return address is in LR. The three bitmaps cover the same text. */
struct frame_map {
	struct method_map noframe, popped, unsaved_lr;
};

/* Marks one function's instructions (code[0..n) at start) in the bitmaps of a frame map
 * whose bits the caller allocated (method_map_words each) and zeroed. */
void frame_map_mark(uint32_t *noframe, uint32_t *popped, uint32_t *unsaved_lr, uint64_t base,
	uint64_t limit, uint64_t start, const uint32_t *code, uint64_t n);

/* One frame of a call chain: the pc running in it (the interrupted pc for the innermost
 * frame, return addresses above) and the rep of the object whose method it is, 0 outside
 * methods. */
struct attrib_frame {
	uint64_t pc;
	uint64_t object;
};

struct attrib_env {
	/* Stack memory: n aligned doublewords at addr; false if any cannot be read. */
	bool (*read_words)(void *ctx, uint64_t addr, uint64_t *words, int n);
	/* Text: n instructions at addr into insns; false if any of them cannot be read. */
	bool (*read_text)(void *ctx, uint64_t addr, uint32_t *insns, int n);
	/* Start of the function containing pc (symbols); false if unknown. */
	bool (*func_start)(void *ctx, uint64_t pc, uint64_t *start);
	void *ctx;
	const struct method_map *methods;
	const struct frame_map *frames;   /* if set, used instead of reading the code */
	int max_depth;              /* frames walked at most */
	uint64_t max_frame;         /* largest frame accepted, bytes */
	/* Call chain (optional): with chain_max > 0 the walk goes on past the first method,
	 * recording up to chain_max frames into chain, innermost first. */
	struct attrib_frame *chain;
	int chain_max;
	uint64_t chain_mark;        /* OR'd into every pc the chain keeps (the KM's user-frame bit) */
	/* The frame the walk ends at without truncation (0: none): the kernel's frame of an
	 * entry from user mode, whose back chain is the user stack pointer. */
	uint64_t stop_frame;
};

#define ATTRIB_TRUNCATED 0x04u      /* the sample flags of kernel/abi/km_abi.h */
#define ATTRIB_UNCERTAIN 0x08u
#define ATTRIB_NO_OBJECT 0x10u

struct attrib_result {
	uint64_t object;            /* the rep, 0 with ATTRIB_NO_OBJECT */
	uint16_t flags;
	uint16_t frames;            /* frames walked */
	uint16_t depth;             /* frames recorded into env->chain */
	bool at_stop;               /* the walk ended at env->stop_frame */
};

/* The object of the innermost method frame (the attribution) and, with env->chain, the call
 * chain. A walk that ends at a zero back chain or at stop_frame is whole; one cut by a bad
 * frame or the depth limit sets ATTRIB_TRUNCATED (and ATTRIB_NO_OBJECT if no method was met). */
struct attrib_result attrib_find(const struct attrib_env *env, uint64_t pc, uint64_t sp,
	uint64_t lr);

#endif

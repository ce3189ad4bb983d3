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

/* What the walk needs to know of each instruction of a program's text, one byte per
 * instruction, so that one load answers both of its questions about a pc: is it in a method
 * body, and where are the function's frame and return address while it runs there.
 *
 * NOFRAME: the function has no frame of its own (sp is its caller's frame): prologue
 * instructions up to its `stdu r1`, whole frameless functions, and the instructions after a
 * frame pop up to the `blr`. POPPED: the last kind where the return address was saved (it is
 * then in the caller's LR save slot, not in LR). UNSAVED_LR: the function has its frame but
 * has not saved LR (yet, or on this path): after the `stdu` up to the first `std r0,N(r1)` of
 * an `mflr r0`, in address order. GCC's shrink-wrapping puts a function's fast path, which
 * never saves LR, before the slow path that does; there the LR save slot still holds whatever
 * an earlier call left, and the return address is in LR. */
#define TEXT_METHOD 0x01u
#define TEXT_NOFRAME 0x02u
#define TEXT_POPPED 0x04u
#define TEXT_UNSAVED_LR 0x08u
#define TEXT_OUTSIDE 0x80u          /* text_facts() of a pc outside the map */

struct text_map {
	uint64_t base;
	uint64_t size;              /* bytes of text mapped from base (0: none) */
	const uint8_t *facts;       /* one byte per instruction from base */
	bool frames;                /* the frame bits are set (the code was read); else only METHOD */
};

static inline unsigned text_facts(const struct text_map *m, uint64_t pc)
{
	uint64_t off = pc - m->base;
	return off < m->size ? m->facts[off >> 2] : TEXT_OUTSIDE;
}

/* Bytes of facts for size bytes of text. */
uint64_t text_map_bytes(uint64_t size);
/* Marks [start, end) (clipped to the map) as method body, in facts the caller allocated
 * (text_map_bytes) and zeroed. */
void text_map_mark_method(uint8_t *facts, uint64_t base, uint64_t size, uint64_t start,
	uint64_t end);
/* Marks one function's frame facts from its code (code[0..n) at start). */
void text_map_mark_frames(uint8_t *facts, uint64_t base, uint64_t size, uint64_t start,
	const uint32_t *code, uint64_t n);

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
	const struct text_map *text;      /* its frame facts, if set, are used instead of the code */
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

/* The stack walk of common/monitor/attrib.h, as an inline function specialized by its memory read: the
 * KM's sampler passes reads that load directly (a range check, and for user memory one
 * fault-safe load), so the walk costs no calls per frame; attrib_find() passes the
 * environment's read_words callback (the host tests' synthetic stacks). One walk, two
 * builds of it. */
#ifndef KOV_ATTRIB_WALK_H
#define KOV_ATTRIB_WALK_H

#include "attrib.h"

#define ATTRIB_LR_SAVE 16
#define ATTRIB_HOME_SLOT 48   /* first parameter's doubleword in the caller's save area */

/* Reads n aligned doublewords at addr; false when any cannot be read. */
typedef bool (*attrib_read_fn)(const struct attrib_env *env, uint64_t addr, uint64_t *v, int n);

/* Whether the function at pc has its own frame at sp now: from the program's text map, or
 * from its code (the slow path, for a map without frames: common/monitor/attrib.c). */
enum frame_state {
	FRAME_OWNED,      /* its frame at sp, the return address saved in the caller's frame */
	FRAME_OWNED_LR,   /* its frame at sp, the return address still in LR (common/monitor/attrib.h) */
	FRAME_NONE_YET,   /* no frame: sp is the caller's, the return address in LR */
	FRAME_POPPED,     /* frame popped: sp is the caller's, the return address in its slot */
	FRAME_UNKNOWN, FRAME_LONG_LEAF
};
enum frame_state attrib_frame_state(const struct attrib_env *env, uint64_t pc);

/* The frame state at an instruction with these facts (text_facts), from a map with frames. */
static inline enum frame_state text_frame_state(unsigned facts)
{
	if (facts & TEXT_OUTSIDE)
		return FRAME_UNKNOWN;
	if (!(facts & TEXT_NOFRAME))
		return facts & TEXT_UNSAVED_LR ? FRAME_OWNED_LR : FRAME_OWNED;
	return facts & TEXT_POPPED ? FRAME_POPPED : FRAME_NONE_YET;
}

static inline bool attrib_read1(const struct attrib_env *env, attrib_read_fn read, uint64_t addr,
	uint64_t *v)
{
	return !(addr & 7) && read(env, addr, v, 1);
}

/* The walk of attrib_find(), with reads through `read`, from the interrupted function's frame
 * state (text_frame_state() or attrib_frame_state(), the caller's choice: a call here would
 * take env's address, and the sampler's env would then be built in memory on every sample)
 * and the facts of pc (text_facts(), which the caller has looked up already).
 * Everything the loop uses is in locals: a store into the chain could alias *env, and the
 * compiler would otherwise reload all of it after each frame. The per-frame read asks for 3
 * doublewords of which only [0] (back chain) and [2] (LR save) are used; [1] need not be
 * read. */
static inline __attribute__((always_inline)) struct attrib_result attrib_walk(
	const struct attrib_env *env, attrib_read_fn read, enum frame_state state, unsigned facts,
	uint64_t pc, uint64_t sp, uint64_t lr)
{
	/* The chain as a cursor and its end: fewer live values than a base, an index and a limit. */
	struct attrib_frame *chain = env->chain_max > 0 ? env->chain : 0;
	struct attrib_frame *const first = chain, *next = chain;
	struct attrib_frame *const end = chain ? chain + env->chain_max : 0;
	const struct text_map text = *env->text;
	const uint64_t max_frame = env->max_frame, stop = env->stop_frame, mark = env->chain_mark;
	uint64_t object = 0, frame = sp, owner = pc, v;
	unsigned flags = 0, frames = 0;
	bool found = false, at_stop = false;

	/* The return address of the interrupted function while it has its frame but has not
	 * saved LR: used for its caller's frame instead of the stale LR save slot. */
	uint64_t ra_in_lr = 0;
	switch (state) {
	case FRAME_UNKNOWN:
		flags |= ATTRIB_UNCERTAIN;
		break;
	case FRAME_OWNED:
		break;
	case FRAME_OWNED_LR:
		ra_in_lr = lr;
		break;
	case FRAME_LONG_LEAF:
		flags |= ATTRIB_UNCERTAIN;
		/* fall through */
	case FRAME_NONE_YET:
	case FRAME_POPPED:
		/* sp is the caller's frame: this function's home slot is in it. */
		v = 0;
		if (facts & TEXT_METHOD) {
			if (!attrib_read1(env, read, sp + ATTRIB_HOME_SLOT, &v))
				goto cut;
			object = v;
			found = true;
			if (!chain)
				goto out;
		}
		if (chain)
			*next++ = (struct attrib_frame){ pc | mark, v };
		/* Its return address: still in LR, or saved in the caller's frame once popped
		 * (LR may by then hold a return address inside this function). */
		if (state != FRAME_POPPED)
			owner = lr;
		else if (!attrib_read1(env, read, sp + ATTRIB_LR_SAVE, &owner))
			goto cut;
		facts = text_facts(&text, owner);
		break;
	}

	/* One read per frame: the caller's frame header (back chain, CR save, LR save). */
	uint64_t caller;
	if (!attrib_read1(env, read, frame, &caller))
		goto cut;
	int max_depth = env->max_depth;
	if (chain && max_depth < env->chain_max + 1)
		max_depth = env->chain_max + 1;
	for (int d = 0; d < max_depth; d++) {
		uint64_t head[3];
		frames++;
		if (caller == 0)
			break;
		/* (A misaligned caller fails its first read: the home slot's or its header's.) */
		if (caller <= frame || caller - frame > max_frame)
			goto cut;
		v = 0;
		if (facts & TEXT_METHOD) {   /* owner's */
			if (!attrib_read1(env, read, caller + ATTRIB_HOME_SLOT, &v))
				goto cut;
			if (!found) {
				object = v;
				found = true;
			}
			if (!chain)
				goto out;
		}
		if (chain) {
			if (next < end)
				*next++ = (struct attrib_frame){ owner | mark, v };
			else if (found)
				goto cut;      /* the chain is full and the object known */
			else
				chain = 0;     /* on for the attribution alone */
		}
		if (stop && caller == stop) {
			at_stop = true;
			break;
		}
		if (d + 1 == max_depth || !read(env, caller, head, 3))
			goto cut;
		frame = caller;
		caller = head[0];
		owner = head[2];
		if (__builtin_expect(ra_in_lr != 0, 0)) {
			owner = ra_in_lr;
			ra_in_lr = 0;
		}
		if (owner & 3)
			goto cut;      /* not a return address: a slot never written */
		facts = text_facts(&text, owner);
	}
	if (!found)
		flags |= ATTRIB_NO_OBJECT;
	goto out;
cut:
	/* The walk failed at a frame it could not read or trust. */
	flags |= ATTRIB_TRUNCATED | (found ? 0 : ATTRIB_NO_OBJECT);
out:
	return (struct attrib_result){ object, (uint16_t)flags, (uint16_t)frames,
				       (uint16_t)(first ? next - first : 0),
				       at_stop };
}

#endif

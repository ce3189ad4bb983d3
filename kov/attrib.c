/* Stack-walked object attribution (kov/attrib.h). */
#include "attrib.h"

#define LR_SAVE 16
#define HOME_SLOT 48          /* first parameter's doubleword in the caller's save area */
#define PROLOGUE_SCAN 64      /* instructions from a function's start looked at */
#define EPILOGUE_SCAN 16

#define INSN_BLR 0x4e800020u

static bool is_stdu_r1(uint32_t i)      /* stdu r1, -N(r1) */
{
	return (i & 0xffff0003u) == 0xf8210001u;
}

static bool restores_r1(uint32_t i)     /* addi r1, r1, N  or  ld r1, 0(r1) */
{
	return (i & 0xffff0000u) == 0x38210000u || i == 0xe8210000u;
}

uint64_t method_map_words(uint64_t base, uint64_t limit)
{
	return limit > base ? ((limit - base) / 4 + 31) / 32 : 0;
}

void method_map_mark(uint32_t *bits, uint64_t base, uint64_t limit, uint64_t start, uint64_t end)
{
	if (start < base)
		start = base;
	if (end > limit)
		end = limit;
	for (uint64_t a = start & ~3ull; a < end; a += 4) {
		uint64_t i = (a - base) >> 2;
		bits[i >> 5] |= 1u << (i & 31);
	}
}

enum frame_state { FRAME_OWNED, FRAME_NONE_YET, FRAME_POPPED, FRAME_UNKNOWN, FRAME_LONG_LEAF };

/* Whether the function at pc has its own frame at sp now: its instructions from the start to
 * pc (at most PROLOGUE_SCAN) are read in one piece, then up to EPILOGUE_SCAN from pc on. */
static enum frame_state frame_state(const struct attrib_env *env, uint64_t pc)
{
	uint64_t start;
	uint32_t text[PROLOGUE_SCAN > EPILOGUE_SCAN ? PROLOGUE_SCAN : EPILOGUE_SCAN];
	if (!env->func_start || !env->func_start(env->ctx, pc, &start) || start > pc || (start & 3))
		return FRAME_UNKNOWN;
	uint64_t before = (pc - start) / 4;
	int n = before < PROLOGUE_SCAN ? (int)before : PROLOGUE_SCAN;
	if (n && !env->read_text(env->ctx, start, text, n))
		return FRAME_UNKNOWN;
	bool made = false;
	for (int i = 0; i < n && !made; i++)
		made = is_stdu_r1(text[i]);
	if (!made)   /* no frame in the first PROLOGUE_SCAN instructions: most likely a leaf */
		return before > PROLOGUE_SCAN ? FRAME_LONG_LEAF : FRAME_NONE_YET;
	if (!env->read_text(env->ctx, pc, text, EPILOGUE_SCAN))
		return FRAME_OWNED;
	for (int i = 0; i < EPILOGUE_SCAN; i++) {
		if (restores_r1(text[i]))
			return FRAME_OWNED;    /* the pop is still ahead */
		if (text[i] == INSN_BLR)
			return FRAME_POPPED;
	}
	return FRAME_OWNED;
}

struct attrib_result attrib_find(const struct attrib_env *env, uint64_t pc, uint64_t sp,
	uint64_t lr)
{
	struct attrib_result r = { 0, 0, 0 };
	uint64_t frame = sp, owner = pc, v;

	enum frame_state state = frame_state(env, pc);
	switch (state) {
	case FRAME_UNKNOWN:
		r.flags |= ATTRIB_UNCERTAIN;
		break;
	case FRAME_OWNED:
		break;
	case FRAME_LONG_LEAF:
		r.flags |= ATTRIB_UNCERTAIN;
		/* fall through */
	case FRAME_NONE_YET:
	case FRAME_POPPED: {
		/* sp is the caller's frame: this function's home slot is in it. */
		if (method_map_has(env->methods, pc)) {
			if (env->read64(env->ctx, sp + HOME_SLOT, &v)) {
				r.object = v;
				return r;
			}
			r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
			return r;
		}
		/* Its return address: still in LR, or saved in the caller's frame once popped
		 * (LR may by then hold a return address inside this function). */
		if (state == FRAME_POPPED) {
			if (!env->read64(env->ctx, sp + LR_SAVE, &owner)) {
				r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
				return r;
			}
		} else {
			owner = lr;
		}
		break;
	}
	}

	for (int depth = 0; depth < env->max_depth; depth++) {
		uint64_t caller;
		r.frames++;
		if (!env->read64(env->ctx, frame, &caller) || (caller & 7)) {
			r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
			return r;
		}
		if (caller == 0)
			break;
		if (caller <= frame || caller - frame > env->max_frame) {
			r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
			return r;
		}
		if (method_map_has(env->methods, owner)) {
			if (!env->read64(env->ctx, caller + HOME_SLOT, &v)) {
				r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
				return r;
			}
			r.object = v;
			return r;
		}
		if (!env->read64(env->ctx, caller + LR_SAVE, &owner)) {
			r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
			return r;
		}
		frame = caller;
		if (depth + 1 == env->max_depth) {
			r.flags |= ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED;
			return r;
		}
	}
	r.flags |= ATTRIB_NO_OBJECT;
	return r;
}

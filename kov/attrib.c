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

void frame_map_mark(uint32_t *noframe, uint32_t *popped, uint64_t base, uint64_t limit,
	uint64_t start, const uint32_t *code, uint64_t n)
{
	uint64_t i = 0;
	while (i < n && !is_stdu_r1(code[i]))
		i++;
	/* Up to and including the stdu (at it, the frame is not made yet); all of a leaf. */
	method_map_mark(noframe, base, limit, start, start + 4 * (i < n ? i + 1 : n));
	for (; i < n; i++) {
		if (!restores_r1(code[i]))
			continue;
		uint64_t j = i + 1;
		while (j < n && j - i <= EPILOGUE_SCAN && code[j] != INSN_BLR && !restores_r1(code[j]))
			j++;
		if (j < n && code[j] == INSN_BLR) {
			method_map_mark(noframe, base, limit, start + 4 * (i + 1), start + 4 * (j + 1));
			method_map_mark(popped, base, limit, start + 4 * (i + 1), start + 4 * (j + 1));
			i = j;
		}
	}
}

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

static bool read1(const struct attrib_env *env, uint64_t addr, uint64_t *v)
{
	return !(addr & 7) && env->read_words(env->ctx, addr, v, 1);
}

/* Records a frame of the chain; false when there is no room. */
static bool keep(const struct attrib_env *env, struct attrib_result *r, uint64_t pc,
	uint64_t object)
{
	if (r->depth >= env->chain_max)
		return false;
	env->chain[r->depth++] = (struct attrib_frame){ pc, object };
	return true;
}

/* The walk failed at a frame it could not read or trust. */
static struct attrib_result cut(struct attrib_result r, bool found)
{
	r.flags |= ATTRIB_TRUNCATED | (found ? 0 : ATTRIB_NO_OBJECT);
	return r;
}

struct attrib_result attrib_find(const struct attrib_env *env, uint64_t pc, uint64_t sp,
	uint64_t lr)
{
	struct attrib_result r = { 0, 0, 0, 0, false };
	uint64_t frame = sp, owner = pc, v;
	bool chain = env->chain && env->chain_max > 0, found = false;

	enum frame_state state;
	if (!env->frames)
		state = frame_state(env, pc);
	else if (pc < env->frames->noframe.base || pc >= env->frames->noframe.limit)
		state = FRAME_UNKNOWN;
	else
		state = method_map_has(&env->frames->popped, pc) ? FRAME_POPPED :
			method_map_has(&env->frames->noframe, pc) ? FRAME_NONE_YET : FRAME_OWNED;
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
	case FRAME_POPPED:
		/* sp is the caller's frame: this function's home slot is in it. */
		v = 0;
		if (method_map_has(env->methods, pc)) {
			if (!read1(env, sp + HOME_SLOT, &v))
				return cut(r, false);
			r.object = v;
			found = true;
			if (!chain)
				return r;
		}
		if (chain)
			keep(env, &r, pc, v);
		/* Its return address: still in LR, or saved in the caller's frame once popped
		 * (LR may by then hold a return address inside this function). */
		if (state != FRAME_POPPED)
			owner = lr;
		else if (!read1(env, sp + LR_SAVE, &owner))
			return cut(r, found);
		break;
	}

	/* One read per frame: the caller's frame header (back chain, CR save, LR save). */
	uint64_t caller;
	if (!read1(env, frame, &caller))
		return cut(r, found);
	int max_depth = env->max_depth;
	if (chain && max_depth < env->chain_max + 1)
		max_depth = env->chain_max + 1;
	for (int depth = 0; depth < max_depth; depth++) {
		uint64_t head[3];
		r.frames++;
		if (caller == 0)
			break;
		if (caller <= frame || caller - frame > env->max_frame || (caller & 7))
			return cut(r, found);
		v = 0;
		if (method_map_has(env->methods, owner)) {
			if (!read1(env, caller + HOME_SLOT, &v))
				return cut(r, found);
			if (!found) {
				r.object = v;
				found = true;
			}
			if (!chain)
				return r;
		}
		if (chain && !keep(env, &r, owner, v)) {
			if (found)
				return cut(r, found);   /* the chain is full and the object known */
			chain = false;                 /* on for the attribution alone */
		}
		if (env->stop_frame && caller == env->stop_frame) {
			r.at_stop = true;
			break;
		}
		if (depth + 1 == max_depth || !env->read_words(env->ctx, caller, head, 3))
			return cut(r, found);
		frame = caller;
		caller = head[0];
		owner = head[2];
	}
	if (!found)
		r.flags |= ATTRIB_NO_OBJECT;
	return r;
}

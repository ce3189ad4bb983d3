/* Stack-walked object attribution (common/monitor/attrib.h). */
#include "attrib_walk.h"

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

#define INSN_MFLR_R0 0x7c0802a6u

static bool saves_r0(uint32_t i)        /* std r0, N(r1) */
{
	return (i & 0xffff0003u) == 0xf8010000u;
}

/* The index of the instruction that saves LR (the first std r0,N(r1) after an mflr r0), n
 * when there is none. */
static uint64_t lr_save_at(const uint32_t *code, uint64_t n)
{
	bool in_r0 = false;
	for (uint64_t i = 0; i < n; i++) {
		if (code[i] == INSN_MFLR_R0)
			in_r0 = true;
		else if (in_r0 && saves_r0(code[i]))
			return i;
	}
	return n;
}

uint64_t text_map_bytes(uint64_t size)
{
	return size / 4;
}

/* Sets `fact` on the instructions of [start, end) inside the map. */
static void mark(uint8_t *facts, uint64_t base, uint64_t size, uint64_t start, uint64_t end,
	unsigned fact)
{
	if (start < base)
		start = base;
	if (end > base + size)
		end = base + size;
	for (uint64_t a = start & ~3ull; a < end; a += 4)
		facts[(a - base) >> 2] |= (uint8_t)fact;
}

void text_map_mark_method(uint8_t *facts, uint64_t base, uint64_t size, uint64_t start,
	uint64_t end)
{
	mark(facts, base, size, start, end, TEXT_METHOD);
}

void text_map_mark_frames(uint8_t *facts, uint64_t base, uint64_t size, uint64_t start,
	const uint32_t *code, uint64_t n)
{
	uint64_t i = 0;
	while (i < n && !is_stdu_r1(code[i]))
		i++;
	/* Up to and including the stdu (at it, the frame is not made yet); all of a leaf. */
	mark(facts, base, size, start, start + 4 * (i < n ? i + 1 : n), TEXT_NOFRAME);
	/* From after the stdu to the LR save (at it, LR is not saved yet). */
	uint64_t saved = lr_save_at(code, n);
	if (i < n && saved > i)
		mark(facts, base, size, start + 4 * (i + 1), start + 4 * (saved < n ? saved + 1 : n),
		     TEXT_UNSAVED_LR);
	for (; i < n; i++) {
		if (!restores_r1(code[i]))
			continue;
		uint64_t j = i + 1;
		while (j < n && j - i <= EPILOGUE_SCAN && code[j] != INSN_BLR && !restores_r1(code[j]))
			j++;
		if (j < n && code[j] == INSN_BLR) {
			uint64_t from = start + 4 * (i + 1), to = start + 4 * (j + 1);
			/* A pop on a path that never saved LR leaves the return address in LR. */
			mark(facts, base, size, from, to,
			     TEXT_NOFRAME | (i > saved ? TEXT_POPPED : 0));
			i = j;
		}
	}
}

/* Its instructions from the start to pc (at most PROLOGUE_SCAN) are read in one piece, then up
 * to EPILOGUE_SCAN from pc on. */
enum frame_state attrib_frame_state(const struct attrib_env *env, uint64_t pc)
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
	/* The LR save, in address order before pc (within the scan). */
	bool saved = lr_save_at(text, (uint64_t)n) < (uint64_t)n;
	enum frame_state owned = saved ? FRAME_OWNED : FRAME_OWNED_LR;
	if (!env->read_text(env->ctx, pc, text, EPILOGUE_SCAN))
		return owned;
	for (int i = 0; i < EPILOGUE_SCAN; i++) {
		if (restores_r1(text[i]))
			return owned;    /* the pop is still ahead */
		if (text[i] == INSN_BLR)
			return saved ? FRAME_POPPED : FRAME_NONE_YET;
	}
	return owned;
}

/* The walk with the environment's own read callback. */
static bool read_through_callback(const struct attrib_env *env, uint64_t addr, uint64_t *v, int n)
{
	return env->read_words(env->ctx, addr, v, n);
}

struct attrib_result attrib_find(const struct attrib_env *env, uint64_t pc, uint64_t sp,
	uint64_t lr)
{
	unsigned facts = text_facts(env->text, pc);
	enum frame_state state = env->text->frames ? text_frame_state(facts) :
						     attrib_frame_state(env, pc);
	return attrib_walk(env, read_through_callback, state, facts, pc, sp, lr);
}

/* Stack-walked object attribution (common/monitor/attrib.c) on synthetic stacks and text: a method's own
 * frame, a helper called from a method, leaf methods, prologues and popped epilogues, nested
 * methods (innermost wins), no method at all, depth limits, and corrupt chains (bad pointers,
 * loops, downward links, unreadable memory) that must end the walk without a fault. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/attrib.h"

/* Fake memory: a stack of 64 KiB at STACK and text of 4 functions of 64 instructions. */
#define STACK 0x100000ull
#define STACK_SIZE 0x10000ull
#define TEXT 0x200000ull
#define FN_INSNS 64
#define FN(k) (TEXT + (uint64_t)(k) * FN_INSNS * 4)
enum { HELPER, METHOD_A, METHOD_B, LEAF_METHOD, SHRINK_WRAPPED, NFN };

static uint64_t stack[STACK_SIZE / 8];
static uint32_t text[NFN * FN_INSNS];
static uint8_t facts[NFN * FN_INSNS];
static struct text_map map;   /* methods only: frames are read from the code */
static int reads;

static bool read_words(void *ctx, uint64_t a, uint64_t *v, int n)
{
	(void)ctx;
	reads++;
	if (a < STACK || a + 8 * (uint64_t)n > STACK + STACK_SIZE || (a & 7))
		return false;
	memcpy(v, &stack[(a - STACK) / 8], 8 * (size_t)n);
	return true;
}

static bool read_text(void *ctx, uint64_t a, uint32_t *v, int n)
{
	(void)ctx;
	if (a < TEXT || a + 4 * (uint64_t)n > TEXT + sizeof text || (a & 3))
		return false;
	memcpy(v, &text[(a - TEXT) / 4], 4 * (size_t)n);
	return true;
}

static bool func_start(void *ctx, uint64_t pc, uint64_t *start)
{
	(void)ctx;
	if (pc < TEXT || pc >= TEXT + sizeof text)
		return false;
	*start = TEXT + (pc - TEXT) / (FN_INSNS * 4) * (FN_INSNS * 4);
	return true;
}

static struct attrib_env env = {
	.read_words = read_words, .read_text = read_text, .func_start = func_start, .text = &map,
	.max_depth = 16, .max_frame = 8192,
};

static void put(uint64_t a, uint64_t v) { stack[(a - STACK) / 8] = v; }

/* A GCC-like function: mflr, std r0, stdu r1,-128(r1), body (nops), addi r1,r1,128, ld r0,
 * mtlr, blr. The leaf has no frame at all. The shrink-wrapped helper (as GCC makes
 * sleep_unlock) makes its frame, and its fast path returns without ever saving LR; its slow
 * path saves LR after the fast path's blr. */
static void make_text(void)
{
	for (int k = 0; k < NFN; k++) {
		uint32_t *f = &text[k * FN_INSNS];
		for (int i = 0; i < FN_INSNS; i++)
			f[i] = 0x60000000u;                 /* nop */
		if (k == LEAF_METHOD) {
			f[10] = 0x4e800020u;                /* blr */
			continue;
		}
		if (k == SHRINK_WRAPPED) {
			f[2] = 0xf821ff81u;                 /* stdu r1,-128(r1) */
			f[10] = 0x38210080u;                /* addi r1,r1,128 */
			f[11] = 0x4e800020u;                /* blr */
			f[12] = 0x7c0802a6u;                /* mflr r0 */
			f[13] = 0xf8010090u;                /* std r0,144(r1) */
			f[40] = 0x38210080u;                /* addi r1,r1,128 */
			f[41] = 0xe8010010u;                /* ld r0,16(r1) */
			f[42] = 0x7c0803a6u;                /* mtlr r0 */
			f[43] = 0x4e800020u;                /* blr */
			continue;
		}
		f[0] = 0x7c0802a6u;                         /* mflr r0 */
		f[1] = 0xf8010010u;                         /* std r0,16(r1) */
		f[2] = 0xf821ff81u;                         /* stdu r1,-128(r1) */
		f[40] = 0x38210080u;                        /* addi r1,r1,128 */
		f[41] = 0xe8010010u;                        /* ld r0,16(r1) */
		f[42] = 0x7c0803a6u;                        /* mtlr r0 */
		f[43] = 0x4e800020u;                        /* blr */
	}
}

static int setup(void **state)
{
	(void)state;
	make_text();
	map = (struct text_map){ TEXT, sizeof text, facts, false };
	assert_int_equal(text_map_bytes(sizeof text), sizeof facts);
	for (int k = METHOD_A; k <= LEAF_METHOD; k++)
		text_map_mark_method(facts, TEXT, sizeof text, FN(k), FN(k) + FN_INSNS * 4);
	return 0;
}

/* Frames: F0 (innermost, at STACK+0x100), F1, F2, ... each 0x100 apart, chain ending in 0. */
#define FRAME(n) (STACK + 0x100 + (uint64_t)(n) * 0x100)
static void chain(int frames)
{
	memset(stack, 0, sizeof stack);
	for (int n = 0; n < frames; n++)
		put(FRAME(n), n + 1 < frames ? FRAME(n + 1) : 0);
}

static void test_method_facts(void **state)
{
	(void)state;
	assert_false(text_facts(&map, FN(HELPER) + 8) & TEXT_METHOD);
	assert_true(text_facts(&map, FN(METHOD_A)) & TEXT_METHOD);
	assert_true(text_facts(&map, FN(LEAF_METHOD) + FN_INSNS * 4 - 4) & TEXT_METHOD);
	assert_int_equal(text_facts(&map, TEXT - 4), TEXT_OUTSIDE);
	assert_int_equal(text_facts(&map, TEXT + map.size), TEXT_OUTSIDE);
	/* Clipped to the map. */
	uint8_t few[4] = { 0 };
	text_map_mark_method(few, TEXT + 4, 8, TEXT, TEXT + 64);
	assert_memory_equal(few, ((uint8_t[4]){ TEXT_METHOD, TEXT_METHOD, 0, 0 }), 4);
}

/* Inside method A's body with its frame F0: the rep is in F1's home slot. */
static void test_in_method_body(void **state)
{
	(void)state;
	chain(3);
	put(FRAME(1) + 48, 0xA0A0);
	struct attrib_result r = attrib_find(&env, FN(METHOD_A) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.object, 0xA0A0);
	assert_int_equal(r.flags, 0);
}

/* In a helper (e.g. spin_lock) called from method B: the walk goes one frame up. */
static void test_helper_called_from_method(void **state)
{
	(void)state;
	chain(4);
	put(FRAME(1) + 16, FN(METHOD_B) + 4 * 30);   /* helper's return address into B */
	put(FRAME(2) + 48, 0xB0B0);
	struct attrib_result r = attrib_find(&env, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.object, 0xB0B0);
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.frames, 2);
}

/* Method A calls method B which calls the helper: B, the innermost, wins. */
static void test_innermost_method_wins(void **state)
{
	(void)state;
	chain(5);
	put(FRAME(1) + 16, FN(METHOD_B) + 4 * 30);
	put(FRAME(2) + 48, 0xB0B0);
	put(FRAME(2) + 16, FN(METHOD_A) + 4 * 30);
	put(FRAME(3) + 48, 0xA0A0);
	assert_int_equal(attrib_find(&env, FN(HELPER) + 4 * 20, FRAME(0), 0).object, 0xB0B0);
}

/* A leaf method (no frame): its rep is in the home slot of the frame at sp. */
static void test_leaf_method(void **state)
{
	(void)state;
	chain(2);
	put(FRAME(0) + 48, 0x1EAF);
	struct attrib_result r = attrib_find(&env, FN(LEAF_METHOD) + 4 * 5, FRAME(0), 0x999);
	assert_int_equal(r.object, 0x1EAF);
	assert_int_equal(r.flags, 0);
}

/* Method A interrupted in its prologue (before stdu) and after the pop in its epilogue:
 * sp is still (or again) its caller's frame, so the home slot at sp+48 is A's. */
static void test_prologue_and_epilogue(void **state)
{
	(void)state;
	chain(3);
	put(FRAME(0) + 48, 0xA0A0);
	put(FRAME(1) + 48, 0xBAD);
	assert_int_equal(attrib_find(&env, FN(METHOD_A) + 4, FRAME(0), 0).object, 0xA0A0);
	assert_int_equal(attrib_find(&env, FN(METHOD_A) + 4 * 41, FRAME(0), 0).object, 0xA0A0);
	assert_int_equal(attrib_find(&env, FN(METHOD_A) + 4 * 43, FRAME(0), 0).object, 0xA0A0);
	/* On the addi itself the frame is still A's own. */
	chain(3);
	put(FRAME(1) + 48, 0xA0A0);
	assert_int_equal(attrib_find(&env, FN(METHOD_A) + 4 * 40, FRAME(0), 0).object, 0xA0A0);
}

/* A helper in its prologue, called from method B: its return address is LR; in its epilogue
 * after the pop it is the saved one (LR may point anywhere by then). */
static void test_helper_prologue_epilogue(void **state)
{
	(void)state;
	chain(3);
	put(FRAME(1) + 48, 0xB0B0);   /* B owns F0: its home slot is in F1 */
	assert_int_equal(attrib_find(&env, FN(HELPER) + 4, FRAME(0), FN(METHOD_B) + 4 * 30).object,
			 0xB0B0);
	put(FRAME(0) + 16, FN(METHOD_B) + 4 * 30);
	struct attrib_result r = attrib_find(&env, FN(HELPER) + 4 * 42, FRAME(0), FN(HELPER) + 8);
	assert_int_equal(r.object, 0xB0B0);
	assert_int_equal(r.flags, 0);
}

static void test_no_method_on_stack(void **state)
{
	(void)state;
	chain(4);
	for (int n = 0; n < 4; n++)
		put(FRAME(n) + 16, FN(HELPER) + 4 * 30);
	struct attrib_result r = attrib_find(&env, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.object, 0);
	assert_int_equal(r.flags, ATTRIB_NO_OBJECT);
}

/* Deeper than max_depth: truncated. */
static void test_depth_limit(void **state)
{
	(void)state;
	chain(40);
	for (int n = 0; n < 40; n++)
		put(FRAME(n) + 16, FN(HELPER) + 4 * 30);
	put(FRAME(30) + 16, FN(METHOD_A) + 4 * 30);
	put(FRAME(31) + 48, 0xA0A0);
	reads = 0;
	struct attrib_result r = attrib_find(&env, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.flags, ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED);
	assert_int_equal(r.frames, 16);
	assert_true(reads <= 16 + 2);   /* one read per frame */
	env.max_depth = 64;
	assert_int_equal(attrib_find(&env, FN(HELPER) + 4 * 20, FRAME(0), 0).object, 0xA0A0);
	env.max_depth = 16;
}

/* Corrupt chains end the walk: a pointer outside the stack, a loop, a link downwards, a
 * misaligned link, a huge frame, a PC outside the text. */
static void test_corrupt_chains(void **state)
{
	(void)state;
	uint64_t bad_links[] = { 0xdeadbeef00ull, FRAME(0), STACK + 0x10, FRAME(1) + 3,
				 STACK + STACK_SIZE - 8 };
	for (size_t k = 0; k < sizeof bad_links / sizeof *bad_links; k++) {
		chain(3);
		put(FRAME(1), bad_links[k]);
		put(FRAME(1) + 16, FN(HELPER));
		struct attrib_result r = attrib_find(&env, FN(HELPER) + 4 * 20, FRAME(0), 0);
		assert_int_equal(r.object, 0);
		assert_true(r.flags & ATTRIB_NO_OBJECT);
		if (k != 4)
			assert_true(r.flags & ATTRIB_TRUNCATED);
	}
	/* sp itself unreadable. */
	struct attrib_result r = attrib_find(&env, FN(HELPER) + 4 * 20, 0x10, 0);
	assert_int_equal(r.flags, ATTRIB_NO_OBJECT | ATTRIB_TRUNCATED);
	/* A PC nobody knows: walked anyway, marked uncertain. */
	chain(3);
	put(FRAME(1) + 16, FN(METHOD_A) + 4 * 30);
	put(FRAME(2) + 48, 0xA0A0);
	r = attrib_find(&env, 0x7000, FRAME(0), 0);
	assert_int_equal(r.object, 0xA0A0);
	assert_int_equal(r.flags, ATTRIB_UNCERTAIN);
	/* Random garbage stacks: never more reads than the depth allows, never a crash. */
	uint64_t x = 88172645463325252ull;
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < STACK_SIZE / 8; i += 1 + (size_t)(x % 7)) {
			x ^= x << 13; x ^= x >> 7; x ^= x << 17;
			stack[i] = (x & 1) ? STACK + (x % STACK_SIZE) : x;
		}
		reads = 0;
		attrib_find(&env, TEXT + 4 * (x % (NFN * FN_INSNS)), STACK + 8 * (x % 4096), x);
		assert_true(reads <= 2 * 16 + 2);
	}
}

/* The frame facts worked out from the same code give the same attribution as reading it, for
 * a pc at every instruction of every function up to its return, without reading any code. */
static uint8_t ffacts[NFN * FN_INSNS];
static struct text_map fmap;

static bool no_text(void *ctx, uint64_t a, uint32_t *v, int n)
{
	(void)ctx, (void)a, (void)v, (void)n;
	fail_msg("the frame facts path read code");
	return false;
}

static bool has(uint64_t pc, unsigned fact)
{
	return text_facts(&fmap, pc) & fact;
}

static void test_frame_map(void **state)
{
	(void)state;
	memcpy(ffacts, facts, sizeof ffacts);   /* the methods */
	for (int k = 0; k < NFN; k++)
		text_map_mark_frames(ffacts, TEXT, sizeof text, FN(k), &text[k * FN_INSNS], FN_INSNS);
	fmap = (struct text_map){ TEXT, sizeof text, ffacts, true };
	/* The shrink-wrapped helper: LR unsaved from after its stdu through the std (slow path
	 * included up to it); its fast path's pop leaves the return address in LR (not popped). */
	assert_false(has(FN(SHRINK_WRAPPED) + 4 * 2, TEXT_UNSAVED_LR));
	assert_true(has(FN(SHRINK_WRAPPED) + 4 * 3, TEXT_UNSAVED_LR));
	assert_true(has(FN(SHRINK_WRAPPED) + 4 * 13, TEXT_UNSAVED_LR));
	assert_false(has(FN(SHRINK_WRAPPED) + 4 * 14, TEXT_UNSAVED_LR));
	assert_true(has(FN(SHRINK_WRAPPED) + 4 * 11, TEXT_NOFRAME));
	assert_false(has(FN(SHRINK_WRAPPED) + 4 * 11, TEXT_POPPED));
	assert_true(has(FN(SHRINK_WRAPPED) + 4 * 41, TEXT_POPPED));
	assert_false(has(FN(METHOD_A) + 4 * 20, TEXT_UNSAVED_LR));
	assert_true(has(FN(METHOD_A) + 4, TEXT_NOFRAME));
	assert_false(has(FN(METHOD_A) + 12, TEXT_NOFRAME));
	assert_true(has(FN(METHOD_A) + 4 * 41, TEXT_POPPED));
	assert_true(has(FN(METHOD_A) + 4 * 43, TEXT_POPPED));
	assert_false(has(FN(METHOD_A) + 4 * 40, TEXT_POPPED));
	assert_true(has(FN(LEAF_METHOD) + 4 * 30, TEXT_NOFRAME));
	/* The method facts are kept beside the frame facts. */
	assert_true(has(FN(METHOD_A) + 4 * 41, TEXT_METHOD));
	assert_false(has(FN(HELPER) + 4 * 41, TEXT_METHOD));
	chain(4);
	put(FRAME(0) + 48, 0x1111);
	put(FRAME(0) + 16, FN(METHOD_B) + 4 * 30);
	put(FRAME(1) + 48, 0x2222);
	put(FRAME(1) + 16, FN(METHOD_A) + 4 * 30);
	put(FRAME(2) + 48, 0x3333);
	/* (Past a function's last blr the code reader may look into the next function; the map
	 * stays inside it. Compared up to the blr.) */
	for (int k = 0; k < NFN; k++)
		for (int i = 0; i <= 43; i++) {
			uint64_t pc = FN(k) + 4 * (uint64_t)i;
			struct attrib_env e = env;
			struct attrib_result a = attrib_find(&e, pc, FRAME(0), FN(METHOD_B) + 4 * 30);
			e.text = &fmap;
			e.read_text = no_text;
			struct attrib_result b = attrib_find(&e, pc, FRAME(0), FN(METHOD_B) + 4 * 30);
			assert_int_equal(a.object, b.object);
			assert_int_equal(a.flags, b.flags);
		}
}


/* Call chains: a helper called by B, called by A, called by a helper, in frames F0..F3. */
static void chained_stack(void)
{
	chain(5);
	put(FRAME(1) + 16, FN(METHOD_B) + 4 * 30);
	put(FRAME(2) + 48, 0xB0B0);
	put(FRAME(2) + 16, FN(METHOD_A) + 4 * 30);
	put(FRAME(3) + 48, 0xA0A0);
	put(FRAME(3) + 16, FN(HELPER) + 4 * 32);
}

static void expect_frame(const struct attrib_frame *f, uint64_t pc, uint64_t object)
{
	assert_int_equal(f->pc, pc);
	assert_int_equal(f->object, object);
}

/* The shrink-wrapped helper called from method B, interrupted on its fast path (its frame
 * made, LR never saved): B's return address is LR; the caller's LR save slot holds what an
 * earlier call left there, which the walk must not take for a return address. Through the
 * code and through the frame map alike, with the chain. */
static void test_shrink_wrapped_fast_path(void **state)
{
	(void)state;
	uint64_t ra = FN(METHOD_B) + 4 * 30;
	for (int mapped = 0; mapped < 2; mapped++) {
		if (mapped)
			test_frame_map(state);   /* builds fmap */
		for (int i = 3; i <= 11; i++) {
			chain(4);
			put(FRAME(1) + 16, FN(METHOD_A) + 4 * 30);   /* stale: not who called */
			put(FRAME(1) + 48, 0xBAD);
			put(FRAME(2) + 48, 0xB0B0);   /* B owns F1: its home slot is in F2 */
			struct attrib_frame frames[4];
			struct attrib_env e = env;
			e.chain = frames;
			e.chain_max = 4;
			if (mapped) {
				e.text = &fmap;
				e.read_text = no_text;
			}
			uint64_t pc = FN(SHRINK_WRAPPED) + 4 * (uint64_t)i;
			/* At 11 the fast path has popped its frame: sp is B's frame again. */
			struct attrib_result r = attrib_find(&e, pc, i == 11 ? FRAME(1) : FRAME(0), ra);
			assert_true(r.depth >= 2);
			expect_frame(&frames[0], pc, 0);
			assert_int_equal(frames[1].pc, ra);
			assert_int_equal(frames[1].object, 0xB0B0);
			assert_int_equal(r.object, 0xB0B0);
		}
	}
}

static void test_chain_whole(void **state)
{
	(void)state;
	struct attrib_frame frames[32];
	struct attrib_env e = env;
	e.chain = frames;
	e.chain_max = 32;
	chained_stack();
	struct attrib_result r = attrib_find(&e, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.object, 0xB0B0);   /* the attribution is still the innermost method */
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.depth, 4);
	expect_frame(&frames[0], FN(HELPER) + 4 * 20, 0);
	expect_frame(&frames[1], FN(METHOD_B) + 4 * 30, 0xB0B0);
	expect_frame(&frames[2], FN(METHOD_A) + 4 * 30, 0xA0A0);
	expect_frame(&frames[3], FN(HELPER) + 4 * 32, 0);
	assert_false(r.at_stop);
}

/* The walk ends without truncation at the stop frame (a kernel entry from user mode). */
static void test_chain_stop_frame(void **state)
{
	(void)state;
	struct attrib_frame frames[32];
	struct attrib_env e = env;
	e.chain = frames;
	e.chain_max = 32;
	e.stop_frame = FRAME(3);
	chained_stack();
	struct attrib_result r = attrib_find(&e, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_true(r.at_stop);
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.depth, 3);
	expect_frame(&frames[2], FN(METHOD_A) + 4 * 30, 0xA0A0);
}

/* A chain longer than asked for is cut and flagged; the attribution is unchanged. */
static void test_chain_full(void **state)
{
	(void)state;
	struct attrib_frame frames[2];
	struct attrib_env e = env;
	e.chain = frames;
	e.chain_max = 2;
	chained_stack();
	struct attrib_result r = attrib_find(&e, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.object, 0xB0B0);
	assert_int_equal(r.flags, ATTRIB_TRUNCATED);
	assert_int_equal(r.depth, 2);
	/* One frame only: the method is past it, so the walk goes on for the attribution. */
	e.chain_max = 1;
	r = attrib_find(&e, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.object, 0xB0B0);
	assert_int_equal(r.depth, 1);
	assert_int_equal(r.flags, ATTRIB_TRUNCATED);
}

/* A frameless leaf method: its own frame first (its rep from sp's home slot), then its caller
 * from LR. */
static void test_chain_leaf(void **state)
{
	(void)state;
	struct attrib_frame frames[32];
	struct attrib_env e = env;
	e.chain = frames;
	e.chain_max = 32;
	chain(3);
	put(FRAME(0) + 48, 0x1EAF);
	put(FRAME(1) + 48, 0xA0A0);
	put(FRAME(1) + 16, FN(HELPER) + 4 * 30);
	struct attrib_result r = attrib_find(&e, FN(LEAF_METHOD) + 4 * 5, FRAME(0),
					     FN(METHOD_A) + 4 * 30);
	assert_int_equal(r.object, 0x1EAF);
	assert_int_equal(r.flags, 0);
	assert_int_equal(r.depth, 3);
	expect_frame(&frames[0], FN(LEAF_METHOD) + 4 * 5, 0x1EAF);
	expect_frame(&frames[1], FN(METHOD_A) + 4 * 30, 0xA0A0);
	expect_frame(&frames[2], FN(HELPER) + 4 * 30, 0);
}

/* A chain that loops back down ends truncated with what was walked, never beyond 32. */
static void test_chain_corrupt(void **state)
{
	(void)state;
	struct attrib_frame frames[32];
	struct attrib_env e = env;
	e.chain = frames;
	e.chain_max = 32;
	chained_stack();
	put(FRAME(2), FRAME(1));   /* F2's back chain points down */
	struct attrib_result r = attrib_find(&e, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.flags, ATTRIB_TRUNCATED);
	assert_int_equal(r.object, 0xB0B0);
	assert_int_equal(r.depth, 2);
	put(FRAME(0), STACK + STACK_SIZE + 64);   /* unreadable at once */
	r = attrib_find(&e, FN(HELPER) + 4 * 20, FRAME(0), 0);
	assert_int_equal(r.flags, ATTRIB_TRUNCATED | ATTRIB_NO_OBJECT);
	assert_int_equal(r.depth, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_method_facts),
		cmocka_unit_test(test_in_method_body),
		cmocka_unit_test(test_helper_called_from_method),
		cmocka_unit_test(test_innermost_method_wins),
		cmocka_unit_test(test_leaf_method),
		cmocka_unit_test(test_prologue_and_epilogue),
		cmocka_unit_test(test_helper_prologue_epilogue),
		cmocka_unit_test(test_no_method_on_stack),
		cmocka_unit_test(test_depth_limit),
		cmocka_unit_test(test_corrupt_chains),
		cmocka_unit_test(test_frame_map),
		cmocka_unit_test(test_shrink_wrapped_fast_path),
		cmocka_unit_test(test_chain_whole),
		cmocka_unit_test(test_chain_stop_frame),
		cmocka_unit_test(test_chain_full),
		cmocka_unit_test(test_chain_leaf),
		cmocka_unit_test(test_chain_corrupt),
	};
	return cmocka_run_group_tests(tests, setup, NULL);
}

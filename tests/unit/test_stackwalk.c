/* Back-chain walker on synthetic stacks: a good chain, a truncated walk, and corrupted chains
 * (loops, downward links, misalignment, links leaving the readable range). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "kernel/lib/stackwalk.h"

/* A fake stack: 64 KiB of doublewords at a made-up base address. */
#define BASE 0xC000000000100000ull
#define WORDS 8192
static uint64_t mem[WORDS];
static int reads;

static bool read_fake(void *ctx, uint64_t addr, uint64_t *value)
{
	(void)ctx;
	reads++;
	if (addr < BASE || addr + 8 > BASE + sizeof mem || (addr & 7))
		return false;
	*value = mem[(addr - BASE) / 8];
	return true;
}

static void put(uint64_t addr, uint64_t v)
{
	mem[(addr - BASE) / 8] = v;
}

/* Builds frames at the given addresses (innermost first); frame i's LR save slot (which holds
 * the return address into frame i's owner, saved by its callee) gets 0x1000 + i. */
static void build_chain(const uint64_t *frames, int n)
{
	for (int i = 0; i < WORDS; i++)
		mem[i] = 0;
	for (int i = 0; i < n; i++) {
		put(frames[i], i + 1 < n ? frames[i + 1] : 0);
		put(frames[i] + STACK_LR_SAVE, 0x1000 + (uint64_t)i);
	}
}

static struct stack_walk walker(uint64_t sp)
{
	return (struct stack_walk){ .sp = sp, .read = read_fake, .ctx = NULL, .max_frame = 4096 };
}

static void test_good_chain(void **state)
{
	(void)state;
	uint64_t f[] = { BASE + 0x100, BASE + 0x200, BASE + 0x400, BASE + 0x1000 };
	build_chain(f, 4);
	uint64_t pcs[8];
	enum walk_end end;
	struct stack_walk w = walker(f[0]);
	int n = stack_walk(&w, pcs, 8, &end);
	/* Frame 0's return address lives in frame 1's LR slot, and so on; the outermost frame
	 * (back chain 0) contributes none. */
	assert_int_equal(n, 3);
	assert_int_equal(pcs[0], 0x1001);
	assert_int_equal(pcs[1], 0x1002);
	assert_int_equal(pcs[2], 0x1003);
	assert_int_equal(end, WALK_END_CHAIN);
}

static void test_truncated(void **state)
{
	(void)state;
	uint64_t f[] = { BASE + 0x100, BASE + 0x200, BASE + 0x300, BASE + 0x400, BASE + 0x500 };
	build_chain(f, 5);
	uint64_t pcs[2];
	enum walk_end end;
	struct stack_walk w = walker(f[0]);
	assert_int_equal(stack_walk(&w, pcs, 2, &end), 2);
	assert_int_equal(end, WALK_END_TRUNCATED);
	assert_int_equal(pcs[1], 0x1002);
}

static void test_loop_is_bad(void **state)
{
	(void)state;
	uint64_t f[] = { BASE + 0x100, BASE + 0x200 };
	build_chain(f, 2);
	put(f[1], f[0]);   /* points back down: a cycle */
	uint64_t pcs[16];
	enum walk_end end;
	struct stack_walk w = walker(f[0]);
	assert_int_equal(stack_walk(&w, pcs, 16, &end), 1);
	assert_int_equal(end, WALK_END_BAD);
}

static void test_self_link_is_bad(void **state)
{
	(void)state;
	uint64_t sp = BASE + 0x100;
	build_chain(&sp, 1);
	put(sp, sp);
	uint64_t pcs[4];
	enum walk_end end;
	struct stack_walk w = walker(sp);
	assert_int_equal(stack_walk(&w, pcs, 4, &end), 0);
	assert_int_equal(end, WALK_END_BAD);
}

static void test_misaligned_and_outside(void **state)
{
	(void)state;
	uint64_t pcs[4];
	enum walk_end end;
	struct stack_walk w = walker(BASE + 0x108);         /* not 16-byte aligned */
	assert_int_equal(stack_walk(&w, pcs, 4, &end), 0);
	assert_int_equal(end, WALK_END_BAD);

	uint64_t f[] = { BASE + 0x100, BASE + 0x200 };
	build_chain(f, 2);
	put(f[1], 0xdead000000000000ull);                    /* leaves the stack */
	w = walker(f[0]);
	reads = 0;
	assert_int_equal(stack_walk(&w, pcs, 4, &end), 1);
	assert_int_equal(end, WALK_END_BAD);
	assert_true(reads < 10);

	w = walker(0x10);                                    /* unreadable start */
	assert_int_equal(stack_walk(&w, pcs, 4, &end), 0);
	assert_int_equal(end, WALK_END_BAD);
}

static void test_frame_too_large(void **state)
{
	(void)state;
	uint64_t f[] = { BASE + 0x100, BASE + 0x100 + 0x2000 };   /* 8 KiB frame > max 4 KiB */
	build_chain(f, 2);
	uint64_t pcs[4];
	enum walk_end end;
	struct stack_walk w = walker(f[0]);
	assert_int_equal(stack_walk(&w, pcs, 4, &end), 0);
	assert_int_equal(end, WALK_END_BAD);
}

/* A real stack: walk this process's own back chain? Not on x86; the walker is ABI-specific,
 * so the real-stack check is the QEMU panic test, which symbolizes a live trace. */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good_chain),
		cmocka_unit_test(test_truncated),
		cmocka_unit_test(test_loop_is_bad),
		cmocka_unit_test(test_self_link_is_bad),
		cmocka_unit_test(test_misaligned_and_outside),
		cmocka_unit_test(test_frame_too_large),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

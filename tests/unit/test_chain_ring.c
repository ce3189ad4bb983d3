/* Per-CPU call-chain rings (common/monitor/chain_ring.c): chains read back whole, a chain overwritten
 * before the reader came (or being overwritten) is reported lost, sequence numbers wrap, and
 * bad set-ups and reads are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "common/monitor/chain_ring.h"

#define CAP 4
#define WIDTH 3
static struct attrib_frame storage[CAP * WIDTH];

static uint32_t push(struct chain_ring *r, uint64_t tag)
{
	uint32_t seq;
	struct attrib_frame *f = chain_ring_claim(r, &seq);
	for (int i = 0; i < WIDTH; i++)
		f[i] = (struct attrib_frame){ tag * 16 + (uint64_t)i, tag };
	return seq;
}

static void test_read_back(void **state)
{
	(void)state;
	struct chain_ring r;
	assert_int_equal(chain_ring_init(&r, storage, CAP, WIDTH), 0);
	uint32_t a = push(&r, 1), b = push(&r, 2);
	struct attrib_frame out[WIDTH];
	assert_true(chain_ring_read(&r, b, WIDTH, out));
	assert_int_equal(out[2].pc, 2 * 16 + 2);
	assert_true(chain_ring_read(&r, a, 2, out));
	assert_int_equal(out[1].pc, 1 * 16 + 1);
	assert_int_equal(out[1].object, 1);
	assert_false(chain_ring_read(&r, b + 1, 1, out));   /* not claimed yet */
	assert_false(chain_ring_read(&r, a, WIDTH + 1, out));
}

static void test_overwritten(void **state)
{
	(void)state;
	struct chain_ring r;
	chain_ring_init(&r, storage, CAP, WIDTH);
	uint32_t first = push(&r, 1);
	for (int i = 0; i < CAP - 1; i++)
		push(&r, 10 + (uint64_t)i);
	struct attrib_frame out[WIDTH];
	assert_true(chain_ring_read(&r, first, WIDTH, out));   /* the ring is just full */
	uint32_t seq;
	chain_ring_claim(&r, &seq);   /* being overwritten now: claimed, not yet written */
	assert_false(chain_ring_read(&r, first, WIDTH, out));
	assert_true(chain_ring_read(&r, first + 1, WIDTH, out));
	assert_int_equal(out[0].object, 10);
}

static void test_wraps(void **state)
{
	(void)state;
	struct chain_ring r;
	chain_ring_init(&r, storage, CAP, WIDTH);
	r.claimed = 0xFFFFFFFEu;
	uint32_t a = push(&r, 5), b = push(&r, 6), c = push(&r, 7);
	assert_int_equal(c, 0);
	struct attrib_frame out[WIDTH];
	assert_true(chain_ring_read(&r, a, WIDTH, out));
	assert_int_equal(out[0].object, 5);
	assert_true(chain_ring_read(&r, b, WIDTH, out));
	assert_true(chain_ring_read(&r, c, WIDTH, out));
	assert_int_equal(out[0].object, 7);
}

static void test_bad_setup(void **state)
{
	(void)state;
	struct chain_ring r = { 0 };
	struct attrib_frame out[1];
	assert_false(chain_ring_read(&r, 0, 1, out));         /* no storage: no chains */
	assert_int_equal(chain_ring_init(&r, storage, 3, WIDTH), -1);
	assert_int_equal(chain_ring_init(&r, storage, 0, WIDTH), -1);
	assert_int_equal(chain_ring_init(&r, storage, CAP, 0), -1);
	assert_int_equal(chain_ring_init(&r, NULL, CAP, WIDTH), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read_back),
		cmocka_unit_test(test_overwritten),
		cmocka_unit_test(test_wraps),
		cmocka_unit_test(test_bad_setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

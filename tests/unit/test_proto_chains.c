/* The 1.4 call-chain messages of the codec (proto/proto_data.c): CHAINS and SAMPLES_CHAINED
 * round trips byte for byte against docs/protocol.md's layouts, and malformed frames refused
 * with the error the document names (bad depths, id 0, kernel frames after user frames, user
 * frames without a process, identities without OBJECT, unknown bits, cut and padded frames);
 * their type rules (minor 4, CHAINS never dropped). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "proto/proto.h"
#include "common/lib/bytes.h"

static uint8_t buf[PROTO_MAX_FRAME];
static const struct proto_samples_head head = { 7 };

/* A kernel frame in a method, a kernel frame outside, two user frames, the first a method. */
static struct proto_chain chain4(void)
{
	struct proto_chain c = { .id = 9, .pid = 12, .depth = 4 };
	c.frames[0] = (struct proto_chain_frame){ PROTO_FRAME_OBJECT, 0xC000000000001234ull,
						  0xD000000000000010ull, 2 };
	c.frames[1] = (struct proto_chain_frame){ 0, 0xC000000000005678ull, 0, 0 };
	c.frames[2] = (struct proto_chain_frame){ PROTO_FRAME_USER | PROTO_FRAME_OBJECT,
						  0x10000400ull, 0xD0000040ull, 1 };
	c.frames[3] = (struct proto_chain_frame){ PROTO_FRAME_USER, 0x10000800ull, 0, 0 };
	return c;
}

static int encode_chain(const struct proto_chain *c)
{
	struct proto_builder b;
	assert_int_equal(proto_begin_chains(&b, buf, sizeof buf, 0, 0, &head), 0);
	int rc = proto_add_chain(&b, c);
	return rc ? rc : proto_finish(&b);
}

static int decode_chain(int len, struct proto_chain *out)
{
	struct proto_frame f;
	if (proto_frame_parse(buf, (size_t)len, &f) != len)
		return -1000;
	struct proto_samples_head h;
	struct proto_iter it;
	int rc = proto_decode_chains(&f, &h, &it);
	if (rc)
		return rc;
	assert_int_equal(proto_validate(&f), 0);
	assert_int_equal(h.config_id, 7);
	assert_true(proto_next_chain(&it, out));
	assert_false(proto_next_chain(&it, out));
	return 0;
}

static void test_chain_round_trip(void **state)
{
	(void)state;
	struct proto_chain c = chain4(), d;
	int n = encode_chain(&c);
	/* header 12, head 4, count 4, record 10 + 4 frames of 21 */
	assert_int_equal(n, 12 + 4 + 4 + 10 + 4 * 21);
	assert_int_equal(be16_load(buf + 4), PROTO_CHAINS);
	assert_int_equal(be32_load(buf + 20), 9);                /* id */
	assert_int_equal(be32_load(buf + 24), 12);               /* pid */
	assert_int_equal(be16_load(buf + 28), 4);                /* depth */
	assert_int_equal(buf[30], PROTO_FRAME_OBJECT);           /* frame 0: flags, pc, coid, gen */
	assert_int_equal(be64_load(buf + 31), 0xC000000000001234ull);
	assert_int_equal(be64_load(buf + 39), 0xD000000000000010ull);
	assert_int_equal(be32_load(buf + 47), 2);
	assert_int_equal(buf[30 + 2 * 21], PROTO_FRAME_USER | PROTO_FRAME_OBJECT);
	assert_int_equal(decode_chain(n, &d), 0);
	assert_int_equal(d.id, 9);
	assert_int_equal(d.pid, 12);
	assert_int_equal(d.depth, 4);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(d.frames[i].flags, c.frames[i].flags);
		assert_int_equal(d.frames[i].pc, c.frames[i].pc);
		assert_int_equal(d.frames[i].coid, c.frames[i].coid);
		assert_int_equal(d.frames[i].gen, c.frames[i].gen);
	}
	/* The deepest chain: 32 frames. */
	c.depth = PROTO_MAX_CHAIN_DEPTH;
	for (int i = 4; i < PROTO_MAX_CHAIN_DEPTH; i++)
		c.frames[i] = (struct proto_chain_frame){ PROTO_FRAME_USER, 0x10001000ull + 4u * (unsigned)i, 0, 0 };
	n = encode_chain(&c);
	assert_int_equal(n, 12 + 8 + 10 + 32 * 21);
	assert_int_equal(decode_chain(n, &d), 0);
	assert_int_equal(d.frames[31].pc, 0x10001000ull + 4 * 31);
}

/* What an encoder refuses, it refuses before writing. */
static void test_chain_encoder_refuses(void **state)
{
	(void)state;
	struct proto_chain c = chain4();
	c.id = 0;
	assert_int_equal(encode_chain(&c), -PROTO_E_INCONSISTENT);
	c = chain4();
	c.depth = 0;
	assert_int_equal(encode_chain(&c), -PROTO_E_COUNT);
	c.depth = PROTO_MAX_CHAIN_DEPTH + 1;
	assert_int_equal(encode_chain(&c), -PROTO_E_COUNT);
	c = chain4();
	c.frames[3].flags = 0;   /* a kernel frame after user frames */
	assert_int_equal(encode_chain(&c), -PROTO_E_INCONSISTENT);
	c = chain4();
	c.pid = 0;               /* user frames of no process */
	assert_int_equal(encode_chain(&c), -PROTO_E_INCONSISTENT);
	c = chain4();
	c.frames[1].coid = 5;    /* an identity without OBJECT */
	assert_int_equal(encode_chain(&c), -PROTO_E_INCONSISTENT);
	c = chain4();
	c.frames[1].flags = 0x04;
	assert_int_equal(encode_chain(&c), -PROTO_E_INCONSISTENT);
}

/* Frames on the wire broken after encoding: each decodes to the documented error. */
static void test_chain_malformed(void **state)
{
	(void)state;
	struct proto_chain c = chain4(), d;
	int n = encode_chain(&c);
	static uint8_t good[PROTO_MAX_FRAME];
	memcpy(good, buf, (size_t)n);
	struct { size_t off; int width; uint64_t val; int err; } cases[] = {
		{ 20, 4, 0, -PROTO_E_INCONSISTENT },                   /* id 0 */
		{ 28, 2, 0, -PROTO_E_COUNT },                          /* depth 0 */
		{ 28, 2, 33, -PROTO_E_COUNT },                         /* depth 33 */
		{ 28, 2, 5, -PROTO_E_COUNT },                          /* more frames than bytes */
		{ 30 + 3 * 21, 1, 0, -PROTO_E_INCONSISTENT },          /* kernel after user */
		{ 24, 4, 0, -PROTO_E_INCONSISTENT },                   /* user frames, no pid */
		{ 30 + 21 + 9, 1, 1, -PROTO_E_INCONSISTENT },          /* coid without OBJECT */
		{ 30, 1, 0x80 | PROTO_FRAME_OBJECT, -PROTO_E_INCONSISTENT },   /* unknown bit */
		{ 16, 4, 2, -PROTO_E_COUNT },                          /* two records, one there */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memcpy(buf, good, (size_t)n);
		uint8_t *p = buf + cases[i].off;
		if (cases[i].width == 1)
			*p = (uint8_t)cases[i].val;
		else if (cases[i].width == 2)
			be16_store(p, (uint16_t)cases[i].val);
		else
			be32_store(p, (uint32_t)cases[i].val);
		int rc = decode_chain(n, &d);
		if (rc != cases[i].err)
			fail_msg("case %zu: %d, expected %d", i, rc, cases[i].err);
		struct proto_frame f;
		proto_frame_parse(buf, (size_t)n, &f);
		assert_int_equal(proto_validate(&f), cases[i].err);
	}
	/* A frame cut inside the last frame, and one with a byte too many. */
	memcpy(buf, good, (size_t)n);
	be32_store(buf, (uint32_t)(n - 4 - 5));
	assert_int_equal(decode_chain(n - 5, &d), -PROTO_E_COUNT);
	memcpy(buf, good, (size_t)n);
	buf[n] = 0;
	be32_store(buf, (uint32_t)(n + 1 - 4));
	assert_int_equal(decode_chain(n + 1, &d), -PROTO_E_TRAILING);
}

static void test_samples_chained(void **state)
{
	(void)state;
	struct proto_sample s = { .timebase = 1000, .pc = 0xC000000000001234ull,
				  .coid = 0xD000000000000010ull, .gen = 2, .pid = 12, .tid = 13,
				  .cpu = 1, .event = 3, .flags = PROTO_SMP_KERNEL, .period = 9999,
				  .chain_id = 9 };
	struct proto_builder b;
	assert_int_equal(proto_begin_samples_chained(&b, buf, sizeof buf, 0, 0, &head), 0);
	assert_int_equal(proto_add_sample_chained(&b, &s), 0);
	int n = proto_finish(&b);
	assert_int_equal(n, 12 + 8 + 50);
	assert_int_equal(be32_load(buf + 20 + 42), 9999);         /* period */
	assert_int_equal(be32_load(buf + 20 + 46), 9);            /* chain id */
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample d;
	memset(&d, 0x5a, sizeof d);   /* what the wire lacks must read as none */
	assert_int_equal(proto_decode_samples_chained(&f, &h, &it), 0);
	assert_true(proto_next_sample_chained(&it, &d));
	assert_int_equal(d.chain_id, 9);
	assert_int_equal(d.period, 9999);
	assert_int_equal(d.depth, 0);
	assert_int_equal(d.coid, s.coid);
	/* Kernel and user at once is inconsistent; an inline chain is not in this layout. */
	be16_store(buf + 20 + 40, PROTO_SMP_KERNEL | PROTO_SMP_USER);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_int_equal(proto_decode_samples_chained(&f, &h, &it), -PROTO_E_INCONSISTENT);
	s.depth = 1;
	assert_int_equal(proto_begin_samples_chained(&b, buf, sizeof buf, 0, 0, &head), 0);
	assert_int_equal(proto_add_sample_chained(&b, &s), -PROTO_E_INCONSISTENT);
}

static void test_types(void **state)
{
	(void)state;
	assert_int_equal(proto_type_info(PROTO_CHAINS)->minor, 4);
	assert_int_equal(proto_type_info(PROTO_SAMPLES_CHAINED)->minor, 4);
	assert_false(proto_droppable(PROTO_CHAINS));
	assert_true(proto_droppable(PROTO_SAMPLES_CHAINED));
	assert_true(PROTO_MINOR >= 4);
	/* Old SAMPLES records decode with no chain id or period. */
	struct proto_sample s = { .flags = PROTO_SMP_USER, .depth = 1, .chain = { 0x10000400ull } };
	struct proto_builder b;
	proto_begin_samples(&b, buf, sizeof buf, 0, 0, &head);
	assert_int_equal(proto_add_sample(&b, &s), 0);
	int n = proto_finish(&b);
	struct proto_frame f;
	proto_frame_parse(buf, (size_t)n, &f);
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample d;
	memset(&d, 0x5a, sizeof d);
	assert_int_equal(proto_decode_samples(&f, &h, &it), 0);
	assert_true(proto_next_sample(&it, &d));
	assert_int_equal(d.chain_id, 0);
	assert_int_equal(d.period, 0);
	assert_int_equal(d.chain[0], 0x10000400ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_chain_round_trip),
		cmocka_unit_test(test_chain_encoder_refuses),
		cmocka_unit_test(test_chain_malformed),
		cmocka_unit_test(test_samples_chained),
		cmocka_unit_test(test_types),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

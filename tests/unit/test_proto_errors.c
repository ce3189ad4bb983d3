/* Frames the daemon once answered with ERROR INTERNAL (a fuzz run against a live dcid after an
 * observer's handshake). INTERNAL means the daemon failed, so each of these must instead get
 * the error that says what is wrong with it, or, when nothing is, its proper answer.
 *
 * The one the issue showed, 00 00 00 08 02 04 00 00 56 bb 2c (+ the next byte of the stream),
 * is a well-formed CONFIG_GET: dcid failed to encode its answer before any configuration was
 * applied, because it described "none" as the KM's all-zero configuration, whose unit and
 * slice of 0 no PMU_CONFIG may carry. It now answers proto_pmu_config_none(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "proto/proto.h"
#include "common/lib/bytes.h"

/* The bytes: a header whose length says 8, so one more byte of request id follows. */
static const uint8_t example[] = { 0x00, 0x00, 0x00, 0x08, 0x02, 0x04, 0x00, 0x00,
                                   0x56, 0xbb, 0x2c };

/* The frame the daemon received: the example and the stream's next byte (0 here). */
static void example_frame(uint8_t *buf, struct proto_frame *f)
{
	memcpy(buf, example, sizeof example);
	buf[sizeof example] = 0;
	assert_int_equal(proto_frame_parse(buf, sizeof example + 1, f), (int)sizeof example + 1);
}

static void example_waits_for_its_last_byte(void **state)
{
	(void)state;
	static uint8_t rbuf[PROTO_MAX_FRAME];
	struct proto_reader r;
	struct proto_frame f;
	proto_reader_init(&r, rbuf, sizeof rbuf);
	const uint8_t *p = example;
	size_t n = sizeof example;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 0);
	assert_int_equal(proto_reader_pending(&r), sizeof example);
	assert_int_equal(proto_frame_parse(example, sizeof example, &f), -PROTO_E_TRUNCATED);
	static const uint8_t last = 0;
	p = &last;
	n = 1;
	assert_int_equal(proto_reader_feed(&r, &p, &n, &f), 1);
	assert_int_equal(f.type, PROTO_CONFIG_GET);
	assert_int_equal(f.req, 0x56bb2c00u);
	assert_int_equal(f.size, 0);
}

/* Nothing is wrong with the frame: an observer may ask, and it is empty as it must be. */
static void example_is_a_valid_request(void **state)
{
	(void)state;
	uint8_t buf[16];
	struct proto_frame f;
	example_frame(buf, &f);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER), 0);
	assert_int_equal(proto_validate(&f), 0);
	assert_int_equal(proto_decode_empty(&f), 0);
}

/* The daemon's old answer, the KM's configuration before any was applied, cannot be encoded
 * (that was the INTERNAL); "none" as the protocol says it can, and reads back as none. */
static void example_is_answered_none(void **state)
{
	(void)state;
	uint8_t req[16], out[256];
	struct proto_frame f, a;
	example_frame(req, &f);
	static struct proto_pmu_config cfg, back;
	memset(&cfg, 0, sizeof cfg);
	assert_int_equal(proto_encode_pmu_config(out, sizeof out, f.req, 0, &cfg), -PROTO_E_INCONSISTENT);

	proto_pmu_config_none(&cfg);
	int n = proto_encode_pmu_config(out, sizeof out, f.req, 0, &cfg);
	assert_true(n > 0);
	assert_int_equal(proto_frame_parse(out, (size_t)n, &a), n);
	assert_int_equal(a.req, 0x56bb2c00u);
	assert_int_equal(proto_check_incoming(&a, PROTO_SIDE_CLIENT, PROTO_ROLE_OBSERVER), 0);
	assert_int_equal(proto_validate(&a), 0);
	assert_int_equal(proto_decode_pmu_config(&a, &back), 0);
	assert_int_equal(back.config_id, 0);
	assert_int_equal(back.n_groups, 0);
	assert_int_equal(back.chain_depth, 0);
}

/* The same request with a field made invalid gets the error for that field. */
static void example_with_bad_fields(void **state)
{
	(void)state;
	uint8_t buf[32];
	struct proto_frame f;

	example_frame(buf, &f);                  /* a payload where none belongs */
	buf[12] = 0x2c;
	be32_store(buf, 9);
	assert_int_equal(proto_frame_parse(buf, 13, &f), 13);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER), 0);
	assert_int_equal(proto_validate(&f), -PROTO_E_TRAILING);

	example_frame(buf, &f);                  /* request id 0 is for pushed frames */
	memset(buf + 8, 0, 4);
	assert_int_equal(proto_frame_parse(buf, 12, &f), 12);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER),
	                 -PROTO_E_UNEXPECTED);

	example_frame(buf, &f);                  /* requests are one frame */
	be16_store(buf + 6, PROTO_F_MORE);
	assert_int_equal(proto_frame_parse(buf, 12, &f), 12);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER),
	                 -PROTO_E_UNEXPECTED);

	example_frame(buf, &f);                  /* a length below the header */
	be32_store(buf, 7);
	assert_int_equal(proto_frame_parse(buf, 12, &f), -PROTO_E_LENGTH);

	example_frame(buf, &f);                  /* the answer's type, sent by a client */
	be16_store(buf + 4, PROTO_EVENT_CATALOGUE);
	assert_int_equal(proto_frame_parse(buf, 12, &f), 12);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER),
	                 -PROTO_E_UNEXPECTED);
	assert_int_equal(proto_validate(&f), -PROTO_E_TRUNCATED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(example_waits_for_its_last_byte),
		cmocka_unit_test(example_is_a_valid_request),
		cmocka_unit_test(example_is_answered_none),
		cmocka_unit_test(example_with_bad_fields),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

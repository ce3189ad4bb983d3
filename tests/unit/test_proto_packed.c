/* SAMPLES_PACKED (protocol 1.8, proto/proto_packed.c): every record decodes to the record
 * written, frame after frame, with extreme values and steps in both directions; the bytes of a record match docs/protocol.md 8.18c; a typical stream takes a
 * fifth of SAMPLES_CHAINED's bytes; malformed records are refused with the error the document
 * names; the encoder refuses what SAMPLES_CHAINED refuses and leaves the frame as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "proto/proto.h"
#include "common/lib/bytes.h"

#define RECORDS 4000

static uint8_t buf[PROTO_MAX_FRAME];
static const struct proto_samples_head head = { 7 };

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* A value from a few that stress the varints (0, 1, the field's limit, a random one). */
static uint64_t pick(uint64_t limit)
{
	switch (rng() % 4) {
	case 0: return 0;
	case 1: return 1;
	case 2: return limit;
	default: return rng() & limit;
	}
}

/* Mostly a stream's next sample (same object and thread, close in time and code), sometimes
 * anything a SAMPLES_CHAINED record may hold. */
static struct proto_sample next_record(const struct proto_sample *prev)
{
	struct proto_sample s = *prev;
	if (rng() % 8 == 0) {
		s.timebase = pick(UINT64_MAX);
		s.pc = pick(UINT64_MAX);
		s.coid = pick(UINT64_MAX);
		s.gen = (uint32_t)pick(UINT32_MAX);
		s.pid = (uint32_t)pick(UINT32_MAX);
		s.tid = (uint32_t)pick(UINT32_MAX);
		s.cpu = (uint16_t)pick(UINT16_MAX);
		s.event = (uint16_t)pick(UINT16_MAX);
		s.period = (uint32_t)pick(UINT32_MAX);
		s.chain_id = (uint32_t)pick(UINT32_MAX);
	} else {
		s.timebase += rng() % 5000;
		s.pc += (rng() % 4096) - 2048;
		s.period = 875 + (uint32_t)(rng() % 250);
		if (rng() % 4 == 0)
			s.chain_id = (uint32_t)(rng() % 3000);
	}
	s.flags = (uint16_t)((rng() % 2 ? PROTO_SMP_KERNEL : PROTO_SMP_USER) |
			     (rng() % 8 == 0 ? PROTO_SMP_TRUNCATED : 0) | (uint16_t)(rng() % 5 << PROTO_REP_SHIFT));
	if (rng() % 16 == 0) {
		s.flags |= PROTO_SMP_NO_OBJECT;
		s.coid = 0;
		s.gen = 0;
	}
	s.depth = 0;
	return s;
}

static void frame_of(const uint8_t *b, int n, struct proto_frame *f)
{
	assert_true(n > 0);
	assert_int_equal(proto_frame_parse(b, (size_t)n, f), n);
	assert_int_equal(proto_validate(f), 0);
}

static void assert_same_sample(const struct proto_sample *a, const struct proto_sample *b)
{
	assert_int_equal(a->timebase, b->timebase);
	assert_int_equal(a->pc, b->pc);
	assert_int_equal(a->coid, b->coid);
	assert_int_equal(a->gen, b->gen);
	assert_int_equal(a->pid, b->pid);
	assert_int_equal(a->tid, b->tid);
	assert_int_equal(a->cpu, b->cpu);
	assert_int_equal(a->event, b->event);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->period, b->period);
	assert_int_equal(a->chain_id, b->chain_id);
	assert_int_equal(a->depth, 0);
}

/* Records in frames as the daemon fills them (a frame ends when the next record does not
 * fit), read back through the calls every client uses: each is the record written. */
static void test_round_trip(void **state)
{
	(void)state;
	static struct proto_sample recs[RECORDS];
	struct proto_sample prev = { .flags = PROTO_SMP_KERNEL };
	for (int i = 0; i < RECORDS; i++)
		prev = recs[i] = next_record(&prev);
	size_t caps[] = { 200, 1000, sizeof buf };
	for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		int i = 0;
		while (i < RECORDS) {
			struct proto_builder b;
			assert_int_equal(proto_begin_samples_packed(&b, buf, caps[c], 0, 0, &head), 0);
			int first = i, rc = 0;
			while (i < RECORDS && (rc = proto_add_sample_packed(&b, &recs[i])) == 0)
				i++;
			if (i < RECORDS)
				assert_true(rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG);
			assert_true(i > first);
			struct proto_frame f;
			frame_of(buf, proto_finish(&b), &f);
			assert_int_equal(f.type, PROTO_SAMPLES_PACKED);
			struct proto_samples_head h;
			struct proto_iter it;
			assert_int_equal(proto_decode_any_samples(&f, &h, &it), 0);
			assert_int_equal(h.config_id, 7);
			assert_int_equal(proto_iter_left(&it), (uint32_t)(i - first));
			struct proto_sample a;
			for (int k = first; k < i; k++) {
				memset(&a, 0x5a, sizeof a);
				assert_true(proto_next_any_sample(&it, &a));
				assert_same_sample(&a, &recs[k]);
			}
			assert_false(proto_next_any_sample(&it, &a));
		}
	}
}

/* A stream as the monitor sends it (one thread's samples, close in time and code, a new
 * period each time, a new chain now and then): the bytes per sample, SAMPLES_CHAINED's 50
 * against what packing leaves. */
static void test_typical_size(void **state)
{
	(void)state;
	struct proto_sample s = { .timebase = 1ull << 40, .pc = 0xC000000000012340ull,
				  .coid = 0xD000000000000010ull, .gen = 3, .pid = 0, .tid = 7,
				  .cpu = 1, .event = 2, .flags = PROTO_SMP_KERNEL };
	struct proto_builder b;
	assert_int_equal(proto_begin_samples_packed(&b, buf, sizeof buf, 0, 0, &head), 0);
	int n = 0;
	for (; n < 1000; n++) {
		s.timebase += 1000 + rng() % 2000;
		s.pc = 0xC000000000012340ull + (rng() % 2048) * 4;
		s.period = 875 + (uint32_t)(rng() % 250);
		if (rng() % 4 == 0)
			s.chain_id = 1 + (uint32_t)(rng() % 300);
		assert_int_equal(proto_add_sample_packed(&b, &s), 0);
	}
	int bytes = proto_finish(&b);
	double per = (double)bytes / n;
	print_message("typical stream: %.1f bytes per sample packed (SAMPLES_CHAINED: 50 + head)\n", per);
	assert_true(per < 50.0 / 4);
}

/* The document's example (8.18c), byte for byte. */
static void test_bytes(void **state)
{
	(void)state;
	struct proto_builder b;
	struct proto_sample s1 = { .timebase = 1000, .pc = 0x10000400, .coid = 0xD0000040, .gen = 1,
				   .pid = 12, .tid = 13, .cpu = 1, .event = 0,
				   .flags = PROTO_SMP_USER, .period = 1000, .chain_id = 3 };
	struct proto_sample s2 = s1;
	s2.timebase = 1200;
	s2.pc = 0x100003F8;
	s2.period = 1010;
	assert_int_equal(proto_begin_samples_packed(&b, buf, sizeof buf, 0, 0, &head), 0);
	assert_int_equal(proto_add_sample_packed(&b, &s1), 0);
	assert_int_equal(proto_add_sample_packed(&b, &s2), 0);
	int n = proto_finish(&b);
	static const uint8_t want[] = {
		0x00, 0x00, 0x00, 0x07, 0x00, 0x00, 0x00, 0x02,   /* config_id, count */
		/* the first record: every field, against zero */
		0x08,                                             /* same: event (0 = 0) */
		0xD0, 0x0F,                                       /* timebase +1000 */
		0x80, 0x90, 0x80, 0x80, 0x02,                     /* pc +0x10000400 */
		0x80, 0x81, 0x80, 0x80, 0x1A, 0x01,               /* coid +0xD0000040, gen 1 */
		0x0C, 0x0D,                                       /* pid 12, tid 13 */
		0x01,                                             /* cpu 1 */
		0x02,                                             /* flags USER */
		0xE8, 0x07,                                       /* period 1000 */
		0x03,                                             /* chain 3 */
		/* the second: only time, pc and period */
		0x5F,                                             /* same: all but period */
		0x90, 0x03,                                       /* timebase +200 */
		0x0F,                                             /* pc -8 */
		0xF2, 0x07,                                       /* period 1010 */
	};
	assert_int_equal(n, PROTO_HEADER_SIZE + (int)sizeof want);
	assert_int_equal(be16_load(buf + 4), PROTO_SAMPLES_PACKED);
	assert_memory_equal(buf + PROTO_HEADER_SIZE, want, sizeof want);
}

/* One record (after config_id 7 and the count) in a frame of its own. */
static int packed_frame(const uint8_t *rec, size_t n, uint32_t count, struct proto_frame *f)
{
	size_t len = PROTO_HEADER_SIZE + 8 + n;
	be32_store(buf, (uint32_t)(len - 4));
	be16_store(buf + 4, PROTO_SAMPLES_PACKED);
	be16_store(buf + 6, 0);
	be32_store(buf + 8, 0);
	be32_store(buf + 12, 7);
	be32_store(buf + 16, count);
	memcpy(buf + 20, rec, n);
	assert_int_equal(proto_frame_parse(buf, len, f), (int)len);
	struct proto_samples_head h;
	struct proto_iter it;
	int err = proto_decode_samples_packed(f, &h, &it);
	assert_int_equal(proto_validate(f), err);
	return err;
}

static void test_malformed(void **state)
{
	(void)state;
	struct proto_frame f;
	/* Timebase 1, pc 2, flags KERNEL, period 9, everything else 0 as in the all-zero record
	 * before it: a good record, then each way to break it. */
	const uint8_t good[] = { 0x4F, 0x02, 0x04, 0x01, 0x09 };
	assert_int_equal(packed_frame(good, sizeof good, 1, &f), 0);
	uint8_t r[32];

	memcpy(r, good, sizeof good);
	r[0] |= 0x80;                                      /* the reserved bit */
	assert_int_equal(packed_frame(r, sizeof good, 1, &f), -PROTO_E_INCONSISTENT);

	/* The good record with its timebase (1 byte) replaced by `tb`. */
#define WITH_TIMEBASE(tb)                                                        \
	do {                                                                     \
		r[0] = good[0];                                                  \
		memcpy(r + 1, tb, sizeof tb);                                    \
		memcpy(r + 1 + sizeof tb, good + 2, sizeof good - 2);            \
	} while (0)
	const uint8_t two_groups[] = { 0x82, 0x00 };       /* 2 as two groups: overlong */
	WITH_TIMEBASE(two_groups);
	assert_int_equal(packed_frame(r, sizeof good + 1, 1, &f), -PROTO_E_INCONSISTENT);
	const uint8_t eleven[] = { 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x81, 0x01 };
	WITH_TIMEBASE(eleven);
	assert_int_equal(packed_frame(r, sizeof good + 10, 1, &f), -PROTO_E_INCONSISTENT);
	const uint8_t wide[] = { 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02 };   /* 65 bits */
	WITH_TIMEBASE(wide);
	assert_int_equal(packed_frame(r, sizeof good + 9, 1, &f), -PROTO_E_INCONSISTENT);
	const uint8_t widest[] = { 0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01 };  /* 64 bits */
	WITH_TIMEBASE(widest);
	assert_int_equal(packed_frame(r, sizeof good + 9, 1, &f), 0);

	const uint8_t cpu[] = { 0x4B, 0x02, 0x04, 0x80, 0x80, 0x04, 0x01, 0x09 };   /* cpu 65536 */
	assert_int_equal(packed_frame(cpu, sizeof cpu, 1, &f), -PROTO_E_INCONSISTENT);
	const uint8_t cpu1[] = { 0x4B, 0x02, 0x04, 0x01, 0x01, 0x09 };               /* cpu 1 */
	assert_int_equal(packed_frame(cpu1, sizeof cpu1, 1, &f), 0);
	const uint8_t cpu0[] = { 0x4B, 0x02, 0x04, 0x00, 0x01, 0x09 };   /* cpu 0 written out */
	assert_int_equal(packed_frame(cpu0, sizeof cpu0, 1, &f), -PROTO_E_INCONSISTENT);
	const uint8_t no_object[] = { 0x4E, 0x02, 0x04, 0x00, 0x00, 0x01, 0x09 };    /* written out */
	assert_int_equal(packed_frame(no_object, sizeof no_object, 1, &f), -PROTO_E_INCONSISTENT);

	memcpy(r, good, sizeof good);
	r[3] = 0x03;                                       /* kernel and user */
	assert_int_equal(packed_frame(r, sizeof good, 1, &f), -PROTO_E_INCONSISTENT);
	const uint8_t object_without[] = { 0x4E, 0x02, 0x04, 0x02, 0x00, 0x11, 0x09 };   /* NO_OBJECT, coid 1 */
	assert_int_equal(packed_frame(object_without, sizeof object_without, 1, &f), -PROTO_E_INCONSISTENT);

	assert_int_equal(packed_frame(good, sizeof good - 1, 1, &f), -PROTO_E_TRUNCATED);
	const uint8_t cut[] = { 0x4F, 0x02, 0x84 };        /* inside a varint */
	assert_int_equal(packed_frame(cut, sizeof cut, 1, &f), -PROTO_E_TRUNCATED);
	uint8_t two[16];
	memcpy(two, good, sizeof good);
	memcpy(two + sizeof good, (const uint8_t[]){ 0x7F, 0x02, 0x00 }, 3);   /* the same, later */
	assert_int_equal(packed_frame(two, sizeof good + 3, 2, &f), 0);
	assert_int_equal(packed_frame(two, sizeof good + 3, 3, &f), -PROTO_E_COUNT);
	assert_int_equal(packed_frame(good, sizeof good, 2, &f), -PROTO_E_COUNT);
	memcpy(r, good, sizeof good);
	r[sizeof good] = 0;
	assert_int_equal(packed_frame(r, sizeof good + 1, 1, &f), -PROTO_E_TRAILING);
	assert_int_equal(packed_frame(good, 0, 0, &f), 0);
}

/* What SAMPLES_CHAINED refuses, this refuses too, and a refused or unfitting record leaves
 * the frame and the record the next one is written against as they were. */
static void test_encoder_refuses(void **state)
{
	(void)state;
	struct proto_builder b;
	struct proto_sample ok = { .timebase = 5, .pc = 0x100, .flags = PROTO_SMP_KERNEL, .period = 7 };
	struct proto_sample bad = ok;
	bad.flags = PROTO_SMP_KERNEL | PROTO_SMP_USER;
	struct proto_sample deep = ok;
	deep.depth = 1;
	size_t cap = PROTO_HEADER_SIZE + 8 + 7;   /* room for one short record */
	assert_int_equal(proto_begin_samples_packed(&b, buf, cap, 0, 0, &head), 0);
	assert_int_equal(proto_add_sample_packed(&b, &bad), -PROTO_E_INCONSISTENT);
	assert_int_equal(proto_add_sample_packed(&b, &deep), -PROTO_E_INCONSISTENT);
	assert_int_equal(proto_add_sample_packed(&b, &ok), 0);
	struct proto_sample far = ok;
	far.timebase = UINT64_MAX;
	assert_int_equal(proto_add_sample_packed(&b, &far), -PROTO_E_NOSPACE);
	struct proto_frame f;
	frame_of(buf, proto_finish(&b), &f);
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample d;
	assert_int_equal(proto_decode_samples_packed(&f, &h, &it), 0);
	assert_true(proto_next_sample_packed(&it, &d));
	assert_same_sample(&d, &ok);
	assert_false(proto_next_sample_packed(&it, &d));
	struct proto_builder wrong;
	assert_int_equal(proto_begin_samples_chained(&wrong, buf, sizeof buf, 0, 0, &head), 0);
	assert_int_equal(proto_add_sample_packed(&wrong, &ok), -PROTO_E_INVALID);
}

/* Its rules as a message type: minor 8, sent by the server, droppable, a sample type. */
static void test_type(void **state)
{
	(void)state;
	assert_non_null(proto_type_info(PROTO_SAMPLES_PACKED));
	assert_int_equal(proto_type_info(PROTO_SAMPLES_PACKED)->minor, 8);
	assert_true(proto_droppable(PROTO_SAMPLES_PACKED));
	assert_true(proto_is_samples(PROTO_SAMPLES_PACKED));
	assert_string_equal(proto_type_name(PROTO_SAMPLES_PACKED), "SAMPLES_PACKED");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_typical_size),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_encoder_refuses),
		cmocka_unit_test(test_type),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The codec's table (proto/proto_wire.h): every message type the protocol names but
 * SAMPLES_PACKED has exactly one entry of the right shape, every layout describes its structure (fields inside it, in wire
 * order, strings with sane limits, scratch space big enough), and the smallest record each
 * list declares is what an all-zero record really encodes to, and the hand-written writer of
 * SAMPLES_CHAINED records (the monitor's hot path) writes what the table would. The messages'
 * behaviour is pinned by test_proto.c; this pins the table it runs on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "proto/proto_wire.h"

static const uint16_t empty_types[] = { PROTO_OK, PROTO_STATUS_GET, PROTO_WAKEUPS_GET, PROTO_THROTTLE_GET,
	PROTO_CATALOGUE_GET, PROTO_CONFIG_GET, PROTO_STOP, PROTO_POWER_OFF, PROTO_REBOOT, PROTO_PLATFORM_GET };

static bool is_empty_type(uint16_t t)
{
	for (size_t i = 0; i < sizeof empty_types / sizeof empty_types[0]; i++)
		if (empty_types[i] == t)
			return true;
	return false;
}

static size_t field_size(uint8_t kind)
{
	switch (kind) {
	case PF_U8: return 1;
	case PF_U16: return 2;
	case PF_U32: return 4;
	case PF_U64: return 8;
	default: return sizeof(struct proto_str);
	}
}

static void check_layout(const struct proto_layout *l, size_t scratch)
{
	assert_non_null(l);
	assert_true(l->size > 0 && l->size <= scratch);
	if (!l->n_fields)
		assert_true(l->put_more && l->get_more);    /* all code, then */
	assert_true(!l->put_more == !l->get_more);
	for (uint8_t i = 0; i < l->n_fields; i++) {
		const struct proto_field *f = &l->fields[i];
		assert_true(f->kind <= PF_STR);
		assert_true(f->offset + field_size(f->kind) <= l->size);
		assert_true(f->offset % field_size(f->kind) == 0 || f->kind == PF_STR);
		if (f->kind == PF_STR)
			assert_true(f->min <= f->max && f->max <= PROTO_TEXT_MAX);
		else
			assert_true(f->min == 0 && f->max == 0);
	}
}

/* Types 0x0000-0x03FF cover every range the protocol uses. */
static void test_every_type_has_one_entry(void **state)
{
	(void)state;
	int known = 0;
	for (uint32_t t = 0; t < 0x400; t++) {
		const struct proto_type_info *info = proto_type_info((uint16_t)t);
		const struct proto_message *m = proto_message((uint16_t)t);
		/* The one type outside the table: each SAMPLES_PACKED record is written against the
		 * one before it, which no layout can say (proto/proto_packed.c, test_proto_packed). */
		if (t == PROTO_SAMPLES_PACKED) {
			assert_non_null(info);
			assert_null(m);
			continue;
		}
		assert_true(!info == !m);
		if (!m)
			continue;
		known++;
		assert_int_equal(m->type, t);
		if (is_empty_type((uint16_t)t)) {
			assert_null(m->body);
			assert_null(m->rec);
			continue;
		}
		if (m->rec) {
			check_layout(m->body, sizeof(union proto_any_head));
			check_layout(m->rec, sizeof(union proto_any_record));
			assert_true(m->rec_min > 0);
		} else {
			check_layout(m->body, t == PROTO_PMU_CONFIG ? sizeof(struct proto_pmu_config) :
				sizeof(union proto_any_fixed));
			assert_int_equal(m->rec_min, 0);
			assert_null(m->list_check);
		}
	}
	size_t entries = proto_session_message_count + proto_scan_message_count +
		proto_pmu_message_count + proto_data_message_count + proto_swap_message_count +
		proto_throttle_message_count + proto_platform_message_count;
	assert_int_equal(known, (int)entries);
}

/* The smallest record a list declares: a record of zero numbers and empty strings and lists,
 * made valid where its rules need it, encodes to exactly that many bytes. */
static void test_record_minimum(void **state)
{
	(void)state;
	static uint8_t buf[PROTO_MAX_FRAME];
	for (uint32_t t = 0; t < 0x400; t++) {
		const struct proto_message *m = proto_message((uint16_t)t);
		if (!m || !m->rec)
			continue;
		union proto_any_head head;
		union proto_any_record rec;
		struct proto_builder b;
		memset(&head, 0, sizeof head);
		memset(&rec, 0, sizeof rec);
		/* The few rules a zero record breaks. */
		if (t == PROTO_EVENT_CATALOGUE)
			head.catalogue.total = 1;
		if (t == PROTO_SCAN_PROCESSES)
			rec.process.name = PROTO_STR("p");
		if (t == PROTO_SCAN_OBJECTS)
			rec.object.class_name = PROTO_STR("C");
		if (t == PROTO_EVENT_CATALOGUE) {
			rec.event.name = PROTO_STR("E");
			rec.event.why_not = PROTO_STR("w");
		}
		if (t == PROTO_SAMPLES || t == PROTO_SAMPLES_CHAINED)
			rec.sample.flags = PROTO_SMP_KERNEL;
		if (t == PROTO_CHAINS) {
			rec.chain.id = 1;
			rec.chain.depth = 1;
		}
		if (t == PROTO_PLATFORM) {
			head.platform.platform = PROTO_STR("p");
			head.platform.power_ctl = PROTO_STR("c");
			rec.platform_path.name = PROTO_STR("n");
		}
		assert_int_equal(proto_list_begin(&b, buf, sizeof buf, (uint16_t)t, 1, 0, &head), 0);
		size_t before = b.len;
		int rc = proto_list_add(&b, (uint16_t)t, &rec);
		if (rc)
			fail_msg("type 0x%04x: a minimal record is refused (%d)", (unsigned)t, rc);
		size_t strings = t == PROTO_SCAN_PROCESSES || t == PROTO_SCAN_OBJECTS ||
			t == PROTO_PLATFORM ? 1 :
			t == PROTO_EVENT_CATALOGUE ? 2 : 0;
		assert_int_equal(b.len - before - strings, m->rec_min);
	}
}

/* Fixed messages refuse list calls and lists refuse fixed calls: no shape is taken for the
 * other. */
static void test_shapes_not_mixed(void **state)
{
	(void)state;
	uint8_t buf[256];
	struct proto_builder b;
	struct proto_ping ping = { 7 };
	assert_int_equal(proto_list_begin(&b, buf, sizeof buf, PROTO_PING, 1, 0, &ping),
		-PROTO_E_INVALID);
	assert_int_equal(proto_finish(&b), -PROTO_E_INVALID);
	struct proto_samples_head h = { 1 };
	assert_int_equal(proto_encode_fixed(buf, sizeof buf, PROTO_SAMPLES, 1, 0, &h),
		-PROTO_E_INVALID);
	assert_int_equal(proto_encode_fixed(buf, sizeof buf, 0x0999, 1, 0, &h), -PROTO_E_INVALID);
	assert_int_equal(proto_encode_empty(buf, sizeof buf, PROTO_PING, 1, 0), -PROTO_E_INVALID);
	int n = proto_encode_ping(buf, sizeof buf, 1, 0, &ping);
	assert_true(n > 0);
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	struct proto_iter it;
	assert_int_equal(proto_list_decode(&f, PROTO_PING, &h, &it), -PROTO_E_INVALID);
	assert_int_equal(proto_iter_left(&it), 0);
	assert_int_equal(proto_decode_empty(&f), -PROTO_E_INVALID);
}

/* Random samples, valid or not (both modes, neither, an inline chain, a coid with NO_OBJECT),
 * into frames that fill up (no space) and into one past the protocol's limit (too big): the
 * hand-written writer and the table's give the same answer and the same bytes each time. */
static void test_sample_chained_writer_is_the_table(void **state)
{
	(void)state;
	static uint8_t fast[PROTO_MAX_FRAME + 4096], table[PROTO_MAX_FRAME + 4096];
	uint64_t x = 0x9E3779B97F4A7C15ull;
	const struct proto_samples_head h = { 5 };
	const size_t caps[] = { 12 + 8 + 50 * 3 + 17, 4096, sizeof fast };
	for (size_t c = 0; c < sizeof caps / sizeof caps[0]; c++) {
		struct proto_builder bf, bt;
		assert_int_equal(proto_begin_samples_chained(&bf, fast, caps[c], 3, 0, &h), 0);
		assert_int_equal(proto_list_begin(&bt, table, caps[c], PROTO_SAMPLES_CHAINED, 3, 0, &h), 0);
		for (int i = 0; i < 4000; i++) {
			uint64_t r[8];
			for (int k = 0; k < 8; k++) {
				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				r[k] = x;
			}
			struct proto_sample s = { .timebase = r[0], .pc = r[1], .coid = r[2] & 3 ? r[2] : 0,
						  .gen = (uint32_t)r[3], .pid = (uint32_t)(r[3] >> 32),
						  .tid = (uint32_t)r[4], .cpu = (uint16_t)(r[4] >> 32),
						  .event = (uint16_t)(r[4] >> 48), .period = (uint32_t)r[5],
						  .chain_id = (uint32_t)(r[5] >> 32) };
			s.flags = (uint16_t)((r[6] & 0x0F1F) | (r[6] & 0x100000 ? 0 : PROTO_SMP_KERNEL));
			s.depth = r[7] % 64 == 0 ? 1 : 0;
			int a = proto_add_sample_chained(&bf, &s), b = proto_list_add(&bt, PROTO_SAMPLES_CHAINED, &s);
			assert_int_equal(a, b);
			assert_int_equal(bf.len, bt.len);
			assert_int_equal(bf.count, bt.count);
		}
		int nf = proto_finish(&bf), nt = proto_finish(&bt);
		assert_int_equal(nf, nt);
		assert_true(nf > 0);
		assert_memory_equal(fast, table, (size_t)nf);
	}
	struct proto_builder b;
	struct proto_sample s = { .flags = PROTO_SMP_USER };
	assert_int_equal(proto_begin_samples(&b, fast, sizeof fast, 0, 0, &h), 0);
	assert_int_equal(proto_add_sample_chained(&b, &s), -PROTO_E_INVALID);   /* another list */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_type_has_one_entry),
		cmocka_unit_test(test_record_minimum),
		cmocka_unit_test(test_shapes_not_mixed),
		cmocka_unit_test(test_sample_chained_writer_is_the_table),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Recordings (gui/client/recording.c): frames written and read back unchanged with their
 * times, the end of the file, the target's description (SERVER_HELLO, or SERVER_HELLO_EX from
 * a 1.5 target), and refusals of what is not a recording or is cut short. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "client/recording.h"

static void test_round_trip(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_true(kov_rec_begin(f));
	uint8_t buf[128];
	struct proto_ping ping = { 0x1122334455667788ull };
	for (int i = 0; i < 3; i++) {
		int n = proto_encode_ping(buf, sizeof buf, (uint32_t)i + 1, 0, &ping);
		struct proto_frame fr;
		assert_int_equal(proto_frame_parse(buf, (size_t)n, &fr), n);
		assert_true(kov_rec_write(f, 1000u * (uint64_t)i, &fr));
	}
	rewind(f);
	assert_true(kov_rec_open(f));
	struct kov_frame fr;
	uint64_t ns;
	for (int i = 0; i < 3; i++) {
		assert_int_equal(kov_rec_next(f, &fr, &ns), 1);
		assert_int_equal(ns, 1000u * (uint64_t)i);
		assert_int_equal(fr.f.type, PROTO_PING);
		assert_int_equal(fr.f.req, (uint32_t)i + 1);
		struct proto_ping back;
		assert_int_equal(proto_decode_ping(&fr.f, &back), 0);
		assert_int_equal(back.cookie, ping.cookie);
		kov_frame_free(&fr);
	}
	assert_int_equal(kov_rec_next(f, &fr, &ns), 0);
	fclose(f);
}

/* Writes t's description to a new recording and reads it back: its frame (free it) and the
 * description it gives. */
static void description_round_trip(const struct kov_target *t, struct kov_frame *fr,
				   struct kov_target *back)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_true(kov_rec_begin(f));
	assert_true(kov_rec_write_target(f, 5, t));
	rewind(f);
	assert_true(kov_rec_open(f));
	uint64_t ns;
	assert_int_equal(kov_rec_next(f, fr, &ns), 1);
	assert_int_equal(ns, 5);
	memset(back, 0xff, sizeof *back);
	assert_true(kov_rec_read_target(&fr->f, back));
	fclose(f);
}

/* The target's description travels as a SERVER_HELLO: a replay gets the CPUs, timebase, PMU
 * and model the spin pane and the IPC label need. */
static void test_target_description(void **state)
{
	(void)state;
	struct kov_target t = { .major = 1, .minor = 2, .client_id = 7, .role = PROTO_ROLE_OBSERVER,
				.timebase_hz = 512000000, .memory = 512ull << 20, .pvr = 0x00390202,
				.cpus = 4, .events = 43 };
	strcpy(t.profile, "smp");
	strcpy(t.model, "IBM pSeries (emulated by qemu)");
	strcpy(t.pmu, "isa207-arch");
	strcpy(t.build_id, "abc");
	strcpy(t.server, "kov-dcid 1.0");
	struct kov_frame fr;
	struct kov_target back;
	description_round_trip(&t, &fr, &back);
	assert_int_equal(fr.f.type, PROTO_SERVER_HELLO);
	assert_int_equal(back.cpus, 4);
	assert_int_equal(back.minor, 2);
	assert_int_equal(back.cpus_run, PROTO_CPUS_UNKNOWN);
	assert_int_equal(back.timebase_hz, 512000000);
	assert_int_equal(back.pvr, 0x00390202);
	assert_string_equal(back.model, "IBM pSeries (emulated by qemu)");
	assert_string_equal(back.pmu, "isa207-arch");
	assert_string_equal(back.server, "kov-dcid 1.0");
	kov_frame_free(&fr);
	/* Any other frame is not a description. */
	uint8_t buf[64];
	struct proto_ping ping = { 1 };
	int n = proto_encode_ping(buf, sizeof buf, 1, 0, &ping);
	struct proto_frame other;
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &other), n);
	assert_false(kov_rec_read_target(&other, &back));
}

/* A 1.5 target's description says how its CPUs ran, as its SERVER_HELLO_EX did. */
static void test_target_description_1_5(void **state)
{
	(void)state;
	struct kov_target t = { .major = 1, .minor = 5, .client_id = 7, .role = PROTO_ROLE_OBSERVER,
				.timebase_hz = 512000000, .cpus = 4, .cpus_run = PROTO_CPUS_TAKE_TURNS };
	strcpy(t.profile, "smp");
	struct kov_frame fr;
	struct kov_target back;
	description_round_trip(&t, &fr, &back);
	assert_int_equal(fr.f.type, PROTO_SERVER_HELLO_EX);
	assert_int_equal(back.cpus_run, PROTO_CPUS_TAKE_TURNS);
	assert_string_equal(kov_cpus_run(&back), "take-turns");
	kov_frame_free(&fr);
}

static void test_refusals(void **state)
{
	(void)state;
	FILE *f = tmpfile();
	fputs("not a recording", f);
	rewind(f);
	assert_false(kov_rec_open(f));
	fclose(f);
	/* Cut short inside a frame, and a frame that does not validate. */
	f = tmpfile();
	kov_rec_begin(f);
	uint8_t buf[128];
	struct proto_ping ping = { 7 };
	int n = proto_encode_ping(buf, sizeof buf, 1, 0, &ping);
	struct proto_frame fr0;
	proto_frame_parse(buf, (size_t)n, &fr0);
	kov_rec_write(f, 5, &fr0);
	long end = ftell(f);
	fflush(f);
	assert_int_equal(ftruncate(fileno(f), end - 3), 0);
	rewind(f);
	assert_true(kov_rec_open(f));
	struct kov_frame fr;
	uint64_t ns;
	assert_int_equal(kov_rec_next(f, &fr, &ns), -1);
	fclose(f);
	f = tmpfile();
	kov_rec_begin(f);
	buf[5] = 0x77;   /* an unknown type */
	proto_frame_parse(buf, (size_t)n, &fr0);
	kov_rec_write(f, 5, &fr0);
	rewind(f);
	kov_rec_open(f);
	assert_int_equal(kov_rec_next(f, &fr, &ns), -1);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_target_description),
		cmocka_unit_test(test_target_description_1_5),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* The 1.5 messages of the codec (proto/proto_session.c): SERVER_HELLO_EX (an accepted
 * SERVER_HELLO and how the target's CPUs ran) and WAKEUPS_GET / WAKEUPS (the kernel's wake-up
 * counters), byte for byte against docs/protocol.md's layouts; what they refuse (a refusal as
 * SERVER_HELLO_EX, an unknown cpus_run, cut and padded frames); their type rules (minor 5,
 * directions, the handshake's place); and peers of an older minor: a 1.4 SERVER_HELLO leaves
 * the client's view of the machine "not reported" and no WAKEUPS_GET is sent to it. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include "proto/proto.h"
#include "client/client.h"
#include "common/lib/bytes.h"

static uint8_t buf[PROTO_MAX_FRAME], plain[PROTO_MAX_FRAME];

static struct proto_server_hello welcome(uint8_t cpus_run)
{
	return (struct proto_server_hello){
		.magic = PROTO_MAGIC, .major = PROTO_MAJOR, .minor = PROTO_MINOR, .status = 0,
		.role = PROTO_ROLE_OBSERVER, .client_id = 3, .reason = PROTO_STR(""),
		.target = {
			.timebase_hz = 512000000, .timebase_now = 77, .memory = 512ull << 20,
			.pvr = 0x00390202, .cpus = 4, .events = 2, .profile = PROTO_STR("smp"),
			.model = PROTO_STR("qemu"), .pmu = PROTO_STR("isa207-arch"),
			.build_id = PROTO_STR("b"), .server = PROTO_STR("kov-dcid 1.0"),
			.cpus_run = cpus_run,
		},
	};
}

static struct proto_frame parse(const uint8_t *b, int n)
{
	struct proto_frame f;
	assert_true(n > 0);
	assert_int_equal(proto_frame_parse(b, (size_t)n, &f), n);
	return f;
}

/* SERVER_HELLO_EX is SERVER_HELLO's payload with cpus_run after `server`, one byte. */
static void test_server_hello_ex_bytes(void **state)
{
	(void)state;
	static const uint8_t runs[] = { PROTO_CPUS_UNKNOWN, PROTO_CPUS_TAKE_TURNS, PROTO_CPUS_PARALLEL };
	for (size_t i = 0; i < sizeof runs; i++) {
		struct proto_server_hello m = welcome(runs[i]);
		int n = proto_encode_server_hello_ex(buf, sizeof buf, 1, PROTO_F_MORE, &m);
		int p = proto_encode_server_hello(plain, sizeof plain, 1, PROTO_F_MORE, &m);
		assert_int_equal(n, p + 1);
		assert_int_equal(be16_load(buf + 4), 0x000C);
		assert_memory_equal(buf + 6, plain + 6, (size_t)p - 6);   /* flags, id, payload */
		assert_int_equal(buf[p], runs[i]);
		struct proto_frame f = parse(buf, n);
		struct proto_server_hello d;
		assert_int_equal(proto_decode_server_hello_ex(&f, &d), 0);
		assert_int_equal(d.target.cpus_run, runs[i]);
		assert_int_equal(d.target.cpus, 4);
		assert_true(proto_str_eq(d.target.server, "kov-dcid 1.0"));
		assert_int_equal(proto_validate(&f), 0);
		/* The plain SERVER_HELLO does not carry it: it decodes as unknown. */
		f = parse(plain, p);
		d.target.cpus_run = 9;
		assert_int_equal(proto_decode_any_server_hello(&f, &d), 0);
		assert_int_equal(d.target.cpus_run, PROTO_CPUS_UNKNOWN);
	}
}

static void test_server_hello_ex_refused(void **state)
{
	(void)state;
	/* A refusal stays SERVER_HELLO, which every version reads. */
	struct proto_server_hello m = { .magic = PROTO_MAGIC, .major = PROTO_MAJOR,
	                                .minor = PROTO_MINOR, .status = PROTO_E_DENIED,
	                                .reason = PROTO_STR("wrong controller token") };
	assert_int_equal(proto_encode_server_hello_ex(buf, sizeof buf, 1, 0, &m), -PROTO_E_INCONSISTENT);
	int p = proto_encode_server_hello(plain, sizeof plain, 1, 0, &m);
	memcpy(buf, plain, (size_t)p);
	buf[p] = 0;
	be32_store(buf, be32_load(buf) + 1);
	be16_store(buf + 4, PROTO_SERVER_HELLO_EX);
	struct proto_frame f = parse(buf, p + 1);
	struct proto_server_hello d;
	assert_int_equal(proto_decode_server_hello_ex(&f, &d), -PROTO_E_INCONSISTENT);

	/* A value of cpus_run this version does not know. */
	m = welcome(PROTO_CPUS_RUN_MAX + 1);
	assert_int_equal(proto_encode_server_hello_ex(buf, sizeof buf, 1, 0, &m), -PROTO_E_INCONSISTENT);
	m.target.cpus_run = PROTO_CPUS_PARALLEL;
	int n = proto_encode_server_hello_ex(buf, sizeof buf, 1, 0, &m);
	buf[n - 1] = PROTO_CPUS_RUN_MAX + 1;
	f = parse(buf, n);
	assert_int_equal(proto_decode_server_hello_ex(&f, &d), -PROTO_E_INCONSISTENT);
	assert_int_equal(proto_validate(&f), -PROTO_E_INCONSISTENT);

	/* Cut before cpus_run, and a byte too many. */
	buf[n - 1] = PROTO_CPUS_PARALLEL;
	be32_store(buf, be32_load(buf) - 1);
	f = parse(buf, n - 1);
	assert_int_equal(proto_decode_server_hello_ex(&f, &d), -PROTO_E_TRUNCATED);
	buf[n] = 0;
	be32_store(buf, be32_load(buf) + 2);
	f = parse(buf, n + 1);
	assert_int_equal(proto_decode_server_hello_ex(&f, &d), -PROTO_E_TRAILING);

	/* Each decoder takes its own type only. */
	f = parse(plain, p);
	assert_int_equal(proto_decode_server_hello_ex(&f, &d), -PROTO_E_INVALID);
}

/* WAKEUPS: timebase, rescues, resets, prods, late_max_us, ticks_pending, each a u64. */
static void test_wakeups_bytes(void **state)
{
	(void)state;
	struct proto_wakeups w = { 0x0102030405060708ull, 1, 2, 3, 4000, 0x1122334455667788ull };
	int n = proto_encode_wakeups(buf, sizeof buf, 9, 0, &w);
	assert_int_equal(n, PROTO_HEADER_SIZE + 48);
	assert_int_equal(be16_load(buf + 4), 0x000E);
	const uint64_t want[] = { w.timebase, 1, 2, 3, 4000, w.ticks_pending };
	for (int i = 0; i < 6; i++)
		assert_int_equal(be64_load(buf + PROTO_HEADER_SIZE + 8 * i), want[i]);
	struct proto_frame f = parse(buf, n);
	struct proto_wakeups d;
	assert_int_equal(proto_decode_wakeups(&f, &d), 0);
	assert_memory_equal(&d, &w, sizeof d);
	be32_store(buf, be32_load(buf) - 1);
	f = parse(buf, n - 1);
	assert_int_equal(proto_decode_wakeups(&f, &d), -PROTO_E_TRUNCATED);

	/* WAKEUPS_GET is empty. */
	n = proto_encode_empty(buf, sizeof buf, PROTO_WAKEUPS_GET, 4, 0);
	assert_int_equal(n, PROTO_HEADER_SIZE);
	f = parse(buf, n);
	assert_int_equal(proto_decode_empty(&f), 0);
	buf[n] = 0;
	be32_store(buf, be32_load(buf) + 1);
	f = parse(buf, n + 1);
	assert_int_equal(proto_validate(&f), -PROTO_E_TRAILING);
}

static void check_at(int want, uint16_t type, uint32_t req, enum proto_side side,
                     enum proto_role role)
{
	struct proto_frame f = { type, 0, req, NULL, 0 };
	assert_int_equal(proto_check_incoming(&f, side, role), want);
}

static void test_types(void **state)
{
	(void)state;
	assert_int_equal(PROTO_MINOR, 8);   /* 1.8 added SAMPLES_PACKED, POWER_OFF, REBOOT, PLATFORM_GET, PLATFORM */
	check_at(0, PROTO_PLATFORM_GET, 1, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER);
	check_at(0, PROTO_PLATFORM, 1, PROTO_SIDE_CLIENT, PROTO_ROLE_OBSERVER);
	assert_int_equal(proto_type_info(PROTO_PLATFORM)->minor, 8);
	assert_false(proto_droppable(PROTO_PLATFORM));
	static const uint16_t t18[] = { PROTO_POWER_OFF, PROTO_REBOOT };
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(proto_type_info(t18[i])->minor, 8);
		assert_true(proto_requires_controller(t18[i]));
		/* The controller's alone: an observer is refused, and a server never sends them. */
		check_at(-PROTO_E_NOT_CONTROLLER, t18[i], 1, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER);
		check_at(0, t18[i], 1, PROTO_SIDE_SERVER, PROTO_ROLE_CONTROLLER);
		check_at(-PROTO_E_UNEXPECTED, t18[i], 1, PROTO_SIDE_CLIENT, PROTO_ROLE_CONTROLLER);
	}
	static const uint16_t t17[] = { PROTO_THROTTLE_GET, PROTO_THROTTLE_SET, PROTO_THROTTLE };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(proto_type_info(t17[i])->minor, 7);
		assert_false(proto_droppable(t17[i]));
	}
	/* The limit is the controller's to set; anyone may ask for it. */
	check_at(-PROTO_E_NOT_CONTROLLER, PROTO_THROTTLE_SET, 1, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER);
	check_at(0, PROTO_THROTTLE_SET, 1, PROTO_SIDE_SERVER, PROTO_ROLE_CONTROLLER);
	check_at(0, PROTO_THROTTLE_GET, 1, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER);
	static const uint16_t types[] = { PROTO_SERVER_HELLO_EX, PROTO_WAKEUPS_GET, PROTO_WAKEUPS };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(proto_type_info(types[i])->minor, 5);
		assert_false(proto_droppable(types[i]));
		assert_false(proto_requires_controller(types[i]));
	}
	assert_string_equal(proto_type_name(PROTO_SERVER_HELLO_EX), "SERVER_HELLO_EX");
	assert_true(proto_is_server_hello(PROTO_SERVER_HELLO));
	assert_true(proto_is_server_hello(PROTO_SERVER_HELLO_EX));
	assert_false(proto_is_server_hello(PROTO_HELLO));
	const enum proto_side S = PROTO_SIDE_SERVER, C = PROTO_SIDE_CLIENT;
	/* SERVER_HELLO_EX answers HELLO like SERVER_HELLO: first, and once. */
	check_at(0, PROTO_SERVER_HELLO_EX, 1, C, PROTO_ROLE_NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SERVER_HELLO_EX, 1, C, PROTO_ROLE_OBSERVER);
	check_at(-PROTO_E_UNEXPECTED, PROTO_SERVER_HELLO_EX, 1, S, PROTO_ROLE_OBSERVER);
	/* Any client may ask for the wake-ups; only the server answers. */
	check_at(0, PROTO_WAKEUPS_GET, 5, S, PROTO_ROLE_OBSERVER);
	check_at(-PROTO_E_UNEXPECTED, PROTO_WAKEUPS_GET, 5, S, PROTO_ROLE_NONE);
	check_at(-PROTO_E_UNEXPECTED, PROTO_WAKEUPS_GET, 5, C, PROTO_ROLE_OBSERVER);
	check_at(0, PROTO_WAKEUPS, 5, C, PROTO_ROLE_OBSERVER);
	check_at(-PROTO_E_UNEXPECTED, PROTO_WAKEUPS, 5, S, PROTO_ROLE_CONTROLLER);
	assert_string_equal(proto_cpus_run_name(PROTO_CPUS_UNKNOWN), "unknown");
	assert_string_equal(proto_cpus_run_name(PROTO_CPUS_TAKE_TURNS), "take-turns");
	assert_string_equal(proto_cpus_run_name(PROTO_CPUS_PARALLEL), "parallel");
	assert_string_equal(proto_cpus_run_name(200), "unknown");
}

/* The client's view of either answer: a 1.5 server says how the CPUs ran, a 1.4 one does
 * not, and its silence is not read as "unknown". */
static void test_client_view_by_minor(void **state)
{
	(void)state;
	struct kov_target t;
	struct proto_server_hello m = welcome(PROTO_CPUS_TAKE_TURNS);
	struct proto_frame f = parse(buf, proto_encode_server_hello_ex(buf, sizeof buf, 1, 0, &m));
	struct proto_server_hello d;
	assert_int_equal(proto_decode_any_server_hello(&f, &d), 0);
	kov_target_from_hello(&t, &d);
	assert_true(kov_target_reports_machine(&t));
	assert_string_equal(kov_cpus_run(&t), "take-turns");
	assert_non_null(strstr(kov_serial_note(&t), "serial machine"));
	t.cpus_run = PROTO_CPUS_PARALLEL;
	assert_string_equal(kov_cpus_run(&t), "parallel");
	assert_null(kov_serial_note(&t));
	t.cpus_run = PROTO_CPUS_UNKNOWN;
	assert_string_equal(kov_cpus_run(&t), "unknown");
	assert_null(kov_serial_note(&t));

	m = welcome(PROTO_CPUS_TAKE_TURNS);
	m.minor = 4;                         /* a 1.4 server: SERVER_HELLO */
	f = parse(buf, proto_encode_server_hello(buf, sizeof buf, 1, 0, &m));
	assert_int_equal(proto_decode_any_server_hello(&f, &d), 0);
	kov_target_from_hello(&t, &d);
	assert_false(kov_target_reports_machine(&t));
	assert_null(kov_cpus_run(&t));
	assert_null(kov_serial_note(&t));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_server_hello_ex_bytes),
		cmocka_unit_test(test_server_hello_ex_refused),
		cmocka_unit_test(test_wakeups_bytes),
		cmocka_unit_test(test_types),
		cmocka_unit_test(test_client_view_by_minor),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

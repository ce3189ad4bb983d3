/* SWAP and SWAPPED (proto/proto_swap.h, protocol 1.6): their bytes on the wire, the type
 * rules (SWAP from the controller only; SWAPPED from the server, never dropped), what each
 * refuses, and the result names. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include "proto/proto.h"
#include "proto/proto_swap.h"

static uint8_t buf[512];

static void swap_bytes(void **state)
{
	(void)state;
	struct proto_swap m = { 3, 0x1000002000000010ull, PROTO_STR("DCounter") };
	int n = proto_encode_swap(buf, sizeof buf, 5, 0, &m);
	static const uint8_t want[] = {
		0, 0, 0, 30, 0x02, 0x08, 0, 0, 0, 0, 0, 5,        /* length, type, flags, req */
		0, 0, 0, 3,                                        /* pid */
		0x10, 0, 0, 0x20, 0, 0, 0, 0x10,                  /* coid */
		0, 8, 'D', 'C', 'o', 'u', 'n', 't', 'e', 'r',     /* to */
	};
	assert_int_equal(n, sizeof want);
	assert_memory_equal(buf, want, sizeof want);
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_OBSERVER),
			 -PROTO_E_NOT_CONTROLLER);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_CONTROLLER), 0);
	assert_string_equal(proto_type_name(PROTO_SWAP), "SWAP");
}

static void swap_refusals(void **state)
{
	(void)state;
	struct proto_swap m = { 3, 0, PROTO_STR("DCounter") };   /* no object */
	assert_int_equal(proto_encode_swap(buf, sizeof buf, 1, 0, &m), -PROTO_E_INCONSISTENT);
	m = (struct proto_swap){ PROTO_PID_ALL, 0x10, PROTO_STR("DCounter") };
	assert_int_equal(proto_encode_swap(buf, sizeof buf, 1, 0, &m), -PROTO_E_INCONSISTENT);
	m = (struct proto_swap){ 3, 0x10, PROTO_STR("") };         /* no class */
	assert_int_equal(proto_encode_swap(buf, sizeof buf, 1, 0, &m), -PROTO_E_STRING);
	m.to = PROTO_STR("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef");      /* 32 bytes: one too many */
	assert_int_equal(proto_encode_swap(buf, sizeof buf, 1, 0, &m), -PROTO_E_STRING);
	/* A frame cut inside the class name, and one with a byte after it. */
	m.to = PROTO_STR("Counter");
	int n = proto_encode_swap(buf, sizeof buf, 1, 0, &m);
	struct proto_frame f;
	struct proto_swap got;
	buf[3] -= 1;
	assert_int_equal(proto_frame_parse(buf, (size_t)n - 1, &f), n - 1);
	assert_int_equal(proto_decode_swap(&f, &got), -PROTO_E_STRING);
	buf[3] += 2;
	buf[n] = 0;
	assert_int_equal(proto_frame_parse(buf, (size_t)n + 1, &f), n + 1);
	assert_int_equal(proto_decode_swap(&f, &got), -PROTO_E_TRAILING);
}

static void swapped_is_never_dropped(void **state)
{
	(void)state;
	struct proto_swapped m = { 3, 0x10, PROTO_SWAP_DRAIN_TIMEOUT, 9, 1, 2, 0, 0, 7, 0,
				   PROTO_STR("Counter"), PROTO_STR("DCounter") };
	int n = proto_encode_swapped(buf, sizeof buf, 0, 0, &m);
	assert_true(n > 0);
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_false(proto_droppable(PROTO_SWAPPED));
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_CLIENT, PROTO_ROLE_OBSERVER), 0);
	assert_int_equal(proto_check_incoming(&f, PROTO_SIDE_SERVER, PROTO_ROLE_CONTROLLER),
			 -PROTO_E_UNEXPECTED);
	m.result = PROTO_SWAP_RESULTS;
	assert_int_equal(proto_encode_swapped(buf, sizeof buf, 0, 0, &m), -PROTO_E_INCONSISTENT);
}

static void result_names(void **state)
{
	(void)state;
	assert_string_equal(proto_swap_result_name(PROTO_SWAP_OK), "swapped");
	assert_non_null(strstr(proto_swap_result_name(PROTO_SWAP_DRAIN_TIMEOUT), "timed out"));
	assert_string_equal(proto_swap_result_name(PROTO_SWAP_RESULTS), "unknown result");
	for (unsigned r = 0; r < PROTO_SWAP_RESULTS; r++)
		assert_non_null(proto_swap_result_name(r));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(swap_bytes),
		cmocka_unit_test(swap_refusals),
		cmocka_unit_test(swapped_is_never_dropped),
		cmocka_unit_test(result_names),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Host tests' scans: a kov_scan built by kov_scan_build from real SCAN_PROCESSES and
 * SCAN_OBJECTS frames (one of each), as the target would send them. */
#ifndef KOV_TEST_SCAN_FIXTURE_H
#define KOV_TEST_SCAN_FIXTURE_H

#include <stdlib.h>
#include <string.h>
#include "client/scan.h"

static void fx_keep(struct kov_answer *a, const uint8_t *buf, int n)
{
	assert_true(n > 0);
	struct kov_frame fr = { .bytes = malloc((size_t)n), .len = (uint32_t)n };
	assert_non_null(fr.bytes);
	memcpy(fr.bytes, buf, (size_t)n);
	assert_int_equal(proto_frame_parse(fr.bytes, (size_t)n, &fr.f), n);
	a->frames = realloc(a->frames, (a->count + 1) * sizeof *a->frames);
	assert_non_null(a->frames);
	a->frames[a->count++] = fr;
}

static void fx_scan(struct kov_scan *out, uint64_t timebase, const struct proto_process *procs,
		    size_t np, const struct proto_object *objs, size_t no)
{
	static uint8_t buf[PROTO_MAX_FRAME];
	struct kov_answer a = { 0 };
	struct proto_builder b;
	struct proto_scan_head h = { timebase };
	proto_begin_scan_processes(&b, buf, sizeof buf, 1, PROTO_F_MORE, &h);
	for (size_t i = 0; i < np; i++)
		assert_int_equal(proto_add_process(&b, &procs[i]), 0);
	fx_keep(&a, buf, proto_finish(&b));
	proto_begin_scan_objects(&b, buf, sizeof buf, 1, 0, &h);
	for (size_t i = 0; i < no; i++)
		assert_int_equal(proto_add_object(&b, &objs[i]), 0);
	fx_keep(&a, buf, proto_finish(&b));
	char err[200];
	assert_int_equal(kov_scan_build(&a, out, err, sizeof err), 0);
	kov_answer_free(&a);
}

/* A single-rep object with children (kref: COID and generation pairs). */
static struct proto_object fx_obj(uint32_t pid, uint64_t coid, uint32_t gen, const char *cls,
				  const struct proto_ref *kids, uint32_t n_kids)
{
	static const uint64_t rep = 0xc000000000100000ull;
	return (struct proto_object){ pid, gen, coid, 0xc000000000001000ull, PROTO_OBJ_SINGLE_REP,
				      proto_cstr(cls), { &rep, NULL, 1 }, { kids, NULL, n_kids } };
}

#endif

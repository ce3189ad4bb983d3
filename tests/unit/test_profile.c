/* Call stacks from a recording (gui/client/profile.c) and kovctl export's folded writer and
 * protobuf encoder: a synthetic recording with a program's symbols, its objects, a chain of
 * kernel and user frames and samples naming it (and one naming a chain never defined, one
 * without a chain) gives exactly the stacks its paths say; bad files and unknown events are
 * refused with a reason; the client library's chain table keeps chains by id; the speedscope
 * writer's document, byte for byte, and a name that is not UTF-8 written as valid JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/chains.h"
#include "client/profile.h"
#include "client/recording.h"
#include "kovctl/export_folded.c"
#include "kovctl/protobuf.c"
#include "kovctl/export_speedscope.c"

#define PID 5
/* What the hand-written writer before jansson wrote for this recording, byte for byte. */
static const char speedscope_want[] =
	"{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":\"kovct"
	"l export\",\"name\":\"KOV samples\",\"activeProfileIndex\":0,\"shared\":{\"frames\":[{\""
	"name\":\"prog\",\"file\":\"prog\"},{\"name\":\"main\",\"file\":\"prog\"},{\"name\":\"f\""
	",\"file\":\"prog\"},{\"name\":\"Thing::m\",\"file\":\"prog\"},{\"name\":\"kfn_[k]\",\"fi"
	"le\":\"kernel\"}]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"samples\",\"unit\":\"n"
	"one\",\"startValue\":0,\"endValue\":5,\"samples\":[[0,1,2,3,4],[0,2]],\"weights\":[3,2]}"
	"]}\n";
#define COID 0xD0000010ull
#define KFN 0xC000000000010000ull

static uint8_t buf[PROTO_MAX_FRAME];

static void write_frame(FILE *f, int len)
{
	struct proto_frame fr;
	assert_int_equal(proto_frame_parse(buf, (size_t)len, &fr), len);
	assert_true(kov_rec_write(f, 1, &fr));
}

static void put_symbols(FILE *f, uint32_t pid, const struct proto_symbol *s, int n)
{
	struct proto_builder b;
	struct proto_symbols_head h = { pid, PROTO_STR("p") };
	assert_int_equal(proto_begin_symbols(&b, buf, sizeof buf, 1, 0, &h), 0);
	for (int i = 0; i < n; i++)
		assert_int_equal(proto_add_symbol(&b, &s[i]), 0);
	write_frame(f, proto_finish(&b));
}

static struct proto_chain the_chain(void)
{
	struct proto_chain c = { .id = 1, .pid = PID, .depth = 4 };
	c.frames[0] = (struct proto_chain_frame){ 0, KFN + 8, 0, 0 };
	c.frames[1] = (struct proto_chain_frame){ PROTO_FRAME_USER | PROTO_FRAME_OBJECT, 0x1210, COID, 1 };
	c.frames[2] = (struct proto_chain_frame){ PROTO_FRAME_USER, 0x1120, 0, 0 };
	c.frames[3] = (struct proto_chain_frame){ PROTO_FRAME_USER, 0x1030, 0, 0 };
	return c;
}

/* A recording: processes, objects, symbols (kernel and program), one chain, five samples. */
static FILE *recording(void)
{
	FILE *f = tmpfile();
	assert_non_null(f);
	assert_true(kov_rec_begin(f));
	struct proto_builder b;
	struct proto_scan_head sh = { 1 };
	assert_int_equal(proto_begin_scan_processes(&b, buf, sizeof buf, 2, 0, &sh), 0);
	struct proto_process pr = { PID, 1, 1, PROTO_PS_RUNNING, PROTO_STR("prog") };
	assert_int_equal(proto_add_process(&b, &pr), 0);
	write_frame(f, proto_finish(&b));
	assert_int_equal(proto_begin_scan_objects(&b, buf, sizeof buf, 2, 0, &sh), 0);
	uint64_t reps[1] = { 0x10008000 };
	struct proto_object o = { PID, 1, COID, COID, PROTO_OBJ_SINGLE_REP, PROTO_STR("Thing"),
				  { reps, NULL, 1 }, { NULL, NULL, 0 } };
	assert_int_equal(proto_add_object(&b, &o), 0);
	write_frame(f, proto_finish(&b));
	struct proto_symbol user[] = {
		{ 0x1000, 0x1000, 0x100, PROTO_STR("main") },
		{ 0x1100, 0x1100, 0x100, PROTO_STR("f") },
		{ 0x1200, 0x1200, 0x100, PROTO_STR("m") },
	};
	put_symbols(f, PID, user, 3);
	struct proto_symbol kern[] = { { KFN, KFN, 0x40, PROTO_STR("kfn") } };
	put_symbols(f, 0, kern, 1);
	struct proto_samples_head h = { 1 };
	struct proto_chain c = the_chain();
	assert_int_equal(proto_begin_chains(&b, buf, sizeof buf, 0, 0, &h), 0);
	assert_int_equal(proto_add_chain(&b, &c), 0);
	write_frame(f, proto_finish(&b));
	assert_int_equal(proto_begin_samples_chained(&b, buf, sizeof buf, 0, 0, &h), 0);
	struct proto_sample s = { .pc = KFN + 8, .pid = PID, .flags = PROTO_SMP_KERNEL | PROTO_SMP_NO_OBJECT,
				  .event = 1, .period = 100, .chain_id = 1 };
	for (int i = 0; i < 3; i++)
		assert_int_equal(proto_add_sample_chained(&b, &s), 0);
	s.chain_id = 99;   /* never defined: the sample stands alone */
	s.flags = PROTO_SMP_USER | PROTO_SMP_NO_OBJECT;
	s.pc = 0x1104;
	assert_int_equal(proto_add_sample_chained(&b, &s), 0);
	s.chain_id = 0;
	s.event = 2;
	assert_int_equal(proto_add_sample_chained(&b, &s), 0);
	write_frame(f, proto_finish(&b));
	rewind(f);
	return f;
}

/* What an exporter writes for p, as one string (free it). */
static char *exported(int (*export)(const struct kov_profile *, FILE *), const struct kov_profile *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	assert_int_equal(export(p, m), 0);
	fclose(m);
	return text;
}

static void test_stacks(void **state)
{
	(void)state;
	FILE *f = recording();
	struct kov_profile p;
	char err[200];
	assert_int_equal(kov_profile_load(f, NULL, &p, err, sizeof err), 0);
	fclose(f);
	assert_int_equal(p.samples, 5);
	assert_int_equal(p.chained, 3);
	assert_int_equal(p.unknown_chain, 1);
	char *text = exported(export_folded, &p);
	assert_non_null(strstr(text, "prog;main;f;Thing::m;kfn_[k] 3\n"));
	assert_non_null(strstr(text, "prog;f 2\n"));
	free(text);
	/* The chain's stack: its events summed, its kernel frame marked, files by program. */
	for (size_t i = 0; i < p.n_stacks; i++) {
		const struct kov_profile_stack *s = &p.stacks[i];
		if (s->depth != 5)
			continue;
		assert_int_equal(s->events, 300);
		assert_true(kov_profile_kernel(&p, s->frames[4]));
		assert_false(kov_profile_kernel(&p, s->frames[3]));
		assert_string_equal(p.files[s->frames[4]], "kernel");
		assert_string_equal(p.files[s->frames[1]], "prog");
	}
	kov_profile_free(&p);
}

static void test_speedscope(void **state)
{
	(void)state;
	FILE *f = recording();
	struct kov_profile p;
	char err[200];
	assert_int_equal(kov_profile_load(f, NULL, &p, err, sizeof err), 0);
	fclose(f);
	char *text = exported(export_speedscope, &p);
	assert_string_equal(text, speedscope_want);
	free(text);
	/* A byte that is not UTF-8 becomes U+FFFD; quotes and control characters are escaped. */
	char bad[] = "a\xff\"b\n";
	char *keep = p.names[0];
	p.names[0] = bad;
	text = exported(export_speedscope, &p);
	assert_non_null(strstr(text, "{\"name\":\"a\xef\xbf\xbd\\\"b\\n\","));
	free(text);
	p.names[0] = keep;
	kov_profile_free(&p);
}

static void test_event_filter_and_errors(void **state)
{
	(void)state;
	FILE *f = recording();
	struct kov_profile p;
	char err[200];
	/* No catalogue in this recording: no event name is known. */
	assert_int_equal(kov_profile_load(f, "PM_CYC", &p, err, sizeof err), -1);
	assert_non_null(strstr(err, "event PM_CYC is not in the recording's catalogue"));
	fclose(f);
	f = tmpfile();
	fputs("not a recording at all", f);
	rewind(f);
	assert_int_equal(kov_profile_load(f, NULL, &p, err, sizeof err), -1);
	assert_string_equal(err, "not a KOV recording");
	fclose(f);
	/* A recording cut inside a frame. */
	f = recording();
	fseek(f, 0, SEEK_END);
	long size = ftell(f);
	char *copy = malloc((size_t)size);
	rewind(f);
	assert_int_equal(fread(copy, 1, (size_t)size, f), (size_t)size);
	fclose(f);
	f = tmpfile();
	fwrite(copy, 1, (size_t)size - 7, f);
	rewind(f);
	assert_int_equal(kov_profile_load(f, NULL, &p, err, sizeof err), -1);
	assert_non_null(strstr(err, "broken"));
	fclose(f);
	free(copy);
}

static void test_chain_table(void **state)
{
	(void)state;
	struct kov_chains t = { 0 };
	struct proto_builder b;
	struct proto_samples_head h = { 1 };
	struct proto_chain c = the_chain();
	assert_int_equal(proto_begin_chains(&b, buf, sizeof buf, 0, 0, &h), 0);
	for (int id = 300; id >= 1; id -= 7) {   /* out of order */
		c.id = (uint32_t)id;
		c.depth = (uint16_t)(1 + id % 4);
		assert_int_equal(proto_add_chain(&b, &c), 0);
	}
	int n = proto_finish(&b);
	struct proto_frame f;
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_int_equal(kov_chains_note(&t, &f), 0);
	assert_int_equal(t.n, 43);
	assert_null(kov_chains_get(&t, 2));
	const struct proto_chain *g = kov_chains_get(&t, 13);
	assert_non_null(g);
	assert_int_equal(g->depth, 1 + 13 % 4);
	/* A frame of another type is refused. */
	struct proto_start st = { PROTO_STREAM_SAMPLES, 0 };
	n = proto_encode_start(buf, sizeof buf, 1, 0, &st);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	assert_int_equal(kov_chains_note(&t, &f), -1);
	kov_chains_free(&t);
}

static void test_protobuf(void **state)
{
	(void)state;
	struct pb b = { 0 };
	pb_varint(&b, 300);            /* protobuf's encoding guide: 300 is ac 02 */
	pb_uint(&b, 1, 150);           /* field 1 = 150: 08 96 01 */
	pb_bytes(&b, 2, "testing", 7); /* field 2 = "testing": 12 07 74 65 73 74 69 6e 67 */
	static const uint8_t want[] = { 0xac, 0x02, 0x08, 0x96, 0x01, 0x12, 0x07, 't', 'e', 's',
					't', 'i', 'n', 'g' };
	assert_int_equal(b.len, sizeof want);
	assert_memory_equal(b.buf, want, sizeof want);
	pb_free(&b);
	/* gzip of "a": header, one final stored block, CRC-32 of "a" (e8b7be43), length 1. */
	char *z = NULL;
	size_t zl = 0;
	FILE *m = open_memstream(&z, &zl);
	assert_true(gzip_stored(m, (const uint8_t *)"a", 1));
	fclose(m);
	static const uint8_t gz[] = { 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 1, 1, 0, 0xfe, 0xff, 'a',
				      0x43, 0xbe, 0xb7, 0xe8, 1, 0, 0, 0 };
	assert_int_equal(zl, sizeof gz);
	assert_memory_equal(z, gz, sizeof gz);
	free(z);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stacks),
		cmocka_unit_test(test_speedscope),
		cmocka_unit_test(test_event_filter_and_errors),
		cmocka_unit_test(test_chain_table),
		cmocka_unit_test(test_protobuf),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

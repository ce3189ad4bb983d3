/* Loss accounting on the host (gui/client/losses.c), on frames made by the real codec: SAMPLES
 * counted, LOST_SAMPLES summed, DROPPED taken as the connection's running totals (a later
 * notice replaces an earlier one), a period's losses as the difference of two totals, discards
 * known only when both ends knew them, and the one-line text. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <setjmp.h>
#include <cmocka.h>
#include "client/losses.h"

static uint8_t buf[PROTO_MAX_FRAME];

static struct proto_frame parse(int n)
{
	struct proto_frame f;
	assert_true(n > 0);
	assert_int_equal(proto_frame_parse(buf, (size_t)n, &f), n);
	return f;
}

static struct proto_frame samples_frame(int count)
{
	struct proto_builder b;
	struct proto_samples_head h = { 1 };
	proto_begin_samples(&b, buf, sizeof buf, 0, 0, &h);
	for (int i = 0; i < count; i++) {
		struct proto_sample s = { .timebase = 10 + (uint64_t)i, .pc = 0x1000, .pid = 3,
					  .flags = PROTO_SMP_USER | PROTO_SMP_NO_OBJECT };
		assert_int_equal(proto_add_sample(&b, &s), 0);
	}
	return parse(proto_finish(&b));
}

static struct proto_frame lost_frame(uint64_t a, uint64_t b2)
{
	struct proto_builder b;
	struct proto_interval h = { 100, 200 };
	proto_begin_lost_samples(&b, buf, sizeof buf, 0, 0, &h);
	struct proto_lost l1 = { 0, 1, 1, a }, l2 = { 1, 1, 1, b2 };
	proto_add_lost(&b, &l1);
	proto_add_lost(&b, &l2);
	return parse(proto_finish(&b));
}

static struct proto_frame dropped_frame(uint64_t sample_frames, uint64_t sample_recs,
					uint64_t count_frames, uint64_t count_recs)
{
	struct proto_builder b;
	struct proto_dropped_head h = { sample_frames + count_frames, 1000,
					sample_recs + count_recs };
	proto_begin_dropped(&b, buf, sizeof buf, 0, 0, &h);
	struct proto_drop d1 = { PROTO_SAMPLES, sample_frames, sample_recs };
	struct proto_drop d2 = { PROTO_INTERVAL_COUNTS, count_frames, count_recs };
	proto_add_drop(&b, &d1);
	if (count_frames)
		proto_add_drop(&b, &d2);
	return parse(proto_finish(&b));
}

static struct proto_frame status_frame(bool ex, uint64_t discarded)
{
	struct proto_status st = { .timebase = 1, .clients = 1, .samples_discarded = discarded };
	return parse(ex ? proto_encode_status_ex(buf, sizeof buf, 0, 0, &st)
			: proto_encode_status(buf, sizeof buf, 0, 0, &st));
}

static void counts_samples_lost_and_dropped(void **state)
{
	(void)state;
	struct kov_losses l = { 0 };
	struct proto_frame f = samples_frame(5);
	kov_losses_note(&l, &f);
	f = lost_frame(3, 4);
	kov_losses_note(&l, &f);
	f = dropped_frame(2, 2000, 0, 0);
	kov_losses_note(&l, &f);
	assert_int_equal(l.samples, 5);
	assert_int_equal(l.lost, 7);
	assert_int_equal(l.dropped_frames, 2);
	assert_int_equal(l.dropped[KOV_DROP_SAMPLES], 2000);
	/* DROPPED carries totals: the next notice replaces, it does not add. */
	f = dropped_frame(3, 2500, 1, 8);
	kov_losses_note(&l, &f);
	assert_int_equal(l.dropped_frames, 4);
	assert_int_equal(l.dropped_records, 2508);
	assert_int_equal(l.dropped[KOV_DROP_SAMPLES], 2500);
	assert_int_equal(l.dropped[KOV_DROP_COUNTS], 8);
	assert_int_equal(kov_losses_missing_samples(&l), 7 + 2500);
	assert_true(kov_losses_any(&l));
}

static void a_period_is_a_difference(void **state)
{
	(void)state;
	struct kov_losses l = { 0 };
	struct proto_frame f = dropped_frame(1, 100, 0, 0);
	kov_losses_note(&l, &f);
	f = lost_frame(1, 1);
	kov_losses_note(&l, &f);
	struct kov_losses then = l;
	f = samples_frame(9);
	kov_losses_note(&l, &f);
	struct kov_losses d = kov_losses_since(&l, &then);
	assert_false(d.discarded_known);
	assert_int_equal(d.samples, 9);
	assert_false(kov_losses_any(&d));   /* the losses were all before the period */
	char text[200];
	kov_losses_text(&d, text, sizeof text);
	assert_string_equal(text, "nothing lost (discards not reported by this target)");
	f = dropped_frame(2, 250, 0, 0);
	kov_losses_note(&l, &f);
	d = kov_losses_since(&l, &then);
	assert_int_equal(d.dropped_frames, 1);
	assert_int_equal(d.dropped[KOV_DROP_SAMPLES], 150);
	/* Discards: a 1.2 target's STATUS does not say; a STATUS_EX gives the daemon's total, of
	 * which a period counts what came after its start. */
	f = status_frame(false, 0);
	kov_losses_note(&l, &f);
	assert_false(l.discarded_known);
	f = status_frame(true, 20);
	kov_losses_note(&l, &f);
	assert_true(l.discarded_known);
	assert_int_equal(l.discarded, 0);        /* counted from the first STATUS_EX seen */
	then = l;
	f = status_frame(true, 50);
	kov_losses_note(&l, &f);
	assert_int_equal(l.discarded, 30);
	d = kov_losses_since(&l, &then);
	assert_true(d.discarded_known);
	assert_int_equal(d.discarded, 30);
	kov_losses_text(&d, text, sizeof text);
	assert_string_equal(text, "30 samples discarded with no client taking them");
	assert_int_equal(kov_losses_missing_samples(&d), 30);
}

static void text_is_cut_safely(void **state)
{
	(void)state;
	struct kov_losses l = { .lost = 12, .dropped_frames = 3, .dropped = { 1480, 2, 0, 0 },
				.discarded = 40, .discarded_known = true };
	char text[300];
	int n = kov_losses_text(&l, text, sizeof text);
	assert_string_equal(text, "12 samples lost by the target's rings; 3 frames dropped by the "
			    "daemon's queue (1480 samples, 2 interval counts); 40 samples discarded "
			    "with no client taking them");
	assert_int_equal(n, (int)strlen(text));
	char small[16];
	memset(small, 'x', sizeof small);
	kov_losses_text(&l, small, sizeof small);
	assert_int_equal(strlen(small), sizeof small - 1);
	kov_losses_text(&l, NULL, 0);   /* nothing written, nothing read outside */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_samples_lost_and_dropped),
		cmocka_unit_test(a_period_is_a_difference),
		cmocka_unit_test(text_is_cut_safely),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

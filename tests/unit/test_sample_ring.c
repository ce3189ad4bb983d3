/* Sample ring: wraparound (of the storage and of the 32-bit indices), exact loss counting,
 * the growth policy, moving to new storage, and a two-thread producer/consumer stress in which
 * every sample is either delivered in order, intact, or counted lost. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <cmocka.h>
#include "common/monitor/sample_ring.h"

/* A sample whose every field derives from its sequence number, so damage shows. */
static struct km_sample make(uint64_t seq)
{
	return (struct km_sample){ .timebase = seq, .pc = seq * 4 + 0xC000000000000000ull,
		.object = ~seq, .config_id = (uint32_t)(seq * 7), .pid = (uint32_t)(seq >> 3),
		.tid = (uint32_t)seq ^ 0x5a5a5a5au, .cpu = (uint16_t)(seq % 4),
		.event = (uint16_t)(seq % 43), .flags = seq & 1 ? KM_SMP_USER : KM_SMP_KERNEL };
}

static bool intact(const struct km_sample *s)
{
	struct km_sample want = make(s->timebase);
	return memcmp(s, &want, sizeof want) == 0;
}

static void test_init(void **state)
{
	(void)state;
	struct sample_ring r;
	struct km_sample slots[8];
	assert_int_equal(sample_ring_init(&r, slots, 0), -1);
	assert_int_equal(sample_ring_init(&r, slots, 6), -1);
	assert_int_equal(sample_ring_init(&r, NULL, 8), -1);
	assert_int_equal(sample_ring_init(&r, slots, 8), 0);
	assert_int_equal(sample_ring_count(&r), 0);
	assert_int_equal(sample_ring_lost(&r), 0);
	struct km_sample out[8];
	uint64_t lost = 99;
	assert_int_equal(sample_ring_drain(&r, out, 8, &lost), 0);
	assert_int_equal(lost, 0);
	assert_int_equal(sample_ring_drain(&r, NULL, 0, NULL), 0);
}

/* Peeking: the oldest samples in place as two runs when they cross the storage's end, oldest
 * first; changes made to them are what a later copy sees; nothing leaves the ring before it is
 * released, and release reports the losses as a drain does. */
static void test_peek_release(void **state)
{
	(void)state;
	struct sample_ring r;
	struct km_sample slots[8], *run[2];
	uint32_t len[2];
	uint64_t lost = 99, seq = 0;
	assert_int_equal(sample_ring_init(&r, slots, 8), 0);
	assert_int_equal(sample_ring_peek(&r, 8, run, len), 0);
	assert_int_equal(len[0] + len[1], 0);
	for (int i = 0; i < 6; i++)
		assert_true(sample_ring_push(&r, &(struct km_sample){ 0 }));
	sample_ring_release(&r, sample_ring_peek(&r, 8, run, len), &lost);   /* tail at 6 */
	assert_int_equal(lost, 0);
	for (int i = 0; i < 8; i++) {
		struct km_sample s = make(seq++);
		assert_true(sample_ring_push(&r, &s));
	}
	assert_false(sample_ring_push(&r, &(struct km_sample){ 0 }));   /* full: one lost */
	assert_int_equal(sample_ring_peek(&r, 5, run, len), 5);
	assert_int_equal(len[0], 2);
	assert_int_equal(len[1], 3);
	assert_ptr_equal(run[0], &slots[6]);
	assert_ptr_equal(run[1], &slots[0]);
	assert_int_equal(sample_ring_peek(&r, 100, run, len), 8);
	assert_int_equal(len[0] + len[1], 8);
	for (uint32_t k = 0, at = 0; k < 2; k++)
		for (uint32_t i = 0; i < len[k]; i++, at++) {
			assert_true(intact(&run[k][i]));
			assert_int_equal(run[k][i].timebase, at);
		}
	run[1][1].depth = 7;   /* the consumer's to change: a drain copies it as changed */
	assert_int_equal(sample_ring_count(&r), 8);
	sample_ring_release(&r, 3, &lost);
	assert_int_equal(lost, 1);
	assert_int_equal(sample_ring_count(&r), 5);
	struct km_sample out[8];
	assert_int_equal(sample_ring_drain(&r, out, 8, &lost), 5);
	assert_int_equal(lost, 0);
	assert_int_equal(out[0].timebase, 3);
	assert_int_equal(out[0].depth, 7);
	assert_true(sample_ring_push(&r, &(struct km_sample){ 0 }));
}

/* Pushes and drains in uneven steps over the end of the storage, many times, and across the
 * 2^32 wrap of the free-running indices. */
static void test_wraparound(void **state)
{
	(void)state;
	struct sample_ring r;
	struct km_sample slots[8], out[8];
	uint64_t pushed = 0, drained = 0;
	for (int variant = 0; variant < 2; variant++) {
		assert_int_equal(sample_ring_init(&r, slots, 8), 0);
		if (variant == 1)
			r.head = r.tail = 0xFFFFFFF0u;     /* 16 samples before the index wrap */
		for (int round = 0; round < 200; round++) {
			int in = 1 + round % 8, take = 1 + (round * 5) % 8;
			for (int i = 0; i < in && sample_ring_count(&r) < 8; i++) {
				struct km_sample s = make(pushed++);
				assert_true(sample_ring_push(&r, &s));
			}
			uint32_t n = sample_ring_drain(&r, out, (uint32_t)take, NULL);
			for (uint32_t i = 0; i < n; i++) {
				assert_int_equal(out[i].timebase, drained++);
				assert_true(intact(&out[i]));
			}
		}
		uint32_t n = sample_ring_drain(&r, out, 8, NULL);
		for (uint32_t i = 0; i < n; i++)
			assert_int_equal(out[i].timebase, drained++);
		assert_int_equal(pushed, drained);
		assert_int_equal(sample_ring_lost(&r), 0);
	}
}

static void test_full_counts_lost(void **state)
{
	(void)state;
	struct sample_ring r;
	struct km_sample slots[4], out[8];
	uint64_t lost;
	sample_ring_init(&r, slots, 4);
	for (uint64_t i = 0; i < 10; i++) {
		struct km_sample s = make(i);
		assert_int_equal(sample_ring_push(&r, &s), i < 4);
	}
	assert_int_equal(sample_ring_count(&r), 4);
	assert_int_equal(sample_ring_lost(&r), 6);
	/* The four that fitted are the oldest, complete and in order. */
	assert_int_equal(sample_ring_drain(&r, out, 2, &lost), 2);
	assert_int_equal(lost, 6);
	assert_int_equal(sample_ring_drain(&r, out + 2, 8, &lost), 2);
	assert_int_equal(lost, 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(out[i].timebase, (uint64_t)i);
		assert_true(intact(&out[i]));
	}
	/* Room again: pushes succeed; losses are counted per drain, totals kept. */
	struct km_sample s = make(10);
	assert_true(sample_ring_push(&r, &s));
	for (int i = 0; i < 5; i++)
		sample_ring_push(&r, &s);
	assert_int_equal(sample_ring_drain(&r, out, 8, &lost), 4);
	assert_int_equal(lost, 2);
	assert_int_equal(sample_ring_lost(&r), 8);
}

static void test_next_capacity(void **state)
{
	(void)state;
	assert_int_equal(sample_ring_next_capacity(64, 10, 0, 1024), 64);      /* lost nothing */
	assert_int_equal(sample_ring_next_capacity(64, 16, 0, 1024), 64);      /* a quarter: enough */
	assert_int_equal(sample_ring_next_capacity(64, 17, 0, 1024), 128);     /* more: doubles */
	assert_int_equal(sample_ring_next_capacity(64, 64, 0, 1024), 128);
	assert_int_equal(sample_ring_next_capacity(64, 0, 1, 1024), 128);      /* at least double */
	assert_int_equal(sample_ring_next_capacity(64, 64, 64, 1024), 128);    /* 128 would have held */
	assert_int_equal(sample_ring_next_capacity(64, 64, 65, 1024), 256);
	assert_int_equal(sample_ring_next_capacity(64, 64, 100000, 1024), 1024);   /* the cap */
	assert_int_equal(sample_ring_next_capacity(64, 64, 1000, 1000), 512);  /* cap rounded down */
	assert_int_equal(sample_ring_next_capacity(1024, 1024, 5, 1024), 1024);  /* at the cap */
	assert_int_equal(sample_ring_next_capacity(1024, 1000, 0, 1024), 1024);
	assert_int_equal(sample_ring_next_capacity(64, 64, 5, 32), 64);        /* never shrinks */
	assert_int_equal(sample_ring_next_capacity(64, 64, 5, 0), 64);
	assert_int_equal(sample_ring_next_capacity(0x80000000u, 0, 1, 0xFFFFFFFFu), 0x80000000u);
	assert_int_equal(sample_ring_next_capacity(0x40000000u, 0, UINT64_MAX, 0xFFFFFFFFu),
		0x80000000u);
}

/* The growth step: drain, compute the new size, move to new storage. */
static void test_grow(void **state)
{
	(void)state;
	struct sample_ring r;
	static struct km_sample small[4], big[16], out[16];
	uint64_t lost;
	sample_ring_init(&r, small, 4);
	for (uint64_t i = 0; i < 9; i++) {
		struct km_sample s = make(i);
		sample_ring_push(&r, &s);
	}
	assert_int_equal(sample_ring_drain(&r, out, 16, &lost), 4);
	assert_int_equal(lost, 5);
	uint32_t cap = sample_ring_next_capacity(r.capacity, 4, lost, 16);
	assert_int_equal(cap, 16);                                /* 4 + 5 -> 16 */
	assert_int_equal(sample_ring_move(&r, big, 12), -1);      /* not a power of two */
	assert_int_equal(sample_ring_move(&r, big, cap), 0);
	for (uint64_t i = 0; i < 16; i++) {
		struct km_sample s = make(100 + i);
		assert_true(sample_ring_push(&r, &s));
	}
	assert_int_equal(sample_ring_drain(&r, out, 16, &lost), 16);
	assert_int_equal(lost, 0);
	assert_int_equal(out[15].timebase, 115);
	assert_int_equal(sample_ring_lost(&r), 5);
}

/* A ring that never empties (filled faster than it is moved) moves with its samples: in
 * order across the old storage's wrap, the lost count kept, nothing lost or repeated. */
static void test_move_keeps_samples(void **state)
{
	(void)state;
	struct sample_ring r;
	static struct km_sample small[8], tiny[2], big[32], out[32];
	uint64_t lost, seq = 0;
	sample_ring_init(&r, small, 8);
	for (int i = 0; i < 6; i++) {   /* the tail moves to 6: what is held next wraps */
		struct km_sample s = make(seq++);
		sample_ring_push(&r, &s);
	}
	assert_int_equal(sample_ring_drain(&r, out, 32, &lost), 6);
	for (int i = 0; i < 9; i++) {   /* 8 held, from slot 6 round to slot 5; one lost */
		struct km_sample s = make(seq++);
		sample_ring_push(&r, &s);
	}
	assert_int_equal(sample_ring_move(&r, tiny, 2), -1);     /* would not hold them */
	assert_int_equal(sample_ring_count(&r), 8);
	assert_int_equal(sample_ring_move(&r, big, 32), 0);
	assert_int_equal(sample_ring_count(&r), 8);
	for (int i = 0; i < 24; i++) {   /* fills the rest of the new storage exactly */
		struct km_sample s = make(100 + (uint64_t)i);
		assert_true(sample_ring_push(&r, &s));
	}
	struct km_sample s = make(999);
	assert_false(sample_ring_push(&r, &s));
	assert_int_equal(sample_ring_drain(&r, out, 32, &lost), 32);
	assert_int_equal(lost, 2);   /* the one before the move and the one after it */
	for (int i = 0; i < 8; i++)
		assert_int_equal(out[i].timebase, 6 + i);
	for (int i = 0; i < 24; i++)
		assert_int_equal(out[8 + i].timebase, 100 + i);
	assert_int_equal(sample_ring_lost(&r), 2);
}

/* ---- two threads ------------------------------------------------------------------------- */

#define STRESS_SAMPLES 1000000u
#define STRESS_CAPACITY 256u

static struct sample_ring stress_ring;
static struct km_sample stress_slots[STRESS_CAPACITY];
static int producer_done;

/* Like the overflow interrupt, the producer never waits for room; paced a little. With
 * `polite` it yields the CPU after a refused push, so that on a busy host the consumer gets to
 * run and most samples cross the ring while both threads are active. */
static void *producer(void *polite)
{
	for (uint64_t seq = 0; seq < STRESS_SAMPLES; seq++) {
		struct km_sample s = make(seq);
		if (!sample_ring_push(&stress_ring, &s) && polite)
			sched_yield();
		for (volatile int spin = 0; spin < 30; spin++)
			;
	}
	__atomic_store_n(&producer_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void stress(bool polite)
{
	static struct km_sample out[STRESS_CAPACITY];
	pthread_t t;
	uint64_t delivered = 0, lost_reported = 0, gaps = 0, lost;
	int64_t last = -1;
	unsigned round = 0;

	sample_ring_init(&stress_ring, stress_slots, STRESS_CAPACITY);
	producer_done = 0;
	assert_int_equal(pthread_create(&t, NULL, producer, polite ? &stress_ring : NULL), 0);
	for (;;) {
		bool done = __atomic_load_n(&producer_done, __ATOMIC_ACQUIRE);
		uint32_t max = 1 + (round++ * 37) % STRESS_CAPACITY;   /* bulk drains, varied */
		uint32_t n = sample_ring_drain(&stress_ring, out, max, &lost);
		lost_reported += lost;
		for (uint32_t i = 0; i < n; i++) {
			int64_t seq = (int64_t)out[i].timebase;
			assert_true(seq > last);          /* in order, never twice */
			assert_true(intact(&out[i]));     /* never torn */
			gaps += (uint64_t)(seq - last - 1);
			last = seq;
		}
		/* A pause every 20000 samples lets the producer fill the ring. */
		if (delivered / 20000 != (delivered + n) / 20000) {
			struct timespec ts = { 0, 20000 };
			nanosleep(&ts, NULL);
		}
		delivered += n;
		if (done && n == 0)
			break;
	}
	assert_int_equal(pthread_join(t, NULL), 0);
	assert_int_equal(sample_ring_drain(&stress_ring, out, STRESS_CAPACITY, &lost), 0);
	lost_reported += lost;
	gaps += STRESS_SAMPLES - 1 - (uint64_t)last;

	uint64_t total_lost = sample_ring_lost(&stress_ring);
	print_message("stress (%s producer): %u produced, %llu delivered, %llu lost\n",
		polite ? "yielding" : "never waiting", STRESS_SAMPLES,
		(unsigned long long)delivered, (unsigned long long)total_lost);
	assert_int_equal(delivered + total_lost, STRESS_SAMPLES);
	assert_int_equal(gaps, total_lost);              /* each missing number was counted */
	assert_int_equal(lost_reported, total_lost);     /* and reported by exactly one drain */
	assert_true(delivered > 0);
}

static void test_two_thread_stress(void **state)
{
	(void)state;
	stress(false);
	stress(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_wraparound),
		cmocka_unit_test(test_peek_release),
		cmocka_unit_test(test_full_counts_lost),
		cmocka_unit_test(test_next_capacity),
		cmocka_unit_test(test_move_keeps_samples),
		cmocka_unit_test(test_grow),
		cmocka_unit_test(test_two_thread_stress),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

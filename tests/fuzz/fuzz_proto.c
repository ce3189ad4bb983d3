/* libFuzzer target: the wire protocol in both directions. The input is a byte stream as TCP
 * would deliver it (its first byte picks the receiving side, the peer's role and the size of
 * the pieces it arrives in). Every frame the streaming reader produces goes through the
 * receiver's rules (proto_check_incoming) and full validation; a frame that validates must
 * encode back to exactly its own bytes (decode and encode agree on every field), and the
 * client's consumers (the scan tree builder, the lock table) take the server's frames. A
 * frame that does not validate must be refused with what is wrong with it: INTERNAL says the
 * codec failed, so for input that is merely malformed it is a finding (abort()). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "proto/proto.h"
#include "proto/proto_swap.h"
#include "proto/proto_throttle.h"
#include "proto/proto_platform.h"
#include "client/scan.h"
#include "client/lockstat.h"

#define FAIL(what) do { fprintf(stderr, "fuzz_proto: %s (type 0x%04x)\n", what, f->type); abort(); } while (0)

static uint8_t out[PROTO_MAX_FRAME];

/* A list message read back through its iterator and rebuilt record by record. */
#define REBUILD(decode, next, begin, add, head_t, rec_t)                                 \
	do {                                                                              \
		head_t h;                                                                 \
		rec_t rec;                                                                \
		struct proto_iter it;                                                     \
		struct proto_builder b;                                                   \
		if (decode(f, &h, &it))                                                   \
			FAIL("a validated frame does not decode");                        \
		if (begin(&b, out, sizeof out, f->req, f->flags, &h))                     \
			FAIL("the decoded head does not encode");                         \
		while (next(&it, &rec))                                                   \
			if (add(&b, &rec))                                                \
				FAIL("a decoded record does not encode");                 \
		n = proto_finish(&b);                                                     \
	} while (0)

/* Encodes the decoded frame again: the same bytes, or abort(). */
static void roundtrip(const struct proto_frame *f)
{
	static union {
		struct proto_hello hello;
		struct proto_server_hello server_hello;
		struct proto_error_msg error;
		struct proto_ping ping;
		struct proto_pong pong;
		struct proto_claim claim;
		struct proto_status status;
		struct proto_wakeups wakeups;
		struct proto_scan_request scan;
		struct proto_symbol_query symq;
		struct proto_pmu_config config;
		struct proto_start start;
		struct proto_instrument instrument;
		struct proto_swap swap;
		struct proto_swapped swapped;
		struct proto_throttle_set throttle_set;
		struct proto_throttle throttle;
	} m;
	int n;
#define FIXED(decode, encode, field)                                           \
	do {                                                                   \
		if (decode(f, &m.field))                                       \
			FAIL("a validated frame does not decode");             \
		n = encode(out, sizeof out, f->req, f->flags, &m.field);      \
	} while (0)
	switch (f->type) {
	case PROTO_HELLO: FIXED(proto_decode_hello, proto_encode_hello, hello); break;
	case PROTO_SERVER_HELLO: FIXED(proto_decode_server_hello, proto_encode_server_hello, server_hello); break;
	case PROTO_ERROR: FIXED(proto_decode_error, proto_encode_error, error); break;
	case PROTO_PING: FIXED(proto_decode_ping, proto_encode_ping, ping); break;
	case PROTO_PONG: FIXED(proto_decode_pong, proto_encode_pong, pong); break;
	case PROTO_CLAIM_CONTROL: FIXED(proto_decode_claim, proto_encode_claim, claim); break;
	case PROTO_SERVER_HELLO_EX: FIXED(proto_decode_server_hello_ex, proto_encode_server_hello_ex, server_hello); break;
	case PROTO_STATUS: FIXED(proto_decode_status, proto_encode_status, status); break;
	case PROTO_STATUS_EX: FIXED(proto_decode_status_ex, proto_encode_status_ex, status); break;
	case PROTO_WAKEUPS: FIXED(proto_decode_wakeups, proto_encode_wakeups, wakeups); break;
	case PROTO_SCAN_REQUEST: FIXED(proto_decode_scan_request, proto_encode_scan_request, scan); break;
	case PROTO_SYMBOL_TABLE_GET: FIXED(proto_decode_symbol_table_get, proto_encode_symbol_table_get, symq); break;
	case PROTO_PMU_CONFIG: FIXED(proto_decode_pmu_config, proto_encode_pmu_config, config); break;
	case PROTO_START: FIXED(proto_decode_start, proto_encode_start, start); break;
	case PROTO_INSTRUMENT: FIXED(proto_decode_instrument, proto_encode_instrument, instrument); break;
	case PROTO_SWAP: FIXED(proto_decode_swap, proto_encode_swap, swap); break;
	case PROTO_SWAPPED: FIXED(proto_decode_swapped, proto_encode_swapped, swapped); break;
	case PROTO_THROTTLE_SET: FIXED(proto_decode_throttle_set, proto_encode_throttle_set, throttle_set); break;
	case PROTO_THROTTLE: FIXED(proto_decode_throttle, proto_encode_throttle, throttle); break;
	case PROTO_OK:
	case PROTO_STATUS_GET:
	case PROTO_WAKEUPS_GET:
	case PROTO_THROTTLE_GET:
	case PROTO_CATALOGUE_GET:
	case PROTO_CONFIG_GET:
	case PROTO_STOP:
	case PROTO_POWER_OFF:
	case PROTO_REBOOT:
	case PROTO_PLATFORM_GET:
		n = proto_encode_empty(out, sizeof out, f->type, f->req, f->flags);
		break;
	case PROTO_DROPPED:
		REBUILD(proto_decode_dropped, proto_next_drop, proto_begin_dropped, proto_add_drop,
			struct proto_dropped_head, struct proto_drop);
		break;
	case PROTO_PLATFORM:
		REBUILD(proto_decode_platform, proto_next_platform_path, proto_begin_platform,
			proto_add_platform_path, struct proto_platform_head, struct proto_platform_path);
		break;
	case PROTO_SCAN_PROCESSES:
		REBUILD(proto_decode_scan_processes, proto_next_process, proto_begin_scan_processes,
			proto_add_process, struct proto_scan_head, struct proto_process);
		break;
	case PROTO_SCAN_OBJECTS:
		REBUILD(proto_decode_scan_objects, proto_next_object, proto_begin_scan_objects,
			proto_add_object, struct proto_scan_head, struct proto_object);
		break;
	case PROTO_SYMBOL_LOOKUP:
		REBUILD(proto_decode_symbol_lookup, proto_next_address, proto_begin_symbol_lookup,
			proto_add_address, struct proto_symbol_query, uint64_t);
		break;
	case PROTO_SYMBOLS:
		REBUILD(proto_decode_symbols, proto_next_symbol, proto_begin_symbols, proto_add_symbol,
			struct proto_symbols_head, struct proto_symbol);
		break;
	case PROTO_EVENT_CATALOGUE:
		REBUILD(proto_decode_event_catalogue, proto_next_event, proto_begin_event_catalogue,
			proto_add_event, struct proto_catalogue_head, struct proto_event);
		break;
	case PROTO_SAMPLES:
		REBUILD(proto_decode_samples, proto_next_sample, proto_begin_samples, proto_add_sample,
			struct proto_samples_head, struct proto_sample);
		break;
	case PROTO_INTERVAL_COUNTS:
		REBUILD(proto_decode_interval_counts, proto_next_count, proto_begin_interval_counts,
			proto_add_count, struct proto_counts_head, struct proto_count);
		break;
	case PROTO_LOCK_STATS:
		REBUILD(proto_decode_lock_stats, proto_next_lock, proto_begin_lock_stats,
			proto_add_lock, struct proto_interval, struct proto_lock);
		break;
	case PROTO_LOCK_CONTENTION:
		REBUILD(proto_decode_lock_contention, proto_next_lock_contention,
			proto_begin_lock_contention, proto_add_lock_contention, struct proto_interval,
			struct proto_lock);
		break;
	case PROTO_INVOCATIONS:
		REBUILD(proto_decode_invocations, proto_next_invocation, proto_begin_invocations,
			proto_add_invocation, struct proto_interval, struct proto_invocation);
		break;
	case PROTO_LOST_SAMPLES:
		REBUILD(proto_decode_lost_samples, proto_next_lost, proto_begin_lost_samples,
			proto_add_lost, struct proto_interval, struct proto_lost);
		break;
	case PROTO_CHAINS:
		REBUILD(proto_decode_chains, proto_next_chain, proto_begin_chains, proto_add_chain,
			struct proto_samples_head, struct proto_chain);
		break;
	case PROTO_SAMPLES_CHAINED:
		REBUILD(proto_decode_samples_chained, proto_next_sample_chained,
			proto_begin_samples_chained, proto_add_sample_chained,
			struct proto_samples_head, struct proto_sample);
		break;
	case PROTO_SAMPLES_PACKED:
		REBUILD(proto_decode_samples_packed, proto_next_sample_packed,
			proto_begin_samples_packed, proto_add_sample_packed,
			struct proto_samples_head, struct proto_sample);
		break;
	default:
		FAIL("a type proto_validate accepted has no encoder here");
	}
	if (n < 0)
		FAIL("a validated frame does not encode");
	if ((uint32_t)n != PROTO_HEADER_SIZE + f->size)
		FAIL("encoding gives another size");
	if (memcmp(out, f->payload - PROTO_HEADER_SIZE, (size_t)n) != 0)
		FAIL("encoding gives other bytes");
}

static void not_internal(const struct proto_frame *f)
{
	FAIL("a malformed frame is answered INTERNAL");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	enum proto_side side = data[0] & 1 ? PROTO_SIDE_CLIENT : PROTO_SIDE_SERVER;
	enum proto_role role = (enum proto_role)((data[0] >> 1) % 3);
	size_t piece = ((size_t)data[0] >> 3) * 7 + 1;
	data++;
	size--;

	static uint8_t rbuf[PROTO_MAX_FRAME];
	struct proto_reader r;
	proto_reader_init(&r, rbuf, sizeof rbuf);
	struct kov_answer scan = { 0 };
	static struct kov_lock_table locks;
	memset(&locks, 0, sizeof locks);
	for (size_t at = 0; at < size;) {
		const uint8_t *p = data + at;
		size_t left = size - at < piece ? size - at : piece;
		at += left;
		struct proto_frame f;
		int rc;
		while ((rc = proto_reader_feed(&r, &p, &left, &f)) == 1) {
			int err = proto_check_incoming(&f, side, role);
			if (err != -PROTO_E_INTERNAL)
				err = proto_validate(&f);
			if (err == -PROTO_E_INTERNAL)
				not_internal(&f);
			if (err != 0)
				continue;
			roundtrip(&f);
			if (side != PROTO_SIDE_CLIENT)
				continue;
			kov_lock_table_add(&locks, &f);
			if ((f.type == PROTO_SCAN_PROCESSES || f.type == PROTO_SCAN_OBJECTS) && scan.count < 64) {
				struct kov_frame *fr = realloc(scan.frames, (scan.count + 1) * sizeof *fr);
				if (!fr)
					abort();
				scan.frames = fr;
				uint32_t len = PROTO_HEADER_SIZE + f.size;
				fr[scan.count].bytes = malloc(len);
				memcpy(fr[scan.count].bytes, f.payload - PROTO_HEADER_SIZE, len);
				fr[scan.count].len = len;
				proto_frame_parse(fr[scan.count].bytes, len, &fr[scan.count].f);
				scan.count++;
			}
		}
		if (rc == -PROTO_E_INTERNAL)
			abort();         /* the reader only frames: a bad prefix has its own errors */
		if (rc < 0)
			break;
	}
	if (scan.count) {
		struct kov_scan s;
		char err[200];
		if (kov_scan_build(&scan, &s, err, sizeof err) == 0) {
			for (size_t i = 0; i < s.n_objects; i++)
				for (uint32_t c = 0; c < s.objects[i].n_children; c++)
					kov_scan_find_child(&s, &s.objects[i], c);
			kov_scan_free(&s);
		}
		kov_answer_free(&scan);
	}
	return 0;
}

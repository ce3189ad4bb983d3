/* Validation of a frame of any type: the daemon checks a frame once before dispatching on
 * its type, and the tests run every mutated frame through here. */
#include "dci/proto.h"

/* Every record is read back through the iterator too, so nothing a decoder accepted can
 * trip the iterator later. */
#define WALK(decode, next, head_t, rec_t)                                \
	do {                                                             \
		head_t h;                                                \
		rec_t rec;                                               \
		struct proto_iter it;                                    \
		int err = decode(f, &h, &it);                            \
		if (err)                                                 \
			return err;                                      \
		uint32_t n = proto_iter_left(&it);                       \
		while (next(&it, &rec))                                  \
			n--;                                             \
		return n == 0 ? 0 : -PROTO_E_INTERNAL;                   \
	} while (0)

/* A configuration decodes into 6.5 KiB; only its own frames pay for that much stack. */
static __attribute__((noinline)) int validate_config(const struct proto_frame *f)
{
	struct proto_pmu_config m;
	return proto_decode_pmu_config(f, &m);
}

int proto_validate(const struct proto_frame *f)
{
	union {
		struct proto_hello hello;
		struct proto_server_hello server_hello;
		struct proto_error_msg error;
		struct proto_ping ping;
		struct proto_pong pong;
		struct proto_claim claim;
		struct proto_status status;
		struct proto_scan_request scan;
		struct proto_symbol_query symq;
		struct proto_start start;
		struct proto_instrument instrument;
	} m;

	switch (f->type) {
	case PROTO_HELLO:
		return proto_decode_hello(f, &m.hello);
	case PROTO_SERVER_HELLO:
		return proto_decode_server_hello(f, &m.server_hello);
	case PROTO_ERROR:
		return proto_decode_error(f, &m.error);
	case PROTO_PING:
		return proto_decode_ping(f, &m.ping);
	case PROTO_PONG:
		return proto_decode_pong(f, &m.pong);
	case PROTO_CLAIM_CONTROL:
		return proto_decode_claim(f, &m.claim);
	case PROTO_STATUS:
		return proto_decode_status(f, &m.status);
	case PROTO_SCAN_REQUEST:
		return proto_decode_scan_request(f, &m.scan);
	case PROTO_SYMBOL_TABLE_GET:
		return proto_decode_symbol_table_get(f, &m.symq);
	case PROTO_PMU_CONFIG:
		return validate_config(f);
	case PROTO_START:
		return proto_decode_start(f, &m.start);
	case PROTO_INSTRUMENT:
		return proto_decode_instrument(f, &m.instrument);
	case PROTO_OK:
	case PROTO_STATUS_GET:
	case PROTO_CATALOGUE_GET:
	case PROTO_CONFIG_GET:
	case PROTO_STOP:
		return proto_decode_empty(f);
	case PROTO_DROPPED:
		WALK(proto_decode_dropped, proto_next_drop, struct proto_dropped_head,
		     struct proto_drop);
	case PROTO_SCAN_PROCESSES:
		WALK(proto_decode_scan_processes, proto_next_process, struct proto_scan_head,
		     struct proto_process);
	case PROTO_SCAN_OBJECTS:
		WALK(proto_decode_scan_objects, proto_next_object, struct proto_scan_head,
		     struct proto_object);
	case PROTO_SYMBOL_LOOKUP:
		WALK(proto_decode_symbol_lookup, proto_next_address, struct proto_symbol_query,
		     uint64_t);
	case PROTO_SYMBOLS:
		WALK(proto_decode_symbols, proto_next_symbol, struct proto_symbols_head,
		     struct proto_symbol);
	case PROTO_EVENT_CATALOGUE:
		WALK(proto_decode_event_catalogue, proto_next_event, struct proto_catalogue_head,
		     struct proto_event);
	case PROTO_SAMPLES:
		WALK(proto_decode_samples, proto_next_sample, struct proto_samples_head,
		     struct proto_sample);
	case PROTO_INTERVAL_COUNTS:
		WALK(proto_decode_interval_counts, proto_next_count, struct proto_counts_head,
		     struct proto_count);
	case PROTO_LOCK_STATS:
		WALK(proto_decode_lock_stats, proto_next_lock, struct proto_interval,
		     struct proto_lock);
	case PROTO_LOCK_CONTENTION:
		WALK(proto_decode_lock_contention, proto_next_lock_contention, struct proto_interval,
		     struct proto_lock);
	case PROTO_INVOCATIONS:
		WALK(proto_decode_invocations, proto_next_invocation, struct proto_interval,
		     struct proto_invocation);
	case PROTO_LOST_SAMPLES:
		WALK(proto_decode_lost_samples, proto_next_lost, struct proto_interval,
		     struct proto_lost);
	default:
		return -PROTO_E_UNKNOWN_TYPE;
	}
}

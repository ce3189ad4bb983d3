/* One line about a pushed frame, for kovctl watch. Frames were fully validated on arrival,
 * so the decoders here cannot fail for a known type. */
#include <stdio.h>
#include "kovctl/kovctl.h"
#include "client/lockstat.h"

#define ULL(x) ((unsigned long long)(x))

static void status_line(const struct proto_frame *f, char *buf, size_t n)
{
	struct proto_status s;
	proto_decode_any_status(f, &s);
	int len = snprintf(buf, n, "clients=%u controller=%u config_id=%u streams=0x%x cut_off=%u "
	                   "frames_dropped=%llu samples_lost=%llu", (unsigned)s.clients,
	                   (unsigned)s.controller, (unsigned)s.config_id, (unsigned)s.streams,
	                   (unsigned)s.clients_cut_off, ULL(s.frames_dropped), ULL(s.samples_lost));
	if (f->type == PROTO_STATUS_EX && len > 0 && (size_t)len < n)
		snprintf(buf + len, n - (size_t)len, " samples_discarded=%llu", ULL(s.samples_discarded));
}

static void dropped_line(const struct proto_frame *f, char *buf, size_t n)
{
	struct proto_dropped_head h;
	struct proto_iter it;
	struct proto_drop d;
	proto_decode_dropped(f, &h, &it);
	int len = snprintf(buf, n, "frames=%llu bytes=%llu records=%llu", ULL(h.frames),
	                   ULL(h.bytes), ULL(h.records));
	while (proto_next_drop(&it, &d) && len > 0 && (size_t)len < n)
		len += snprintf(buf + len, n - (size_t)len, " %s:%llu/%llu", proto_type_name(d.type),
		                ULL(d.frames), ULL(d.records));
}

static void lost_line(const struct proto_frame *f, char *buf, size_t n)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lost l;
	proto_decode_lost_samples(f, &h, &it);
	unsigned long long total = 0, records = proto_iter_left(&it);
	while (proto_next_lost(&it, &l))
		total += l.lost;
	snprintf(buf, n, "records=%llu lost=%llu ticks=%llu", records, total, ULL(h.end - h.start));
}

void kovctl_summarize(const struct proto_frame *f, char *buf, size_t n)
{
	struct proto_iter it;
	snprintf(buf, n, "%u bytes", (unsigned)f->size);
	switch (f->type) {
	case PROTO_STATUS:
	case PROTO_STATUS_EX:
		status_line(f, buf, n);
		break;
	case PROTO_DROPPED:
		dropped_line(f, buf, n);
		break;
	case PROTO_LOST_SAMPLES:
		lost_line(f, buf, n);
		break;
	case PROTO_CHAINS: {
		struct proto_samples_head h;
		proto_decode_chains(f, &h, &it);
		snprintf(buf, n, "chains=%u", (unsigned)proto_iter_left(&it));
		break;
	}
	case PROTO_SAMPLES:
	case PROTO_SAMPLES_CHAINED:
	case PROTO_SAMPLES_PACKED: {
		struct proto_samples_head h;
		proto_decode_any_samples(f, &h, &it);
		snprintf(buf, n, "config_id=%u samples=%u", (unsigned)h.config_id,
		         (unsigned)proto_iter_left(&it));
		break;
	}
	case PROTO_INTERVAL_COUNTS: {
		struct proto_counts_head h;
		proto_decode_interval_counts(f, &h, &it);
		snprintf(buf, n, "config_id=%u counts=%u ticks=%llu", (unsigned)h.config_id,
		         (unsigned)proto_iter_left(&it), ULL(h.end - h.start));
		break;
	}
	case PROTO_LOCK_STATS:
	case PROTO_LOCK_CONTENTION: {
		struct proto_interval h;
		kov_lock_decode(f, &h, &it);
		snprintf(buf, n, "locks=%u ticks=%llu", (unsigned)proto_iter_left(&it),
		         ULL(h.end - h.start));
		break;
	}
	case PROTO_INVOCATIONS: {
		struct proto_interval h;
		struct proto_invocation v;
		proto_decode_invocations(f, &h, &it);
		unsigned long long objects = proto_iter_left(&it), total = 0;
		while (proto_next_invocation(&it, &v))
			total += v.count;
		snprintf(buf, n, "objects=%llu invocations=%llu ticks=%llu", objects, total,
		         ULL(h.end - h.start));
		break;
	}
	case PROTO_THROTTLE: {
		struct proto_throttle t;
		proto_decode_throttle(f, &t);
		snprintf(buf, n, "factor=%u cost=%u.%02u%% limit=%u.%02u%% change=%llu",
		         (unsigned)t.factor, (unsigned)(t.cost_bp / 100), (unsigned)(t.cost_bp % 100),
		         (unsigned)(t.limit_bp / 100), (unsigned)(t.limit_bp % 100), ULL(t.seq));
		break;
	}
	case PROTO_PMU_CONFIG: {
		static struct proto_pmu_config c;   /* large; watch is single-threaded */
		proto_decode_pmu_config(f, &c);
		snprintf(buf, n, "config_id=%u groups=%u", (unsigned)c.config_id, (unsigned)c.n_groups);
		break;
	}
	case PROTO_ERROR: {
		struct proto_error_msg e;
		char text[PROTO_TEXT_MAX + 1];
		proto_decode_error(f, &e);
		proto_str_copy(text, sizeof text, e.text);
		snprintf(buf, n, "%s about %s: %s", proto_strerror(e.code), proto_type_name(e.about),
		         text);
		break;
	}
	default:
		break;
	}
}

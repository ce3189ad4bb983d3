/* Loss accounting on the host (losses.h). */
#include <stdio.h>
#include "client/losses.h"

static int stream_of(uint16_t type)
{
	switch (type) {
	case PROTO_SAMPLES:
	case PROTO_SAMPLES_CHAINED:
	case PROTO_SAMPLES_PACKED: return KOV_DROP_SAMPLES;
	case PROTO_INTERVAL_COUNTS: return KOV_DROP_COUNTS;
	case PROTO_LOCK_STATS:
	case PROTO_LOCK_CONTENTION: return KOV_DROP_LOCKS;
	case PROTO_INVOCATIONS: return KOV_DROP_INVOCATIONS;
	default: return -1;
	}
}

void kov_losses_note(struct kov_losses *l, const struct proto_frame *f)
{
	struct proto_iter it;
	if (proto_is_samples(f->type)) {
		struct proto_samples_head h;
		if (proto_decode_any_samples(f, &h, &it) == 0)
			l->samples += proto_iter_left(&it);
	} else if (f->type == PROTO_LOST_SAMPLES) {
		struct proto_interval h;
		struct proto_lost r;
		if (proto_decode_lost_samples(f, &h, &it) == 0)
			while (proto_next_lost(&it, &r))
				l->lost += r.lost;
	} else if (f->type == PROTO_STATUS_EX) {
		struct proto_status st;
		if (proto_decode_status_ex(f, &st) == 0)
			kov_losses_status(l, &st);
	} else if (f->type == PROTO_DROPPED) {
		/* Totals for the connection so far: the latest replaces the last. */
		struct proto_dropped_head h;
		struct proto_drop d;
		if (proto_decode_dropped(f, &h, &it) < 0)
			return;
		l->dropped_frames = h.frames;
		l->dropped_records = h.records;
		for (int s = 0; s < KOV_DROP_STREAMS; s++)
			l->dropped[s] = 0;
		while (proto_next_drop(&it, &d)) {
			int s = stream_of(d.type);
			if (s >= 0)
				l->dropped[s] += d.records;
		}
	}
}

void kov_losses_status(struct kov_losses *l, const struct proto_status *st)
{
	if (!l->discarded_known)
		l->discarded_first = st->samples_discarded;
	l->discarded_known = true;
	l->discarded_last = st->samples_discarded;
	l->discarded = st->samples_discarded - l->discarded_first;
}

struct kov_losses kov_losses_since(const struct kov_losses *now, const struct kov_losses *then)
{
	struct kov_losses d = {
		.samples = now->samples - then->samples,
		.lost = now->lost - then->lost,
		.dropped_frames = now->dropped_frames - then->dropped_frames,
		.dropped_records = now->dropped_records - then->dropped_records,
		.discarded_known = now->discarded_known,
		.discarded_first = then->discarded_known ? then->discarded_last : now->discarded_first,
		.discarded_last = now->discarded_last,
	};
	for (int s = 0; s < KOV_DROP_STREAMS; s++)
		d.dropped[s] = now->dropped[s] - then->dropped[s];
	if (d.discarded_known)
		d.discarded = d.discarded_last - d.discarded_first;
	return d;
}

uint64_t kov_losses_missing_samples(const struct kov_losses *l)
{
	return l->lost + l->dropped[KOV_DROP_SAMPLES] + l->discarded;
}

bool kov_losses_any(const struct kov_losses *l)
{
	return l->lost || l->dropped_frames || l->discarded;
}

int kov_losses_text(const struct kov_losses *l, char *buf, size_t n)
{
	static const char *const what[KOV_DROP_STREAMS] = { "samples", "interval counts",
							    "lock reports", "invocation counts" };
	size_t used = 0;
	int r = 0;
#define PUT(...) do { r = snprintf(buf + (used < n ? used : n), used < n ? n - used : 0, __VA_ARGS__); \
		      used += r > 0 ? (size_t)r : 0; } while (0)
	if (n)
		buf[0] = 0;
	if (l->lost)
		PUT("%llu samples lost by the target's rings", (unsigned long long)l->lost);
	if (l->dropped_frames) {
		PUT("%s%llu frames dropped by the daemon's queue (", used ? "; " : "",
		    (unsigned long long)l->dropped_frames);
		const char *sep = "";
		for (int s = 0; s < KOV_DROP_STREAMS; s++)
			if (l->dropped[s]) {
				PUT("%s%llu %s", sep, (unsigned long long)l->dropped[s], what[s]);
				sep = ", ";
			}
		PUT(")");
	}
	if (l->discarded)
		PUT("%s%llu samples discarded with no client taking them", used ? "; " : "",
		    (unsigned long long)l->discarded);
	if (!used)
		PUT("nothing lost");
	if (!l->discarded_known)
		PUT(" (discards not reported by this target)");
#undef PUT
	return (int)used;
}

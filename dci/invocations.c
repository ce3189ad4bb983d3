/* INVOCATIONS: each counted object's calls in the interval, from a scan, as differences from
 * a baseline taken at START (proto/inv_delta.c: what happens when memory or a scan fails). */
#include "monitor.h"
#include "proto/inv_delta.h"
#include "subscribers.h"

static struct inv_baseline inv;
static bool inv_failing;          /* the last attempt failed: said once per streak */
static const struct inv_mem inv_mem = { malloc, free };

static bool process_alive(void *ctx, uint32_t pid)
{
	return snapshot_process(ctx, pid) != 0;
}

static void inv_failed(const char *why, const char *what)
{
	if (!inv_failing)
		printf("dcid: invocation counts: %s for %s; the next report spans the intervals until "
		       "one succeeds\n", why, what);
	inv_failing = true;
}

static struct inv_scan inv_view(struct snapshot *s)
{
	return (struct inv_scan){ s->objs, s->n_objs, s->totals.written < s->totals.objects,
				  process_alive, s };
}

/* The baseline at START: the counts now, so the first report holds only its interval. */
void invocations_begin(uint64_t tb)
{
	struct snapshot s;
	inv_failing = false;
	inv_reset(&inv, &inv_mem);
	if (!snapshot_take(&s)) {
		inv_failed("no scan", "the baseline at start");
		return;
	}
	struct inv_scan v = inv_view(&s);
	if (!inv_start(&inv, &v, tb, &inv_mem))
		inv_failed("no memory", "the baseline at start");
	snapshot_free(&s);
}

static struct proto_builder inv_b;
static struct proto_interval inv_h;

static void emit_invocation(void *arg, const struct inv_entry *e)
{
	(void)arg;
	struct proto_invocation r = { coid_of(e->space, e->index), e->gen, e->space, e->calls };
	int rc = proto_add_invocation(&inv_b, &r);
	if (rc == -PROTO_E_NOSPACE || rc == -PROTO_E_TOO_BIG) {
		uint32_t k = proto_builder_count(&inv_b);
		subscribers_push(AUDIENCE_ALL, monitor_out, (size_t)proto_finish(&inv_b), PROTO_INVOCATIONS, k);
		proto_begin_invocations(&inv_b, monitor_out, sizeof monitor_out, 0, 0, &inv_h);
		proto_add_invocation(&inv_b, &r);
	}
}

void invocations_push(uint64_t end)
{
	struct snapshot s;
	if (!snapshot_take(&s)) {
		inv_failed("no scan", "this interval");
		return;
	}
	struct inv_scan v = inv_view(&s);
	inv_h = (struct proto_interval){ inv.since, end };
	proto_begin_invocations(&inv_b, monitor_out, sizeof monitor_out, 0, 0, &inv_h);
	uint64_t start;
	uint64_t skipped = inv.skipped_objects;
	enum inv_outcome r = inv_report(&inv, &v, end, &start, &inv_mem, emit_invocation, 0);
	snapshot_free(&s);
	if (r == INV_NO_MEMORY) {
		inv_failed("no memory", "this interval");
		return;
	}
	inv_failing = false;
	monitor.invocation_reports_skipped = inv.skipped_reports;
	monitor.invocation_objects_skipped = inv.skipped_objects;
	if (r == INV_BASELINE_ONLY)
		printf("dcid: invocation counts: interval not reported (no baseline); the next is\n");
	if (inv.skipped_objects > skipped)
		printf("dcid: invocation counts: %llu objects counted before the baseline but missing "
		       "from it are reported from the next interval\n",
		       (unsigned long long)(inv.skipped_objects - skipped));
	uint32_t k = proto_builder_count(&inv_b);
	if (k)
		subscribers_push(AUDIENCE_ALL, monitor_out, (size_t)proto_finish(&inv_b), PROTO_INVOCATIONS, k);
}

void invocations_instrumented(uint32_t pid, uint32_t index, bool on)
{
	if (on)
		inv_counting_on(&inv, pid, index);
	else
		inv_forget(&inv, pid, index);
}

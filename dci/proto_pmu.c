/* Monitor configuration and control: the event catalogue, the PMU configuration (groups
 * multiplexed by time shares, per-event thresholds), start. */
#include "dci/proto_wire.h"

#define EVENT_MIN 12
#define GROUP_NAME_MAX 32
#define INTERVAL_MIN_US 1000u        /* the target is not asked to report more often */

/* ---- EVENT_CATALOGUE ----------------------------------------------------------------- */

static int put_catalogue_head(struct wr *w, const void *msg)
{
	const struct proto_catalogue_head *h = msg;
	if (h->first > h->total)
		return PROTO_E_INCONSISTENT;
	put_u16(w, h->total);
	put_u16(w, h->first);
	return 0;
}

static void get_catalogue_head(struct rd *r, void *msg)
{
	struct proto_catalogue_head *h = msg;
	h->total = get_u16(r);
	h->first = get_u16(r);
	if (!r->err && h->first > h->total)
		r->err = PROTO_E_INCONSISTENT;
}

/* Nothing is shown as counting that does not, and what does not always says why. */
static int check_event(const struct proto_event *e)
{
	bool counts = e->flags & PROTO_EV_COUNTS_HERE;
	bool samples = e->flags & PROTO_EV_SAMPLES_HERE;
	if (proto_check_str(e->name, 1, PROTO_NAME_MAX) ||
	    proto_check_str(e->description, 0, PROTO_TEXT_MAX) ||
	    proto_check_str(e->why_not, 0, PROTO_TEXT_MAX))
		return PROTO_E_STRING;
	if (e->source != PROTO_SRC_HW && e->source != PROTO_SRC_SW)
		return PROTO_E_INCONSISTENT;
	if (samples && (!counts || !(e->flags & PROTO_EV_CAN_SAMPLE)))
		return PROTO_E_INCONSISTENT;
	if ((e->why_not.len == 0) != (counts && samples))
		return PROTO_E_INCONSISTENT;
	return 0;
}

static int put_event(struct wr *w, const void *msg)
{
	const struct proto_event *e = msg;
	int err = check_event(e);
	if (err)
		return err;
	put_u8(w, e->source);
	put_u8(w, e->flags);
	put_u32(w, e->code);
	put_str(w, e->name);
	put_str(w, e->description);
	put_str(w, e->why_not);
	return 0;
}

static void get_event(struct rd *r, void *msg)
{
	struct proto_event *e = msg;
	e->source = get_u8(r);
	e->flags = get_u8(r);
	e->code = get_u32(r);
	proto_get_str(r, &e->name, 0, PROTO_NAME_MAX);
	proto_get_str(r, &e->description, 0, PROTO_TEXT_MAX);
	proto_get_str(r, &e->why_not, 0, PROTO_TEXT_MAX);
	if (!r->err)
		r->err = check_event(e);
}

int proto_begin_event_catalogue(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                                uint16_t flags, const struct proto_catalogue_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_EVENT_CATALOGUE, req, flags, put_catalogue_head,
	                        h);
}

int proto_add_event(struct proto_builder *b, const struct proto_event *r)
{
	/* The head is already in the frame: total at payload offset 0, first at 2. */
	if (!b->err && b->type == PROTO_EVENT_CATALOGUE) {
		uint32_t total = be16_load(b->buf + PROTO_HEADER_SIZE);
		uint32_t first = be16_load(b->buf + PROTO_HEADER_SIZE + 2);
		if (first + b->count >= total)
			return -PROTO_E_INCONSISTENT;
	}
	return proto_list_add(b, PROTO_EVENT_CATALOGUE, put_event, r);
}

int proto_decode_event_catalogue(const struct proto_frame *f, struct proto_catalogue_head *h,
                                 struct proto_iter *it)
{
	struct proto_event scratch;
	int err = proto_list_decode(f, PROTO_EVENT_CATALOGUE, get_catalogue_head, h, get_event,
	                            &scratch, EVENT_MIN, it);
	if (!err && (uint32_t)h->first + it->left > h->total) {
		it->left = 0;
		err = -PROTO_E_INCONSISTENT;
	}
	return err;
}

bool proto_next_event(struct proto_iter *it, struct proto_event *r)
{
	return proto_list_next(it, PROTO_EVENT_CATALOGUE, get_event, r);
}

/* ---- PMU_CONFIG ---------------------------------------------------------------------- */

static bool same_str(struct proto_str a, struct proto_str b)
{
	return a.len == b.len && (a.len == 0 || memcmp(a.s, b.s, a.len) == 0);
}

static int check_group(const struct proto_group *g)
{
	if (proto_check_str(g->name, 1, GROUP_NAME_MAX))
		return PROTO_E_STRING;
	if (g->n_events == 0 || g->n_events > PROTO_MAX_GROUP_EVENTS)
		return PROTO_E_COUNT;
	if (g->share == 0 || g->share > 100)
		return PROTO_E_INCONSISTENT;
	for (unsigned i = 0; i < g->n_events; i++) {
		if (proto_check_str(g->events[i].name, 1, PROTO_NAME_MAX))
			return PROTO_E_STRING;
		for (unsigned j = 0; j < i; j++)
			if (same_str(g->events[i].name, g->events[j].name))
				return PROTO_E_INCONSISTENT;
	}
	return 0;
}

/* The parts that do not depend on the groups' contents. */
static int check_config(const struct proto_pmu_config *m)
{
	const uint16_t known = PROTO_CFG_KERNEL | PROTO_CFG_USER | PROTO_CFG_CALLCHAIN;
	if (m->unit < PROTO_UNIT_CYCLES || m->unit > PROTO_UNIT_MICROSECONDS || m->slice == 0)
		return PROTO_E_INCONSISTENT;
	if ((m->flags & ~known) || !(m->flags & (PROTO_CFG_KERNEL | PROTO_CFG_USER)))
		return PROTO_E_INCONSISTENT;
	if (m->chain_depth > PROTO_MAX_CHAIN ||
	    (m->chain_depth != 0) != ((m->flags & PROTO_CFG_CALLCHAIN) != 0))
		return PROTO_E_INCONSISTENT;
	if (m->n_groups > PROTO_MAX_GROUPS)
		return PROTO_E_COUNT;
	return 0;
}

/* After every group checked: shares divide all of the time, names tell groups apart. */
static int check_groups(const struct proto_pmu_config *m)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < m->n_groups; i++) {
		sum += m->groups[i].share;
		for (unsigned j = 0; j < i; j++)
			if (same_str(m->groups[i].name, m->groups[j].name))
				return PROTO_E_INCONSISTENT;
	}
	return (m->n_groups && sum != 100) ? PROTO_E_INCONSISTENT : 0;
}

static int put_pmu_config(struct wr *w, const void *msg)
{
	const struct proto_pmu_config *m = msg;
	int err = check_config(m);
	for (unsigned i = 0; !err && i < m->n_groups; i++)
		err = check_group(&m->groups[i]);
	if (!err)
		err = check_groups(m);
	if (err)
		return err;
	put_u32(w, m->config_id);
	put_u16(w, m->unit);
	put_u16(w, m->flags);
	put_u64(w, m->slice);
	put_u16(w, m->chain_depth);
	put_u16(w, m->n_groups);
	for (unsigned i = 0; i < m->n_groups; i++) {
		const struct proto_group *g = &m->groups[i];
		put_str(w, g->name);
		put_u16(w, g->share);
		put_u16(w, g->n_events);
		for (unsigned j = 0; j < g->n_events; j++) {
			put_str(w, g->events[j].name);
			put_u64(w, g->events[j].threshold);
		}
	}
	return 0;
}

static void get_group(struct rd *r, struct proto_group *g)
{
	proto_get_str(r, &g->name, 0, GROUP_NAME_MAX);
	g->share = get_u16(r);
	g->n_events = get_u16(r);
	if (!r->err && g->n_events > PROTO_MAX_GROUP_EVENTS)
		r->err = PROTO_E_COUNT;
	for (unsigned i = 0; i < g->n_events && !r->err; i++) {
		proto_get_str(r, &g->events[i].name, 0, PROTO_NAME_MAX);
		g->events[i].threshold = get_u64(r);
	}
	if (!r->err)
		r->err = check_group(g);
}

static void get_pmu_config(struct rd *r, void *msg)
{
	struct proto_pmu_config *m = msg;
	m->config_id = get_u32(r);
	m->unit = get_u16(r);
	m->flags = get_u16(r);
	m->slice = get_u64(r);
	m->chain_depth = get_u16(r);
	m->n_groups = get_u16(r);
	if (!r->err)
		r->err = check_config(m);
	for (unsigned i = 0; i < m->n_groups && !r->err; i++)
		get_group(r, &m->groups[i]);
	if (!r->err)
		r->err = check_groups(m);
	if (r->err)
		m->n_groups = 0;
}

int proto_encode_pmu_config(void *buf, size_t cap, uint32_t req, uint16_t flags,
                            const struct proto_pmu_config *m)
{
	return proto_fixed_encode(buf, cap, PROTO_PMU_CONFIG, req, flags, put_pmu_config, m);
}

int proto_decode_pmu_config(const struct proto_frame *f, struct proto_pmu_config *m)
{
	return proto_fixed_decode(f, PROTO_PMU_CONFIG, get_pmu_config, m);
}

/* ---- START --------------------------------------------------------------------------- */

static int check_start(const struct proto_start *m)
{
	if (m->streams == 0 || (m->streams & ~PROTO_STREAM_ALL))
		return PROTO_E_INCONSISTENT;
	if (m->interval_us != 0 && m->interval_us < INTERVAL_MIN_US)
		return PROTO_E_INCONSISTENT;
	return 0;
}

static int put_start(struct wr *w, const void *msg)
{
	const struct proto_start *m = msg;
	int err = check_start(m);
	if (err)
		return err;
	put_u32(w, m->streams);
	put_u32(w, m->interval_us);
	return 0;
}

static void get_start(struct rd *r, void *msg)
{
	struct proto_start *m = msg;
	m->streams = get_u32(r);
	m->interval_us = get_u32(r);
	if (!r->err)
		r->err = check_start(m);
}

int proto_encode_start(void *buf, size_t cap, uint32_t req, uint16_t flags,
                       const struct proto_start *m)
{
	return proto_fixed_encode(buf, cap, PROTO_START, req, flags, put_start, m);
}

int proto_decode_start(const struct proto_frame *f, struct proto_start *m)
{
	return proto_fixed_decode(f, PROTO_START, get_start, m);
}

/* ---- INSTRUMENT ---------------------------------------------------------------------- */

static int check_instrument(const struct proto_instrument *m)
{
	if (m->what < PROTO_INSTR_INVOCATIONS || m->what > PROTO_INSTR_LOCKS_FULL || m->on > 1 ||
	    m->pid == PROTO_PID_ALL)
		return PROTO_E_INCONSISTENT;
	return 0;
}

static int put_instrument(struct wr *w, const void *msg)
{
	const struct proto_instrument *m = msg;
	int err = check_instrument(m);
	if (err)
		return err;
	put_u32(w, m->pid);
	put_u64(w, m->coid);
	put_u16(w, m->what);
	put_u16(w, m->on);
	return 0;
}

static void get_instrument(struct rd *r, void *msg)
{
	struct proto_instrument *m = msg;
	m->pid = get_u32(r);
	m->coid = get_u64(r);
	m->what = get_u16(r);
	m->on = get_u16(r);
	if (!r->err)
		r->err = check_instrument(m);
}

int proto_encode_instrument(void *buf, size_t cap, uint32_t req, uint16_t flags,
                            const struct proto_instrument *m)
{
	return proto_fixed_encode(buf, cap, PROTO_INSTRUMENT, req, flags, put_instrument, m);
}

int proto_decode_instrument(const struct proto_frame *f, struct proto_instrument *m)
{
	return proto_fixed_decode(f, PROTO_INSTRUMENT, get_instrument, m);
}

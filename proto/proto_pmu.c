/* Monitor configuration and control: the event catalogue, the PMU configuration (groups
 * multiplexed by time shares, per-event thresholds), start, instrumentation; layouts and
 * entries of the codec's table (proto/proto_wire.h). */
#include "proto_wire.h"

#define EVENT_MIN 12
#define GROUP_NAME_MAX 32
#define INTERVAL_MIN_US 1000u        /* the target is not asked to report more often */

/* ---- EVENT_CATALOGUE ----------------------------------------------------------------- */

static int check_catalogue_head(const void *msg)
{
	const struct proto_catalogue_head *h = msg;
	return h->first > h->total ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field catalogue_head_fields[] = {
	PF(struct proto_catalogue_head, total, PF_U16),
	PF(struct proto_catalogue_head, first, PF_U16),
};

/* A frame's events are first .. first + count - 1 of the catalogue's total. */
static int catalogue_fits(const void *head, uint32_t count)
{
	const struct proto_catalogue_head *h = head;
	return (uint32_t)h->first + count > h->total ? PROTO_E_INCONSISTENT : 0;
}

/* Nothing is shown as counting that does not, and what does not always says why. */
static int check_event(const void *msg)
{
	const struct proto_event *e = msg;
	bool counts = e->flags & PROTO_EV_COUNTS_HERE;
	bool samples = e->flags & PROTO_EV_SAMPLES_HERE;
	if (e->source != PROTO_SRC_HW && e->source != PROTO_SRC_SW)
		return PROTO_E_INCONSISTENT;
	if (samples && (!counts || !(e->flags & PROTO_EV_CAN_SAMPLE)))
		return PROTO_E_INCONSISTENT;
	/* Only what counts has a basis or honours modes; only hardware is assumed. */
	if ((e->flags & (PROTO_EV_ASSUMED | PROTO_EV_MODES_FILTERED)) && !counts)
		return PROTO_E_INCONSISTENT;
	if ((e->flags & PROTO_EV_ASSUMED) && e->source != PROTO_SRC_HW)
		return PROTO_E_INCONSISTENT;
	if ((e->why_not.len == 0) != (counts && samples))
		return PROTO_E_INCONSISTENT;
	return 0;
}

static const struct proto_field event_fields[] = {
	PF(struct proto_event, source, PF_U8),
	PF(struct proto_event, flags, PF_U8),
	PF(struct proto_event, code, PF_U32),
	PF_S(struct proto_event, name, 1, PROTO_NAME_MAX),
	PF_S(struct proto_event, description, 0, PROTO_TEXT_MAX),
	PF_S(struct proto_event, why_not, 0, PROTO_TEXT_MAX),
};

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
	if (m->chain_depth > PROTO_MAX_CHAIN_DEPTH ||
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

/* The decoder refuses a unit, modes or slice of 0 even without groups, so "none" still names
 * some: both modes and a 10 ms slice, what clients usually ask for. */
void proto_pmu_config_none(struct proto_pmu_config *m)
{
	m->config_id = 0;
	m->unit = PROTO_UNIT_MICROSECONDS;
	m->flags = PROTO_CFG_KERNEL | PROTO_CFG_USER;
	m->slice = 10000;
	m->chain_depth = 0;
	m->n_groups = 0;
}

/* ---- START, INSTRUMENT ---------------------------------------------------------------- */

static int check_start(const void *msg)
{
	const struct proto_start *m = msg;
	if (m->streams == 0 || (m->streams & ~PROTO_STREAM_ALL))
		return PROTO_E_INCONSISTENT;
	if (m->interval_us != 0 && m->interval_us < INTERVAL_MIN_US)
		return PROTO_E_INCONSISTENT;
	return 0;
}

static const struct proto_field start_fields[] = {
	PF(struct proto_start, streams, PF_U32),
	PF(struct proto_start, interval_us, PF_U32),
};

static int check_instrument(const void *msg)
{
	const struct proto_instrument *m = msg;
	if (m->what < PROTO_INSTR_INVOCATIONS || m->what > PROTO_INSTR_LOCKS_FULL || m->on > 1 ||
	    m->pid == PROTO_PID_ALL)
		return PROTO_E_INCONSISTENT;
	return 0;
}

static const struct proto_field instrument_fields[] = {
	PF(struct proto_instrument, pid, PF_U32),
	PF(struct proto_instrument, coid, PF_U64),
	PF(struct proto_instrument, what, PF_U16),
	PF(struct proto_instrument, on, PF_U16),
};

/* ---- the table ----------------------------------------------------------------------- */

static const struct proto_layout catalogue_head_layout =
	PROTO_LAYOUT(struct proto_catalogue_head, catalogue_head_fields, check_catalogue_head);
static const struct proto_layout event_layout =
	PROTO_LAYOUT(struct proto_event, event_fields, check_event);
static const struct proto_layout pmu_config_layout =
	PROTO_CUSTOM(struct proto_pmu_config, put_pmu_config, get_pmu_config);
static const struct proto_layout start_layout =
	PROTO_LAYOUT(struct proto_start, start_fields, check_start);
static const struct proto_layout instrument_layout =
	PROTO_LAYOUT(struct proto_instrument, instrument_fields, check_instrument);

const struct proto_message proto_pmu_messages[] = {
	{ PROTO_CATALOGUE_GET, NULL, NULL, 0, NULL },
	{ PROTO_EVENT_CATALOGUE, &catalogue_head_layout, &event_layout, EVENT_MIN,
	  catalogue_fits },
	{ PROTO_PMU_CONFIG, &pmu_config_layout, NULL, 0, NULL },
	{ PROTO_CONFIG_GET, NULL, NULL, 0, NULL },
	{ PROTO_START, &start_layout, NULL, 0, NULL },
	{ PROTO_STOP, NULL, NULL, 0, NULL },
	{ PROTO_INSTRUMENT, &instrument_layout, NULL, 0, NULL },
};
const size_t proto_pmu_message_count = sizeof proto_pmu_messages / sizeof proto_pmu_messages[0];

PROTO_LIST_NAMES(event_catalogue, event, PROTO_EVENT_CATALOGUE, struct proto_catalogue_head,
                 struct proto_event)
PROTO_FIXED_NAMES(pmu_config, PROTO_PMU_CONFIG, struct proto_pmu_config)
PROTO_FIXED_NAMES(start, PROTO_START, struct proto_start)
PROTO_FIXED_NAMES(instrument, PROTO_INSTRUMENT, struct proto_instrument)

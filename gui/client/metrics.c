/* Derived metrics (gui/client/metrics.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "client/metrics.h"
#include "client/lockstat.h"

int kov_find_event(const struct kov_event *cat, size_t n, const char *name)
{
	for (size_t i = 0; cat && i < n; i++)
		if (!strcasecmp(cat[i].name, name))
			return (int)i;
	return -1;
}

/* ---- interval counts --------------------------------------------------------------------- */

void kov_counts_clear(struct kov_counts *c)
{
	c->n = 0;
	c->not_kept = 0;
}

void kov_counts_add(struct kov_counts *c, const struct proto_count *r)
{
	size_t i = 0;
	while (i < c->n && (c->cell[i].group != r->group || c->cell[i].event != r->event))
		i++;
	if (i == c->n) {
		if (c->n == KOV_COUNT_CELLS) {
			c->not_kept++;
			return;
		}
		c->cell[c->n++] = (struct kov_count_cell){ r->group, r->event, 0, 0, 0 };
	}
	/* Summed over CPUs: on each CPU a group's events run over the same slices. */
	c->cell[i].raw += r->raw;
	c->cell[i].enabled += r->enabled;
	c->cell[i].running += r->running;
}

bool kov_counts_add_frame(struct kov_counts *c, const struct proto_frame *f,
			  struct proto_counts_head *h)
{
	struct proto_iter it;
	struct proto_count r;
	if (f->type != PROTO_INTERVAL_COUNTS || proto_decode_interval_counts(f, h, &it) < 0)
		return false;
	while (proto_next_count(&it, &r))
		kov_counts_add(c, &r);
	return true;
}

static const struct kov_metric_def defs[KOV_METRICS] = {
	[KOV_METRIC_IPC] = { "ipc", "Instructions per cycle", "", 1,
		{ "PM_INST_CMPL" }, { "PM_CYC" },
		"PM_INST_CMPL / PM_CYC" },
	[KOV_METRIC_MMU] = { "mmu", "MMU misses", "/1k insn", 1000,
		{ "SW_HPT_MISS", "SW_SLB_MISS" }, { "PM_INST_CMPL" },
		"software-handled page-table and SLB misses (SW_HPT_MISS + SW_SLB_MISS) per 1000 "
		"PM_INST_CMPL" },
	[KOV_METRIC_BRANCH] = { "branchmiss", "Branch mispredictions", "%", 100,
		{ "PM_BR_MPRED_CR", "PM_BR_MPRED_TA" }, { "PM_BR_ISSUED" },
		"(PM_BR_MPRED_CR + PM_BR_MPRED_TA) / PM_BR_ISSUED: direction and target-address "
		"mispredictions per branch issued" },
	[KOV_METRIC_STCX] = { "stcx", "Store-conditional success", "%", 100,
		{ "PM_STCX_PASS" }, { "PM_STCX_PASS", "PM_STCX_FAIL" },
		"PM_STCX_PASS / (PM_STCX_PASS + PM_STCX_FAIL): every stwcx./stdcx., lock "
		"acquisitions and every other atomic update (counters, epochs) alike" },
};

const struct kov_metric_def *kov_metric_def(enum kov_metric m)
{
	return m < KOV_METRICS ? &defs[m] : NULL;
}

void kov_metric_set_init(struct kov_metric_set *s, const struct kov_event *cat, size_t n)
{
	for (int m = 0; m < KOV_METRICS; m++)
		for (int k = 0; k < KOV_METRIC_EVENTS; k++) {
			s->num[m][k] = defs[m].num[k] ? kov_find_event(cat, n, defs[m].num[k]) : -2;
			s->den[m][k] = defs[m].den[k] ? kov_find_event(cat, n, defs[m].den[k]) : -2;
		}
}

/* The metric's events as catalogue indices: numerator first; -1 when one is not in the
 * catalogue. Returns how many, *n_num of them the numerator's. */
static int events_of(const struct kov_metric_set *s, enum kov_metric m, int ev[], int *n_num)
{
	int n = 0;
	for (int k = 0; k < KOV_METRIC_EVENTS; k++)
		if (s->num[m][k] != -2)
			ev[n++] = s->num[m][k];
	*n_num = n;
	for (int k = 0; k < KOV_METRIC_EVENTS; k++)
		if (s->den[m][k] != -2)
			ev[n++] = s->den[m][k];
	return n;
}

bool kov_metric_countable(const struct kov_metric_set *s, enum kov_metric m,
			  const struct kov_event *cat, size_t n, char *why, size_t wn)
{
	int ev[2 * KOV_METRIC_EVENTS], n_num;
	int k = events_of(s, m, ev, &n_num);
	for (int i = 0; i < k; i++) {
		const char *name = i < n_num ? defs[m].num[i] : defs[m].den[i - n_num];
		if (ev[i] < 0) {
			snprintf(why, wn, "%s is not in its catalogue", name);
			return false;
		}
		if ((size_t)ev[i] >= n || !(cat[ev[i]].flags & PROTO_EV_COUNTS_HERE)) {
			snprintf(why, wn, "%s: %s", name, (size_t)ev[i] < n && cat[ev[i]].why_not[0] ?
				 cat[ev[i]].why_not : "does not count here");
			return false;
		}
	}
	if (wn)
		why[0] = 0;
	return true;
}

static const struct kov_count_cell *cell_of(const struct kov_counts *c, unsigned group, int event)
{
	for (size_t i = 0; i < c->n; i++)
		if (c->cell[i].group == group && c->cell[i].event == event && c->cell[i].running)
			return &c->cell[i];
	return NULL;
}

/* An event's count over the whole interval from all the groups it was in: its raw counts
 * over its running time, times the time it was enabled (the longest of its groups': every
 * group is enabled all the time, summed over the same CPUs). */
static bool scaled(const struct kov_counts *c, int event, double *out)
{
	double raw = 0, running = 0, enabled = 0;
	for (size_t i = 0; i < c->n; i++) {
		const struct kov_count_cell *x = &c->cell[i];
		if (x->event != event || !x->running)
			continue;
		raw += (double)x->raw;
		running += (double)x->running;
		if ((double)x->enabled > enabled)
			enabled = (double)x->enabled;
	}
	if (running <= 0)
		return false;
	*out = raw * enabled / running;
	return true;
}

struct kov_ratio kov_metric_compute(const struct kov_metric_set *s, enum kov_metric m,
				    const struct kov_counts *c)
{
	struct kov_ratio r = { KOV_NOT_COUNTED, 0, 0, 0 };
	int ev[2 * KOV_METRIC_EVENTS], n_num;
	int k = m < KOV_METRICS ? events_of(s, m, ev, &n_num) : 0;
	if (!k)
		return r;
	for (int i = 0; i < k; i++)
		if (ev[i] < 0)
			return r;
	/* Pairs: the groups that counted every event of the metric. */
	bool paired = false;
	for (unsigned g = 0; g < PROTO_MAX_GROUPS; g++) {
		const struct kov_count_cell *cells[2 * KOV_METRIC_EVENTS];
		int have = 0;
		for (int i = 0; i < k; i++)
			have += (cells[i] = cell_of(c, g, ev[i])) != NULL;
		if (have < k)
			continue;
		paired = true;
		for (int i = 0; i < k; i++)
			*(i < n_num ? &r.num : &r.den) += (double)cells[i]->raw;
	}
	if (!paired) {
		for (int i = 0; i < k; i++) {
			double v;
			if (!scaled(c, ev[i], &v)) {
				r.num = r.den = 0;
				return r;
			}
			*(i < n_num ? &r.num : &r.den) += v;
		}
	}
	if (r.den <= 0)
		return r;
	r.how = paired ? KOV_SAME_GROUP : KOV_SCALED;
	r.value = defs[m].factor * r.num / r.den;
	return r;
}

const char *kov_pairing_name(enum kov_pairing how)
{
	return how == KOV_SAME_GROUP ? "same group" : how == KOV_SCALED ? "scaled" : "not counted";
}

static bool contains_nocase(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; hay && *hay; hay++)
		if (!strncasecmp(hay, needle, n))
			return true;
	return false;
}

bool kov_cycles_emulated(const struct kov_target *d, const struct kov_event *cat, size_t n)
{
	if (d && (!strncasecmp(d->pmu, "isa207", 6) || contains_nocase(d->model, "qemu")))
		return true;
	int cyc = kov_find_event(cat, n, "PM_CYC");
	return cyc >= 0 && (contains_nocase(cat[cyc].description, "emulated") ||
			    contains_nocase(cat[cyc].description, "virtual"));
}

const char *kov_metric_title(enum kov_metric m, bool emulated)
{
	if (m == KOV_METRIC_IPC && emulated)
		return "Instructions per emulated cycle";
	return m < KOV_METRICS ? defs[m].title : "?";
}

const char *kov_ipc_label(bool emulated)
{
	return emulated ? "instructions per emulated cycle (QEMU: cycles are virtual time at 1 GHz, "
			  "so this is instructions per virtual ns, 1 under -icount)"
			: "instructions per cycle";
}

/* ---- lock statistics per report interval ------------------------------------------------ */

bool kov_lock_meter_add(struct kov_lock_meter *m, const struct proto_frame *f,
			struct kov_lock_interval *done)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lock l;
	if (kov_lock_decode(f, &h, &it) < 0)
		return false;
	bool completed = false;
	if (m->open && (h.start != m->cur.start || h.end != m->cur.end)) {
		*done = m->cur;
		completed = true;
		m->open = false;
	}
	if (!m->open) {
		memset(&m->cur, 0, sizeof m->cur);
		m->cur.start = h.start;
		m->cur.end = h.end;
		m->open = true;
	}
	while (kov_lock_next(f, &it, &l)) {
		struct kov_lock_interval *c = &m->cur;
		c->records++;
		if (l.kind == PROTO_LOCK_SPIN || l.kind == PROTO_LOCK_SLEEP) {
			c->wait[l.kind] += l.wait_total;
			c->contentions[l.kind] += l.contentions;
		}
		if (l.flags & PROTO_LOCK_FULL) {
			c->full_acquisitions += l.acquisitions;
			c->full_contentions += l.contentions < l.acquisitions ? l.contentions : l.acquisitions;
		}
	}
	return completed;
}

bool kov_lock_meter_flush(struct kov_lock_meter *m, struct kov_lock_interval *done)
{
	if (!m->open)
		return false;
	*done = m->cur;
	m->open = false;
	return true;
}

double kov_lock_wait_share(const struct kov_lock_interval *iv, uint16_t kind, unsigned cpus)
{
	if (iv->end <= iv->start || kind < 1 || kind > 2)
		return -1;
	return kov_wait_share(iv->wait[kind], iv->end - iv->start, cpus);
}

double kov_lock_wait_ms_per_s(const struct kov_lock_interval *iv, uint16_t kind)
{
	if (iv->end <= iv->start || kind < 1 || kind > 2)
		return -1;
	return 1000.0 * (double)iv->wait[kind] / (double)(iv->end - iv->start);
}

bool kov_lock_first_try(const struct kov_lock_interval *iv, double *pct)
{
	if (!iv->full_acquisitions)
		return false;
	*pct = 100.0 * (double)(iv->full_acquisitions - iv->full_contentions) /
	       (double)iv->full_acquisitions;
	return true;
}

/* ---- shares, time and code -------------------------------------------------------------- */

double kov_share(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0;
}

double kov_wait_share(uint64_t ticks, uint64_t span, unsigned cpus)
{
	return span && cpus ? 100.0 * (double)ticks / ((double)span * cpus) : -1;
}

double kov_ticks_to_s(uint64_t ticks, uint64_t timebase_hz)
{
	return timebase_hz ? (double)ticks / (double)timebase_hz : 0;
}

bool kov_is_spin_wait(const char *name, size_t len)
{
	static const char wait_loop[] = "spin_lock_contended";
	if (len && name[0] == '.') {   /* an ELFv1 code entry symbol */
		name++;
		len--;
	}
	return len == sizeof wait_loop - 1 && !memcmp(name, wait_loop, len);
}

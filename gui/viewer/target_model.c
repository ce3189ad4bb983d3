/* A target's model of what it sends: pushed frames turned into pane series and per-object
 * sample counts (live or replayed), its scans, the configuration's modes, its losses. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/grow.h"

static bool in_spin_code(const struct target *t, uint32_t space, uint64_t pc)
{
	for (size_t i = 0; i < t->n_spin; i++)
		if (t->spin[i].space == space && pc >= t->spin[i].lo && pc < t->spin[i].hi)
			return true;
	return false;
}

static bool space_known(const struct target *t, uint32_t space)
{
	for (size_t i = 0; i < t->n_spaces_known; i++)
		if (t->spaces_known[i] == space)
			return true;
	return false;
}

static struct obj_stat *obj_of(struct target *t, uint32_t pid, uint64_t coid, uint32_t gen)
{
	for (size_t i = 0; i < t->n_objs; i++)
		if (t->objs[i].pid == pid && t->objs[i].coid == coid && t->objs[i].gen == gen)
			return &t->objs[i];
	if (!kov_grow((void **)&t->objs, &t->cap_objs, t->n_objs + 1, sizeof *t->objs))
		return NULL;
	struct obj_stat *o = &t->objs[t->n_objs++];
	memset(o, 0, sizeof *o);
	o->pid = pid;
	o->gen = gen;
	o->coid = coid;
	if (t->have_scan)
		kov_objname_update(&o->name, &t->scan, pid, coid, gen);
	/* Unnamed: scan again soon, before more of what lives briefly (pagestorm's
	 * processes) is gone. Never while replaying: a recording holds one scan. */
	if (!o->name.cls[0] && t->c && t->next_scan_ns > RESCAN_NS) {
		uint64_t soon = t->next_scan_ns - RESCAN_NS + RESCAN_UNNAMED_NS;
		if (soon < t->next_scan_ns)
			t->next_scan_ns = soon;
	}
	return o;
}

void target_take_scan(struct target *t, struct kov_scan *s)
{
	if (t->have_scan)
		kov_scan_free(&t->scan);
	t->scan = *s;
	t->have_scan = true;
	t->scan_no++;
	for (size_t i = 0; i < t->n_objs; i++) {
		struct obj_stat *o = &t->objs[i];
		kov_objname_update(&o->name, &t->scan, o->pid, o->coid, o->gen);
	}
}

const struct obj_stat *target_object(const struct target *t, uint32_t pid, uint64_t coid, uint32_t gen)
{
	uint32_t space = kov_object_space(pid, coid);
	for (size_t i = 0; i < t->n_objs; i++)
		if (t->objs[i].pid == space && t->objs[i].coid == coid && t->objs[i].gen == gen)
			return &t->objs[i];
	return NULL;
}

/* The most frequent PCs, approximately (space-saving: a new PC takes the rarest slot). */
static void count_pc(struct obj_stat *o, uint64_t pc)
{
	size_t min = 0;
	for (size_t i = 0; i < o->n_pcs; i++) {
		if (o->pcs[i].pc == pc) {
			o->pcs[i].n++;
			return;
		}
		if (o->pcs[i].n < o->pcs[min].n)
			min = i;
	}
	if (o->n_pcs < OBJ_PCS) {
		o->pcs[o->n_pcs].pc = pc;
		o->pcs[o->n_pcs++].n = 1;
	} else {
		o->pcs[min].pc = pc;
		o->pcs[min].n++;
	}
}

/* Counts only: shares of samples stay unbiased under the KM's randomized periods, while
 * samples x threshold would not be a count of events (the periods are not on the wire). */
static void on_samples(struct target *t, const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_iter it;
	struct proto_sample s;
	uint64_t now = kov_now_ns();
	if (proto_decode_any_samples(f, &h, &it) < 0)
		return;
	while (proto_next_any_sample(&it, &s)) {
		t->samples_total++;
		t->iv_all++;
		uint32_t space = s.flags & PROTO_SMP_KERNEL ? 0 : s.pid;
		bool spin = s.event == t->ev_inst && in_spin_code(t, space, s.pc);
		if (s.event == t->ev_inst) {
			t->iv_inst++;
			t->iv_spin += spin;
		}
		if (space && !t->want_space && !space_known(t, space))
			t->want_space = space;   /* asked for from target_poll: not from a callback */
		/* A kernel sample's chain goes on in its process's frames: their names too. */
		const struct proto_chain *c = s.chain_id && t->stacks.names ?
			kov_profile_names_chain(t->stacks.names, s.chain_id) : NULL;
		if (c && c->pid && !t->want_space && !space_known(t, c->pid))
			t->want_space = c->pid;
		if (s.flags & PROTO_SMP_NO_OBJECT)
			continue;
		struct obj_stat *o = obj_of(t, space, s.coid, s.gen);
		if (o) {
			o->samples++;
			int rep = PROTO_REP_OF(s.flags);
			if (rep >= 0 && rep < (int)(sizeof o->rep_samples / sizeof o->rep_samples[0]))
				o->rep_samples[rep]++;
			o->spin += spin;
			o->last_ns = now;
			o->iv_count++;
			count_pc(o, s.pc);
		}
	}
}

/* The interval's derived metrics (client/metrics.h: counts of one group paired, else each
 * scaled), a point in each pane that has one; the wait-loop samples' share as the spin
 * pane's second opinion. */
static void on_counts(struct target *t, const struct proto_frame *f)
{
	static struct kov_counts c;
	struct proto_counts_head h;
	kov_counts_clear(&c);
	if (!kov_counts_add_frame(&c, f, &h))
		return;
	static const struct { enum kov_metric m; enum pane_kind p; } shown[] = {
		{ KOV_METRIC_IPC, PANE_IPC }, { KOV_METRIC_MMU, PANE_MMU },
		{ KOV_METRIC_BRANCH, PANE_BRANCH }, { KOV_METRIC_STCX, PANE_LOCKACQ },
	};
	uint64_t now = kov_now_ns();
	t->intervals++;
	for (size_t i = 0; i < sizeof shown / sizeof shown[0]; i++) {
		if (shown[i].p == PANE_LOCKACQ && !t->stcx_counted)
			continue;   /* the software counts feed it (target_locks.c) */
		struct kov_ratio r = kov_metric_compute(&t->metrics, shown[i].m, &c);
		if (r.how != KOV_NOT_COUNTED)
			series_push(&t->pane[shown[i].p].s, now, r.value);
	}
	if (t->iv_inst && t->pane[PANE_SPIN].unit[0] == '%')
		series_push(&t->pane[PANE_SPIN].s2, now, kov_share(t->iv_spin, t->iv_inst));
	t->iv_inst = t->iv_spin = 0;
	/* Each object's share of this interval, for its contribution over time. */
	t->iv_total[t->iv_no % IV_HIST] = t->iv_all;
	t->iv_time[t->iv_no % IV_HIST] = now;
	for (size_t i = 0; i < t->n_objs; i++) {
		struct obj_stat *o = &t->objs[i];
		if (!o->iv_count)
			continue;
		o->hist[o->hist_head].iv = t->iv_no;
		o->hist[o->hist_head].n = o->iv_count;
		o->hist_head = (o->hist_head + 1) % OBJ_HIST;
		if (o->hist_n < OBJ_HIST)
			o->hist_n++;
		o->iv_count = 0;
	}
	t->iv_no++;
	t->iv_all = 0;
}

static void on_invocations(struct target *t, const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_invocation r;
	if (proto_decode_invocations(f, &h, &it) < 0)
		return;
	while (proto_next_invocation(&it, &r)) {
		struct obj_stat *o = obj_of(t, r.pid, r.coid, r.gen);
		t->calls_total += r.count;
		if (o)
			o->calls += r.count;
	}
}

void target_take_frame(struct target *t, const struct proto_frame *f)
{
	kov_losses_note(&t->losses, f);
	switch (f->type) {
	case PROTO_SAMPLES:
	case PROTO_SAMPLES_CHAINED:
	case PROTO_SAMPLES_PACKED: on_samples(t, f); kov_live_frame(&t->stacks, f); break;
	case PROTO_CHAINS: kov_live_frame(&t->stacks, f); break;
	case PROTO_INTERVAL_COUNTS: on_counts(t, f); break;
	case PROTO_STATUS:
	case PROTO_STATUS_EX: proto_decode_any_status(f, &t->st); break;
	case PROTO_PMU_CONFIG: target_take_config(t, f); break;
	case PROTO_LOCK_STATS:
	case PROTO_LOCK_CONTENTION: target_take_locks(t, f, kov_now_ns()); break;
	case PROTO_INVOCATIONS: on_invocations(t, f); break;
	case PROTO_SWAPPED: target_take_swapped(t, f); break;
	case PROTO_THROTTLE: target_take_throttle(t, f); break;
	default: break;
	}
}

void target_take_config(struct target *t, const struct proto_frame *f)
{
	static struct proto_pmu_config cfg;
	if (proto_decode_pmu_config(f, &cfg) < 0)
		return;
	t->cfg_modes = cfg.n_groups ? cfg.flags & (PROTO_CFG_KERNEL | PROTO_CFG_USER) : 0;
	t->modes_ignored[0] = 0;
	if (!t->cfg_modes || t->cfg_modes == (PROTO_CFG_KERNEL | PROTO_CFG_USER) || !t->have_desc)
		return;
	size_t used = 0;
	for (unsigned g = 0; g < cfg.n_groups; g++)
		for (unsigned e = 0; e < cfg.groups[g].n_events; e++) {
			char nm[PROTO_NAME_MAX + 1];
			snprintf(nm, sizeof nm, "%.*s", (int)cfg.groups[g].events[e].name.len,
				 cfg.groups[g].events[e].name.s);
			int i = kov_find_event(t->cat, t->n_cat, nm);
			if ((i >= 0 && kov_event_modes_filtered(&t->desc, &t->cat[i]) == 1) ||
			    strstr(t->modes_ignored, nm) || used + strlen(nm) + 3 >= sizeof t->modes_ignored)
				continue;
			used += (size_t)snprintf(t->modes_ignored + used, sizeof t->modes_ignored - used,
						 "%s%s", used ? ", " : "", nm);
		}
}

void target_modes_warning(const struct target *t, char *buf, size_t n)
{
	if (!t->modes_ignored[0]) {
		if (n)
			buf[0] = 0;
		return;
	}
	snprintf(buf, n, "privilege filter not honoured here: %s mode asked, %s count both",
		 t->cfg_modes & PROTO_CFG_KERNEL ? "kernel" : "user", t->modes_ignored);
}

void target_losses_short(const struct target *t, char *buf, size_t n)
{
	const struct kov_losses *l = &t->losses;
	if (!kov_losses_any(l)) {
		snprintf(buf, n, "nothing lost%s", l->discarded_known ? "" : " (discards not reported)");
		return;
	}
	snprintf(buf, n, "lost %llu · dropped %llu frames (%llu samples) · discarded %s%llu",
		 (unsigned long long)l->lost, (unsigned long long)l->dropped_frames,
		 (unsigned long long)l->dropped[KOV_DROP_SAMPLES], l->discarded_known ? "" : "? ",
		 (unsigned long long)l->discarded);
}

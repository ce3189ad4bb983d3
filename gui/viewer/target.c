/* A target: its connection (reconnected every 2 s while down), what it pushes turned into
 * pane series and per-object sample counts, and the scans and symbol tables the views need,
 * all requested and collected without waiting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/recording.h"

#define RETRY_NS 2000000000ull
#define RESCAN_NS 5000000000ull
#define RESCAN_UNNAMED_NS 1000000000ull   /* sooner when samples name objects no scan listed */

const char *conn_name(enum conn_state s)
{
	switch (s) {
	case CONN_UP: return "connected";
	case CONN_DOWN: return "disconnected";
	case CONN_REFUSED: return "refused";
	case CONN_REPLAY: return "replay";
	default: return "connecting";
	}
}

static const struct { const char *title, *unit; } pane_names[PANES] = {
	[PANE_IPC] = { "Instructions per cycle", "" },
	[PANE_SPIN] = { "Spin-lock wait", "%" },
	[PANE_MMU] = { "MMU misses", "/1k insn" },
	[PANE_BRANCH] = { "Branch mispredictions", "%" },
	[PANE_LOCKACQ] = { "Lock acquisition success", "%" },
};

void target_init(struct target *t, const char *host, const char *port, const char *token)
{
	memset(t, 0, sizeof *t);
	snprintf(t->host, sizeof t->host, "%s", host);
	snprintf(t->port, sizeof t->port, "%s", port);
	t->token = token;
	t->ev_inst = -1;
	t->locks = calloc(1, sizeof *t->locks);
	if (!kov_live_init(&t->stacks, FLAME_MAX_STACKS))
		t->stacks.oom = true;   /* the flame view says so; everything else works */
	snprintf(t->status, sizeof t->status, "connecting to %s:%s", host, port);
	for (int p = 0; p < PANES; p++) {
		t->pane[p].title = pane_names[p].title;
		t->pane[p].unit = pane_names[p].unit;
		snprintf(t->pane[p].why, sizeof t->pane[p].why, "not connected");
		series_init(&t->pane[p].s);
	}
	series_init(&t->pane[PANE_SPIN].s2);
}


static void pane_says(struct pane *p, bool available, const char *subtitle, const char *no_data,
		      const char *why)
{
	p->available = available;
	snprintf(p->subtitle, sizeof p->subtitle, "%s", subtitle);
	snprintf(p->no_data, sizeof p->no_data, "%s", no_data);
	if (available)
		snprintf(p->why, sizeof p->why, "%s", subtitle);
	else
		snprintf(p->why, sizeof p->why, "not available on this target: %s", why);
}

/* What each pane can show on this target, from its catalogue and description: never a fake
 * zero. The figures themselves come from client/metrics.h. */
void judge_panes(struct target *t)
{
	size_t n = t->n_cat;
	const struct kov_event *ev = t->cat;
	char why[300];
	t->ev_inst = kov_find_event(ev, n, "PM_INST_CMPL");
	kov_metric_set_init(&t->metrics, ev, n);
	t->cycles_emulated = kov_cycles_emulated(t->have_desc ? &t->desc : NULL, ev, n);
	/* Lock statistics of spin locks came with protocol 1.2; a replay without the target's
	 * description shows what its frames carry. */
	bool locks = !t->have_desc || t->desc.minor >= 2;
	unsigned cpus = t->have_desc ? t->desc.cpus : 0;
	const char *no_counts = "no data yet: monitoring not started, or its events are not configured";

	struct pane *p = &t->pane[PANE_IPC];
	p->title = kov_metric_title(KOV_METRIC_IPC, t->cycles_emulated);
	bool ok = kov_metric_countable(&t->metrics, KOV_METRIC_IPC, ev, n, why, sizeof why);
	pane_says(p, ok, t->cycles_emulated ?
		  "PM_INST_CMPL / PM_CYC; QEMU's cycles are virtual time at 1 GHz: instructions per "
		  "virtual ns (1 under -icount), not the 970's IPC" :
		  "PM_INST_CMPL / PM_CYC of one group (else each scaled by enabled/running)",
		  no_counts, why);

	p = &t->pane[PANE_SPIN];
	char sub[240];
	/* On a serial machine the label comes first, so a narrow pane still shows it. */
	const char *serial = target_serial_note(t);
	int at = serial ? snprintf(sub, sizeof sub, "%s · ", serial) : 0;
	if (cpus)
		snprintf(sub + at, sizeof sub - (size_t)at, "measured wait of contended spin-lock "
			 "acquisitions over %u %s time (waiters descheduled while they wait count "
			 "too)%s", cpus, cpus == 1 ? "CPU's" : "CPUs'",
			 t->ev_inst >= 0 ? "; dashed: instruction samples in the wait loop" : "");
	else
		snprintf(sub + at, sizeof sub - (size_t)at, "measured wait of contended spin-lock "
			 "acquisitions in ms per second (the recording does not say how many CPUs)");
	p->unit = cpus ? "%" : " ms/s";
	pane_says(p, locks, sub, "no lock reports yet: the lock stream is not running",
		  "its protocol (1.1) has no spin-lock statistics");

	p = &t->pane[PANE_MMU];
	ok = kov_metric_countable(&t->metrics, KOV_METRIC_MMU, ev, n, why, sizeof why);
	pane_says(p, ok, "software-handled page-table and SLB misses per 1000 instructions counted "
		  "over the same time", no_counts, why);

	p = &t->pane[PANE_BRANCH];
	ok = kov_metric_countable(&t->metrics, KOV_METRIC_BRANCH, ev, n, why, sizeof why);
	pane_says(p, ok, kov_metric_def(KOV_METRIC_BRANCH)->method,
		  "no data yet: configure PM_BR_ISSUED, PM_BR_MPRED_CR and PM_BR_MPRED_TA in one group",
		  why);

	p = &t->pane[PANE_LOCKACQ];
	t->stcx_counted = kov_metric_countable(&t->metrics, KOV_METRIC_STCX, ev, n, why, sizeof why);
	if (t->stcx_counted) {
		p->title = "Lock acquisition success";
		pane_says(p, true, kov_metric_def(KOV_METRIC_STCX)->method,
			  "no data yet: configure PM_STCX_PASS and PM_STCX_FAIL in one group", "");
	} else {
		char whynot[360];
		snprintf(whynot, sizeof whynot, "%s; and its protocol (1.1) has no lock counts", why);
		p->title = "Lock acquisition success (software counts)";
		pane_says(p, locks, "first-try acquisitions / all acquisitions of the fully counted "
			  "locks (lock statistics; PM_STCX_PASS/FAIL do not count here)",
			  "no fully counted lock yet: F counts every acquisition of the selected "
			  "object's or process's locks", whynot);
	}
}

void target_cpus_text(const struct kov_target *d, char *buf, size_t n)
{
	const char *how = !kov_target_reports_machine(d) ? "" :
			  d->cpus_run == PROTO_CPUS_PARALLEL ? ", parallel" :
			  d->cpus_run == PROTO_CPUS_TAKE_TURNS ? ", taking turns" : "";
	snprintf(buf, n, "%u CPU%s%s", (unsigned)d->cpus, d->cpus == 1 ? "" : "s", how);
}

const char *target_serial_note(const struct target *t)
{
	return t->have_desc ? kov_serial_note(&t->desc) : NULL;
}

void target_window_title(const struct target *t, char *buf, size_t n)
{
	char cpus[48];
	if (!t->have_desc) {
		snprintf(buf, n, "KOV viewer — %s%s%s", t->host, t->port[0] ? ":" : "", t->port);
		return;
	}
	target_cpus_text(&t->desc, cpus, sizeof cpus);
	snprintf(buf, n, "KOV viewer — %s%s%s · %s · %s", t->host, t->port[0] ? ":" : "", t->port,
		 t->desc.profile, cpus);
}

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
	if (t->n_objs == t->cap_objs) {
		size_t cap = t->cap_objs ? 2 * t->cap_objs : 256;
		struct obj_stat *o = realloc(t->objs, cap * sizeof *o);
		if (!o)
			return NULL;
		t->objs = o;
		t->cap_objs = cap;
	}
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

void target_record_frame(struct target *t, const struct proto_frame *f);
static void take_symbols(struct target *t, const struct kov_answer *a);

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
	case PROTO_SAMPLES_CHAINED: on_samples(t, f); kov_live_frame(&t->stacks, f); break;
	case PROTO_CHAINS: kov_live_frame(&t->stacks, f); break;
	case PROTO_INTERVAL_COUNTS: on_counts(t, f); break;
	case PROTO_STATUS:
	case PROTO_STATUS_EX: proto_decode_any_status(f, &t->st); break;
	case PROTO_PMU_CONFIG: target_take_config(t, f); break;
	case PROTO_LOCK_STATS:
	case PROTO_LOCK_CONTENTION: target_take_locks(t, f, kov_now_ns()); break;
	case PROTO_INVOCATIONS: on_invocations(t, f); break;
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

static void on_push(void *arg, const struct proto_frame *f)
{
	struct target *t = arg;
	t->frames++;
	target_record_frame(t, f);
	target_take_frame(t, f);
}

/* Delivers the recording's frames whose time has come; symbol tables as answers. */
static void replay_poll(struct target *t, uint64_t now)
{
	while (t->rp_next < t->rp_n && t->rp_times[t->rp_next] <= now - t->rp_start) {
		const struct kov_frame *fr = &t->rp_frames[t->rp_next++];
		t->frames++;
		if (proto_is_server_hello(fr->f.type)) {   /* the target's description: panes anew */
			t->have_desc = kov_rec_read_target(&fr->f, &t->desc);
			judge_panes(t);
		} else if (fr->f.type == PROTO_SYMBOLS) {
			struct proto_symbols_head h;
			struct proto_iter it;
			if (proto_decode_symbols(&fr->f, &h, &it) == 0) {
				struct kov_answer a = { (struct kov_frame *)fr, 1, 0 };
				t->sym_space = h.pid;
				take_symbols(t, &a);
				kov_live_frame(&t->stacks, &fr->f);
			}
		} else if (fr->f.req == 0) {
			target_take_frame(t, &fr->f);
		}
	}
}

static void disconnect(struct target *t, enum conn_state why, uint64_t now)
{
	snprintf(t->status, sizeof t->status, "%s", kov_client_error(t->c));
	kov_client_free(t->c);
	t->c = NULL;
	t->state = why;
	t->scan_req = t->sym_req = t->hot_req = t->lockname_req = 0;
	t->next_try_ns = now + RETRY_NS;
	for (int p = 0; p < PANES; p++)
		snprintf(t->pane[p].why, sizeof t->pane[p].why, "%s: %.280s", conn_name(why), t->status);
}

static void connect_target(struct target *t, uint64_t now)
{
	struct kov_client_options o = { .name = "kov-viewer 0.1", .token = t->token, .timeout_ms = 1500,
					.push_queue_max = 0 };
	t->c = kov_client_new(&o);
	if (!t->c)
		return;
	int rc = kov_client_connect(t->c, t->host, t->port);
	if (rc == KOV_E_REFUSED && t->token && t->token[0]) {
		/* A token this target does not take (it may have none): watch it instead. */
		char why[300];
		snprintf(why, sizeof why, "%s", kov_client_error(t->c));
		kov_client_free(t->c);
		o.token = NULL;
		t->c = kov_client_new(&o);
		rc = t->c ? kov_client_connect(t->c, t->host, t->port) : KOV_E_USAGE;
		if (rc == 0)
			fprintf(stderr, "kov-viewer: %s:%s: observing (%s)\n", t->host, t->port, why);
	}
	if (rc < 0) {
		if (t->c)
			disconnect(t, rc == KOV_E_REFUSED ? CONN_REFUSED : CONN_DOWN, now);
		return;
	}
	t->state = CONN_UP;
	t->n_spaces_known = t->n_spin = 0;
	memset(&t->losses, 0, sizeof t->losses);   /* the period since connected */
	t->desc = *kov_client_target(t->c);
	t->have_desc = true;
	if (t->rec) {   /* the description and catalogue first, as kovctl record writes them */
		uint8_t buf[64];
		struct kov_answer a;
		kov_rec_write_target(t->rec, kov_now_ns() - t->rec_start, &t->desc);
		int n = proto_encode_empty(buf, sizeof buf, PROTO_CATALOGUE_GET, 0, 0);
		if (kov_client_call(t->c, buf, (size_t)n, &a) == 0) {
			for (size_t k = 0; k < a.count; k++)
				target_record_frame(t, &a.frames[k].f);
			kov_answer_free(&a);
		}
	}
	const struct kov_target *d = kov_client_target(t->c);
	snprintf(t->status, sizeof t->status, "%s", kov_role_name(d->role));
	t->cat = kov_client_catalogue(t->c, &t->n_cat);
	judge_panes(t);
	kov_client_on_push(t->c, on_push, t);
	if (kov_client_status(t->c, &t->st) == 0 && kov_client_target(t->c)->minor >= 3)
		kov_losses_status(&t->losses, &t->st);   /* discards counted from now */
	{   /* the configuration in effect, for its privilege filter */
		uint8_t buf[64];
		struct kov_answer a;
		int n = proto_encode_empty(buf, sizeof buf, PROTO_CONFIG_GET, 0, 0);
		if (kov_client_call(t->c, buf, (size_t)n, &a) == 0) {
			target_take_config(t, &a.frames[a.count - 1].f);
			kov_answer_free(&a);
		}
	}
	/* The kernel's spin-lock code first; programs' as their samples arrive. */
	struct proto_symbol_query q = { PROTO_PID_KERNEL };
	uint8_t buf[64];
	int n = proto_encode_symbol_table_get(buf, sizeof buf, 0, 0, &q);
	if (n > 0 && kov_client_send(t->c, buf, (size_t)n, &t->sym_req) == 0)
		t->sym_space = 0;
	t->next_scan_ns = now;
}

static void take_symbols(struct target *t, const struct kov_answer *a)
{
	for (size_t k = 0; k < a->count; k++) {
		struct proto_symbols_head h;
		struct proto_iter it;
		struct proto_symbol s, prev = { 0 };
		bool open = false;
		if (proto_decode_symbols(&a->frames[k].f, &h, &it) < 0)
			continue;
		while (proto_next_symbol(&it, &s)) {
			if (open) {   /* a size-0 symbol ends where the next begins */
				t->spin[t->n_spin - 1].hi = s.start;
				open = false;
			}
			if (kov_is_spin_wait(s.name.s, s.name.len) && t->n_spin < 128) {
				t->spin[t->n_spin++] = (struct spin_range){ t->sym_space, s.start,
									    s.start + (s.size ? s.size : 4096) };
				open = !s.size;
			}
			prev = s;
		}
		(void)prev;
	}
	if (t->n_spaces_known < 64)
		t->spaces_known[t->n_spaces_known++] = t->sym_space;
}

const char *target_symbol(const struct target *t, uint32_t space, uint64_t pc)
{
	for (size_t k = 0; k < t->n_hot && t->hot_pid == space; k++)
		if (t->hot_pcs[k] == pc)
			return t->hot_names[k];
	return NULL;
}

void target_want_symbols(struct target *t, uint32_t space, uint64_t coid, uint32_t gen)
{
	if (!t->c || t->hot_req)
		return;
	uint64_t want[HOT_NAMES];
	size_t n = 0, known = 0;
	const struct obj_stat *o = target_object(t, space, coid, gen);
	for (size_t i = 0; o && i < o->n_pcs; i++)
		want[n++] = o->pcs[i].pc;
	const struct proto_lock *locks[8];
	size_t n_locks = target_locks_of(t, false, space, coid, gen, locks, 8);
	for (size_t i = 0; i < n_locks && i < 8; i++)
		for (int k = 0; k < PROTO_LOCK_SITES && locks[i]->site[k].pc && n < HOT_NAMES; k++)
			want[n++] = locks[i]->site[k].pc;
	if (!n)
		return;
	bool same = t->hot_pid == space && t->hot_coid == coid;
	for (size_t i = 0; same && i < n; i++)
		known += target_symbol(t, space, want[i]) != NULL;
	if (same && known == n)
		return;
	uint8_t buf[1024];
	struct proto_builder b;
	struct proto_symbol_query q = { space };
	proto_begin_symbol_lookup(&b, buf, sizeof buf, 0, 0, &q);
	for (size_t i = 0; i < n; i++)
		proto_add_address(&b, &want[i]);
	int len = proto_finish(&b);
	if (len > 0 && kov_client_send(t->c, buf, (size_t)len, &t->hot_req) == 0) {
		t->hot_pid = space;
		t->hot_coid = coid;
	}
}

void target_symbol_text(const struct proto_symbol *s, char *buf, size_t n)
{
	if (s->name.len)
		snprintf(buf, n, "%.*s+0x%llx", (int)(s->name.len > 80 ? 80 : s->name.len), s->name.s,
			 (unsigned long long)(s->addr - s->start));
	else
		snprintf(buf, n, "0x%llx", (unsigned long long)s->addr);
}

static void take_hot_spots(struct target *t, const struct kov_answer *a)
{
	t->n_hot = 0;
	for (size_t k = 0; k < a->count; k++) {
		struct proto_symbols_head h;
		struct proto_iter it;
		struct proto_symbol s;
		if (proto_decode_symbols(&a->frames[k].f, &h, &it) < 0)
			continue;
		while (proto_next_symbol(&it, &s) && t->n_hot < HOT_NAMES) {
			t->hot_pcs[t->n_hot] = s.addr;
			target_symbol_text(&s, t->hot_names[t->n_hot], sizeof t->hot_names[0]);
			t->n_hot++;
		}
	}
}

void target_poll(struct target *t, uint64_t now)
{
	if (t->state == CONN_REPLAY) {
		replay_poll(t, now);
		return;
	}
	if (!t->c) {
		if (now >= t->next_try_ns)
			connect_target(t, now);
		if (!t->c)
			return;
	}
	int rc = kov_client_pump(t->c, 0);
	if (rc < 0) {
		disconnect(t, CONN_DOWN, now);
		return;
	}
	struct kov_answer a;
	if (!t->sym_req && t->want_space && t->n_spaces_known < 64) {
		/* Learn a program's spin-lock code, one table at a time. */
		struct proto_symbol_query q = { t->want_space };
		uint8_t buf[64];
		int n = proto_encode_symbol_table_get(buf, sizeof buf, 0, 0, &q);
		if (n > 0 && kov_client_send(t->c, buf, (size_t)n, &t->sym_req) == 0)
			t->sym_space = t->want_space;
		t->want_space = 0;
	}
	if (t->sym_req) {
		rc = kov_client_take(t->c, t->sym_req, &a);
		if (rc == 1) {
			for (size_t k = 0; k < a.count; k++) {
				target_record_frame(t, &a.frames[k].f);
				kov_live_frame(&t->stacks, &a.frames[k].f);   /* names the stacks */
			}
			take_symbols(t, &a);
			kov_answer_free(&a);
			t->sym_req = 0;
		} else if (rc < 0 && rc != KOV_E_TARGET) {
			disconnect(t, CONN_DOWN, now);
			return;
		} else if (rc < 0) {
			t->spaces_known[t->n_spaces_known < 64 ? t->n_spaces_known++ : 63] = t->sym_space;
			t->sym_req = 0;   /* no table for that program: its samples stay unclassified */
		}
	}
	if (t->hot_req) {
		rc = kov_client_take(t->c, t->hot_req, &a);
		if (rc == 1) {
			take_hot_spots(t, &a);
			kov_answer_free(&a);
			t->hot_req = 0;
		} else if (rc < 0 && rc != KOV_E_TARGET) {
			disconnect(t, CONN_DOWN, now);
			return;
		} else if (rc < 0) {
			t->hot_req = 0;
		}
	}
	if (!target_name_locks(t)) {
		disconnect(t, CONN_DOWN, now);
		return;
	}
	if (!t->scan_req && now >= t->next_scan_ns) {
		struct proto_scan_request q = { PROTO_PID_ALL, PROTO_SCAN_PROCESSES_BIT | PROTO_SCAN_OBJECTS_BIT };
		uint8_t buf[64];
		int n = proto_encode_scan_request(buf, sizeof buf, 0, 0, &q);
		if (n > 0 && kov_client_send(t->c, buf, (size_t)n, &t->scan_req) < 0) {
			disconnect(t, CONN_DOWN, now);
			return;
		}
	}
	if (t->scan_req) {
		rc = kov_client_take(t->c, t->scan_req, &a);
		if (rc == 1) {
			for (size_t k = 0; k < a.count && !t->recorded_scan; k++)
				target_record_frame(t, &a.frames[k].f);
			t->recorded_scan = t->rec != NULL;
			for (size_t k = 0; k < a.count; k++)
				kov_live_frame(&t->stacks, &a.frames[k].f);
			struct kov_scan s;
			char err[200];
			if (kov_scan_build(&a, &s, err, sizeof err) == 0)
				target_take_scan(t, &s);
			kov_answer_free(&a);
			t->scan_req = 0;
			t->next_scan_ns = now + RESCAN_NS;
		} else if (rc < 0) {
			disconnect(t, CONN_DOWN, now);
		}
	}
}

bool target_instrument(struct target *t, uint32_t pid, uint64_t coid, bool on, uint16_t what)
{
	const char *what_name = what == PROTO_INSTR_INVOCATIONS ? "invocation counting" :
				what == PROTO_INSTR_SLEEPLOCKS ? "sleep-lock figures" : "full lock counting";
	if (t->state != CONN_UP || kov_client_target(t->c)->role != PROTO_ROLE_CONTROLLER) {
		snprintf(t->status, sizeof t->status, "%s needs the controller role (--token)", what_name);
		return false;
	}
	uint8_t buf[64];
	struct kov_answer a;
	struct proto_instrument m = { pid, coid, what, on };
	int n = proto_encode_instrument(buf, sizeof buf, 0, 0, &m);
	if (n < 0 || kov_client_call(t->c, buf, (size_t)n, &a) < 0) {
		snprintf(t->status, sizeof t->status, "%s refused: %s", what_name, kov_client_error(t->c));
		return false;
	}
	kov_answer_free(&a);
	if (on && what == PROTO_INSTR_INVOCATIONS && t->n_counted < 64) {
		t->counted[t->n_counted].pid = pid;
		t->counted[t->n_counted++].coid = coid;
	}
	kov_client_status(t->c, &t->st);
	uint32_t stream = what == PROTO_INSTR_INVOCATIONS ? PROTO_STREAM_INVOCATIONS : PROTO_STREAM_LOCKS;
	if (!(t->st.streams & stream)) {
		struct proto_start s = { t->st.streams | stream, 0 };
		n = proto_encode_start(buf, sizeof buf, 0, 0, &s);
		if (kov_client_call(t->c, buf, (size_t)n, &a) == 0)
			kov_answer_free(&a);
	}
	snprintf(t->status, sizeof t->status, "%s %s for pid %u %s", what_name, on ? "on" : "off", pid,
		 coid ? "(one object)" : "(all objects)");
	return true;
}

void target_free(struct target *t)
{
	if (t->c)
		kov_client_free(t->c);
	if (t->have_scan)
		kov_scan_free(&t->scan);
	for (int p = 0; p < PANES; p++) {
		series_free(&t->pane[p].s);
		series_free(&t->pane[p].s2);
		if (t->pane[p].chart)
			cairo_surface_destroy(t->pane[p].chart);
	}
	free(t->objs);
	free(t->locks);
	kov_live_free(&t->stacks);
	for (size_t i = 0; i < t->rp_n; i++)
		free(t->rp_frames[i].bytes);
	free(t->rp_frames);
	free(t->rp_times);
	for (size_t i = 0; t->rp_cat && i < t->n_cat; i++) {
		free(t->rp_cat[i].description);
		free(t->rp_cat[i].why_not);
	}
	free(t->rp_cat);
	if (t->rec)
		fclose(t->rec);
}

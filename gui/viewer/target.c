/* A target: its connection (reconnected every 2 s while down), what it pushes turned into
 * pane series and per-object sample counts, and the scans and symbol tables the views need,
 * all requested and collected without waiting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/lockstat.h"

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
	[PANE_SPIN] = { "Spin-lock contention", "%" },
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
	t->ev_inst = t->ev_cyc = t->ev_hpt = t->ev_slb = -1;
	snprintf(t->status, sizeof t->status, "connecting to %s:%s", host, port);
	for (int p = 0; p < PANES; p++) {
		t->pane[p].title = pane_names[p].title;
		t->pane[p].unit = pane_names[p].unit;
		snprintf(t->pane[p].why, sizeof t->pane[p].why, "not connected");
		series_init(&t->pane[p].s);
	}
}

static int find_event(const struct kov_event *ev, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(ev[i].name, name))
			return (int)i;
	return -1;
}

/* What each pane can show on this target, from its catalogue: never a fake zero. */
void judge_panes(struct target *t)
{
	size_t n = t->n_cat;
	const struct kov_event *ev = t->cat;
	t->ev_inst = find_event(ev, n, "PM_INST_CMPL");
	t->ev_cyc = find_event(ev, n, "PM_CYC");
	t->ev_hpt = find_event(ev, n, "SW_HPT_MISS");
	t->ev_slb = find_event(ev, n, "SW_SLB_MISS");
	struct { enum pane_kind p; const char *need; const char *method; } need[] = {
		{ PANE_IPC, "PM_CYC", "PM_INST_CMPL / PM_CYC from interval counts" },
		{ PANE_SPIN, "PM_INST_CMPL", "share of instruction samples in spin-lock acquisition code" },
		{ PANE_MMU, "SW_HPT_MISS", "software-handled SLB and page-table misses per 1000 instructions" },
		{ PANE_BRANCH, "PM_BR_MPRED_CR", "" },
		{ PANE_LOCKACQ, "PM_STCX_PASS", "" },
	};
	for (size_t k = 0; k < sizeof need / sizeof need[0]; k++) {
		struct pane *p = &t->pane[need[k].p];
		int i = find_event(ev, n, need[k].need);
		bool counts = i >= 0 && (ev[i].flags & PROTO_EV_COUNTS_HERE);
		if (need[k].p == PANE_SPIN)
			counts = i >= 0 && (ev[i].flags & PROTO_EV_SAMPLES_HERE);
		p->available = counts;
		if (counts)
			snprintf(p->why, sizeof p->why, "%s", need[k].method);
		else
			snprintf(p->why, sizeof p->why, "not available on this target: %s %s", need[k].need,
				 i < 0 ? "is not in its catalogue" : ev[i].why_not);
	}
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
	uint32_t space = coid >= KOV_KERNEL_COID_BASE ? 0 : pid;
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
	if (proto_decode_samples(f, &h, &it) < 0)
		return;
	while (proto_next_sample(&it, &s)) {
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
		if (s.flags & PROTO_SMP_NO_OBJECT)
			continue;
		struct obj_stat *o = obj_of(t, space, s.coid, s.gen);
		if (o) {
			o->samples++;
			o->spin += spin;
			o->last_ns = now;
			o->iv_count++;
			count_pc(o, s.pc);
		}
	}
}

static void on_counts(struct target *t, const struct proto_frame *f)
{
	struct proto_counts_head h;
	struct proto_iter it;
	struct proto_count c;
	uint64_t inst[PROTO_MAX_GROUPS] = { 0 }, cyc[PROTO_MAX_GROUPS] = { 0 }, mmu = 0, all_inst = 0;
	bool has_inst[PROTO_MAX_GROUPS] = { 0 }, has_cyc[PROTO_MAX_GROUPS] = { 0 }, has_mmu = false;
	if (proto_decode_interval_counts(f, &h, &it) < 0)
		return;
	while (proto_next_count(&it, &c)) {
		unsigned g = c.group < PROTO_MAX_GROUPS ? c.group : 0;
		if (c.event == t->ev_inst) {
			inst[g] += c.raw;
			has_inst[g] = true;
			all_inst += c.raw;
		} else if (c.event == t->ev_cyc) {
			cyc[g] += c.raw;
			has_cyc[g] = true;
		} else if (c.event == t->ev_hpt || c.event == t->ev_slb) {
			mmu += c.raw;
			has_mmu = true;
		}
	}
	uint64_t now = kov_now_ns(), i_sum = 0, c_sum = 0;
	for (unsigned g = 0; g < PROTO_MAX_GROUPS; g++)
		if (has_inst[g] && has_cyc[g]) {   /* counted together: a ratio that means something */
			i_sum += inst[g];
			c_sum += cyc[g];
		}
	t->intervals++;
	if (c_sum)
		series_push(&t->pane[PANE_IPC].s, now, (double)i_sum / (double)c_sum);
	if (has_mmu && all_inst)
		series_push(&t->pane[PANE_MMU].s, now, 1000.0 * (double)mmu / (double)all_inst);
	if (t->iv_inst)
		series_push(&t->pane[PANE_SPIN].s, now, 100.0 * (double)t->iv_spin / (double)t->iv_inst);
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

static void on_locks(struct target *t, const struct proto_frame *f)
{
	struct proto_interval h;
	struct proto_iter it;
	struct proto_lock l;
	uint64_t now = kov_now_ns();
	if (kov_lock_decode(f, &h, &it) < 0)
		return;
	while (kov_lock_next(f, &it, &l)) {
		size_t i = 0;
		while (i < t->n_locks && (t->locks[i].sum.pid != l.pid || t->locks[i].sum.lock != l.lock))
			i++;
		if (i == t->n_locks) {
			if (t->n_locks == MAX_LOCKS)
				continue;
			struct lock_view *n = &t->locks[t->n_locks++];
			kov_lock_start(&n->sum, &l);
			n->reports = 0;
			series_init(&n->waiters);
		}
		struct lock_view *v = &t->locks[i];
		kov_lock_add(&v->sum, &l);
		v->reports++;
		series_push(&v->waiters, now, l.qlen_samples ? (double)l.qlen_sum / (double)l.qlen_samples : 0);
	}
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
	switch (f->type) {
	case PROTO_SAMPLES: on_samples(t, f); break;
	case PROTO_INTERVAL_COUNTS: on_counts(t, f); break;
	case PROTO_STATUS: proto_decode_status(f, &t->st); break;
	case PROTO_LOCK_STATS:
	case PROTO_LOCK_CONTENTION: on_locks(t, f); break;
	case PROTO_INVOCATIONS: on_invocations(t, f); break;
	default: break;
	}
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
		if (fr->f.type == PROTO_SYMBOLS) {
			struct proto_symbols_head h;
			struct proto_iter it;
			if (proto_decode_symbols(&fr->f, &h, &it) == 0) {
				struct kov_answer a = { (struct kov_frame *)fr, 1, 0 };
				t->sym_space = h.pid;
				take_symbols(t, &a);
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
	t->scan_req = t->sym_req = t->hot_req = 0;
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
	if (t->rec) {   /* the catalogue first, as kovctl record writes it */
		uint8_t buf[64];
		struct kov_answer a;
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
	kov_client_status(t->c, &t->st);
	/* The kernel's spin-lock code first; programs' as their samples arrive. */
	struct proto_symbol_query q = { PROTO_PID_KERNEL };
	uint8_t buf[64];
	int n = proto_encode_symbol_table_get(buf, sizeof buf, 0, 0, &q);
	if (n > 0 && kov_client_send(t->c, buf, (size_t)n, &t->sym_req) == 0)
		t->sym_space = 0;
	t->next_scan_ns = now;
}

static bool spin_name(const struct proto_str *s)
{
	static const char *const names[] = { "spin_lock", "spin_trylock", "spin_trylock_as" };
	for (size_t i = 0; i < 3; i++)
		if (s->len == strlen(names[i]) && !memcmp(s->s, names[i], s->len))
			return true;
	return false;
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
			if (spin_name(&s.name) && t->n_spin < 128) {
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

void target_want_hot_spots(struct target *t, const struct obj_stat *o)
{
	if (!t->c || t->hot_req || !o->n_pcs)
		return;
	bool same = t->hot_pid == o->pid && t->hot_coid == o->coid;
	size_t known = 0;
	for (size_t i = 0; same && i < o->n_pcs; i++)
		for (size_t k = 0; k < t->n_hot; k++)
			known += t->hot_pcs[k] == o->pcs[i].pc;
	if (same && known == o->n_pcs)
		return;
	uint8_t buf[1024];
	struct proto_builder b;
	struct proto_symbol_query q = { o->pid };
	proto_begin_symbol_lookup(&b, buf, sizeof buf, 0, 0, &q);
	for (size_t i = 0; i < o->n_pcs; i++)
		proto_add_address(&b, &o->pcs[i].pc);
	int n = proto_finish(&b);
	if (n > 0 && kov_client_send(t->c, buf, (size_t)n, &t->hot_req) == 0) {
		t->hot_pid = o->pid;
		t->hot_coid = o->coid;
	}
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
		while (proto_next_symbol(&it, &s) && t->n_hot < OBJ_PCS) {
			t->hot_pcs[t->n_hot] = s.addr;
			if (s.name.len)
				snprintf(t->hot_names[t->n_hot], sizeof t->hot_names[0], "%.*s+0x%llx",
					 (int)(s.name.len > 80 ? 80 : s.name.len), s.name.s,
					 (unsigned long long)(s.addr - s.start));
			else
				snprintf(t->hot_names[t->n_hot], sizeof t->hot_names[0], "0x%llx",
					 (unsigned long long)s.addr);
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
			for (size_t k = 0; k < a.count; k++)
				target_record_frame(t, &a.frames[k].f);
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
	if (t->state != CONN_UP || kov_client_target(t->c)->role != PROTO_ROLE_CONTROLLER) {
		snprintf(t->status, sizeof t->status, "invocation counting needs the controller role (--token)");
		return false;
	}
	uint8_t buf[64];
	struct kov_answer a;
	struct proto_instrument m = { pid, coid, what, on };
	int n = proto_encode_instrument(buf, sizeof buf, 0, 0, &m);
	if (n < 0 || kov_client_call(t->c, buf, (size_t)n, &a) < 0) {
		snprintf(t->status, sizeof t->status, "invocation counting refused: %s", kov_client_error(t->c));
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
	snprintf(t->status, sizeof t->status, "%s %s for pid %u %s",
		 what == PROTO_INSTR_INVOCATIONS ? "invocation counting" : "sleep-lock figures",
		 on ? "on" : "off", pid, coid ? "(one object)" : "(all objects)");
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
		if (t->pane[p].chart)
			cairo_surface_destroy(t->pane[p].chart);
	}
	free(t->objs);
	for (size_t i = 0; i < t->n_locks; i++)
		series_free(&t->locks[i].waiters);
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

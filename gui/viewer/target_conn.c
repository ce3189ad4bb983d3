/* A target's connection (reconnected every 2 s while down) or the recording replayed in its
 * place, and the scans and symbol tables the views need, all requested and collected without
 * waiting; turning the target's instrumentation on and off. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"
#include "client/recording.h"

#define RETRY_NS 2000000000ull

static void take_symbols(struct target *t, const struct kov_answer *a);

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
				struct kov_answer a = { (struct kov_frame *)fr, 1, 0, 1 };
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

int target_start(struct target *t, uint32_t streams)
{
	uint8_t buf[64];
	struct kov_answer a;
	struct proto_start s = { streams, 0 };
	int n = proto_encode_start(buf, sizeof buf, 0, 0, &s);
	int rc = n < 0 ? -1 : kov_client_call(t->c, buf, (size_t)n, &a);
	if (rc == 0) {
		kov_answer_free(&a);
		if ((streams & PROTO_STREAM_LOCKS) && t->locks_refused[0]) {
			t->locks_refused[0] = 0;   /* another image behind the same address */
			judge_panes(t);
		}
		return 0;
	}
	if (!(streams & PROTO_STREAM_LOCKS) || rc != KOV_E_TARGET ||
	    kov_client_error_code(t->c) != PROTO_E_UNAVAILABLE)
		return rc;
	snprintf(t->locks_refused, sizeof t->locks_refused, "%s", kov_client_error(t->c));
	judge_panes(t);   /* the lock panes say why they stay empty */
	s.streams &= ~(uint32_t)PROTO_STREAM_LOCKS;
	n = proto_encode_start(buf, sizeof buf, 0, 0, &s);
	rc = kov_client_call(t->c, buf, (size_t)n, &a);
	if (rc == 0)
		kov_answer_free(&a);
	return rc;
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
	if (!(t->st.streams & stream))
		target_start(t, t->st.streams | stream);
	snprintf(t->status, sizeof t->status, "%s %s for pid %u %s", what_name, on ? "on" : "off", pid,
		 coid ? "(one object)" : "(all objects)");
	return true;
}


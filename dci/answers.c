/* Answers to the requests of docs/protocol.md sections 3-5 (monitoring ones in control.c),
 * registered in dispatch.c's table. */
#include "dispatch.h"
#include "status.h"
#include "chains.h"
#include "common/syms/ksyms.h"
#include "common/lib/format.h"
#include "common/lib/bytes.h"

static uint8_t frame[PROTO_MAX_FRAME];

static void send_built(struct client *c, struct proto_builder *b, bool more)
{
	int n = proto_finish(b);
	if (n < 0)
		return;
	if (more)
		proto_frame_set_flags(frame, PROTO_F_MORE);
	client_queue(c, frame, (size_t)n);
}

static void send_catalogue(struct client *c, uint32_t req, bool last_has_more)
{
	uint32_t i = 0;
	do {
		struct proto_builder b;
		struct proto_catalogue_head h = { (uint16_t)target.n_events, (uint16_t)i };
		proto_begin_event_catalogue(&b, frame, sizeof frame, req, 0, &h);
		for (; i < target.n_events; i++) {
			const struct km_event_info *e = &target.events[i];
			/* The basis and mode bits came with 1.3: older clients get the rest. */
			uint8_t flags = c->minor >= 3 ? e->flags : e->flags & PROTO_EV_FLAGS_1_2;
			struct proto_event r = { e->source, flags, e->code, proto_cstr(e->name),
						 proto_cstr(e->description), proto_cstr(e->why_not) };
			if (proto_add_event(&b, &r) < 0)
				break;
		}
		send_built(c, &b, i < target.n_events || last_has_more);
	} while (i < target.n_events && c->used);
}

static void refuse(struct client *c, uint32_t req, uint16_t major, int code, const char *reason)
{
	struct proto_server_hello sh = { PROTO_MAGIC, major, PROTO_MINOR, (uint16_t)code,
					 PROTO_ROLE_NONE, 0, proto_cstr(reason), { 0 } };
	int n = proto_encode_server_hello(frame, sizeof frame, req, 0, &sh);
	if (n > 0)
		client_queue(c, frame, (size_t)n);
	printf("dcid: client %u refused: %s\n", c->id, reason);
	c->closing = true;
	if (!client_backlog(c))
		client_finish(c);
}

void answer_hello(struct client *c, const struct proto_frame *f)
{
	struct proto_hello h;
	int rc = proto_decode_hello(f, &h);
	char reason[PROTO_TEXT_MAX];
	if (rc < 0) {
		proto_refusal_text(&h, rc, reason, sizeof reason);
		refuse(c, f->req, rc == -PROTO_E_VERSION ? PROTO_MAJOR : h.major, -rc, reason);
		return;
	}
	if (clients_connected() >= DCID_MAX_CLIENTS) {
		format_buf(reason, sizeof reason, "the daemon serves at most %d clients", DCID_MAX_CLIENTS);
		refuse(c, f->req, PROTO_MAJOR, PROTO_E_OVERLOAD, reason);
		return;
	}
	enum proto_role role = PROTO_ROLE_OBSERVER;
	reason[0] = 0;
	if (h.token.len) {
		if (!dcid.token[0] || !proto_str_eq(h.token, dcid.token)) {
			refuse(c, f->req, PROTO_MAJOR, PROTO_E_DENIED,
			       dcid.token[0] ? "wrong controller token"
					     : "this daemon was started without a controller token");
			return;
		}
		if (dcid.controller)
			format_buf(reason, sizeof reason, "client %u is the controller; observing",
				   dcid.controller);
		else
			role = PROTO_ROLE_CONTROLLER;
	}
	target_refresh();
	struct proto_server_hello sh = {
		PROTO_MAGIC, PROTO_MAJOR, PROTO_MINOR, 0, (uint16_t)role, c->id, proto_cstr(reason),
		{ target.info.timebase_hz, timebase_now(), target.info.memory, target.info.pvr,
		  target.info.cpus, (uint16_t)target.n_events, proto_cstr(target.info.profile),
		  proto_cstr(target.info.model), proto_cstr(target.info.pmu),
		  proto_cstr(target.info.build_id), PROTO_STR(DCID_NAME), target_cpus_run() } };
	/* 1.5 clients learn how the CPUs ran too; older ones get the SERVER_HELLO they know. */
	int n = h.minor >= 5 ? proto_encode_server_hello_ex(frame, sizeof frame, f->req, PROTO_F_MORE,
							    &sh)
			     : proto_encode_server_hello(frame, sizeof frame, f->req, PROTO_F_MORE, &sh);
	if (n < 0) {   /* only the target's own description is encoded here, none of the client's */
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "cannot describe the target");
		return;
	}
	char client_name[PROTO_NAME_MAX + 1];
	proto_str_copy(client_name, sizeof client_name, h.client);
	c->role = role;
	c->minor = h.minor;
	c->no_data = f->flags & PROTO_F_NO_DATA;
	chains_client_reset(c);
	if (role == PROTO_ROLE_CONTROLLER)
		dcid.controller = c->id;
	client_queue(c, frame, (size_t)n);
	send_catalogue(c, f->req, false);
	printf("dcid: client %u is \"%s\", %s\n", c->id, client_name,
	       role == PROTO_ROLE_CONTROLLER ? "controller" : "observer");
	if (role == PROTO_ROLE_CONTROLLER)
		clients_push_status();
}

void answer_claim(struct client *c, const struct proto_frame *f)
{
	struct proto_claim m;
	proto_decode_claim(f, &m);
	if (!dcid.token[0] || !proto_str_eq(m.token, dcid.token)) {
		client_error(c, f->req, f->type, PROTO_E_DENIED, "wrong controller token");
		return;
	}
	if (dcid.controller && dcid.controller != c->id) {
		client_error(c, f->req, f->type, PROTO_E_BUSY, "another client is the controller");
		return;
	}
	dcid.controller = c->id;
	c->role = PROTO_ROLE_CONTROLLER;
	int n = proto_encode_empty(frame, sizeof frame, PROTO_OK, f->req, 0);
	client_queue(c, frame, (size_t)n);
	clients_push_status();
}

/* ---- scan ---------------------------------------------------------------------------------- */

static uint32_t generation_of(const struct snapshot *s, uint32_t pid, bool user, uint32_t index)
{
	for (uint32_t i = 0; i < s->n_objs; i++) {
		const struct scan_record *r = &s->objs[i];
		if (r->index == index && ((r->flags & SCAN_USER) != 0) == user && (!user || r->pid == pid))
			return r->generation;
	}
	return 0;
}

void answer_scan(struct client *c, const struct proto_frame *f)
{
	struct proto_scan_request m;
	proto_decode_scan_request(f, &m);
	struct snapshot s;
	if (!snapshot_take(&s)) {   /* out of memory, or the KM refused the daemon's own call */
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "the KM scan failed");
		return;
	}
	if (m.pid != PROTO_PID_ALL && m.pid != 0 && !snapshot_process(&s, m.pid)) {
		char text[64];
		format_buf(text, sizeof text, "no process %u", m.pid);
		client_error(c, f->req, f->type, PROTO_E_NOT_FOUND, text);
		snapshot_free(&s);
		return;
	}
	struct proto_scan_head head = { s.timebase };
	bool objects = m.what & PROTO_SCAN_OBJECTS_BIT;
	if (m.what & PROTO_SCAN_PROCESSES_BIT) {
		uint32_t i = 0;
		bool kernel = m.pid == PROTO_PID_ALL || m.pid == 0;   /* pid 0 owns the KM's objects */
		do {
			struct proto_builder b;
			proto_begin_scan_processes(&b, frame, sizeof frame, f->req, 0, &head);
			if (kernel) {
				struct proto_process k = { 0, 0, 0, PROTO_PS_RUNNING, PROTO_STR("kernel") };
				proto_add_process(&b, &k);
				kernel = false;
			}
			for (; i < s.n_procs; i++) {
				const struct km_process *p = &s.procs[i];
				if (m.pid != PROTO_PID_ALL && p->pid != m.pid)
					continue;
				struct proto_process r = { p->pid, p->ppid, p->threads,
							   p->state == KM_PROC_EXITED ? PROTO_PS_EXITING
										      : PROTO_PS_RUNNING,
							   proto_cstr(p->name) };
				if (!r.name.len)
					r.name = PROTO_STR("?");
				if (proto_add_process(&b, &r) < 0)
					break;
			}
			send_built(c, &b, i < s.n_procs || objects);
		} while (i < s.n_procs && c->used);
	}
	if (objects && c->used) {
		uint32_t i = 0;
		do {
			struct proto_builder b;
			proto_begin_scan_objects(&b, frame, sizeof frame, f->req, 0, &head);
			for (; i < s.n_objs; i++) {
				const struct scan_record *r = &s.objs[i];
				if (m.pid != PROTO_PID_ALL && r->pid != m.pid)
					continue;
				bool user = r->flags & SCAN_USER;
				uint32_t space = user ? r->pid : 0;
				uint64_t reps[SCAN_MAX_CPUS];
				uint32_t ncpu = target.info.cpus < SCAN_MAX_CPUS ? target.info.cpus : SCAN_MAX_CPUS;
				unsigned distinct = 0;
				for (uint32_t k = 0; k < ncpu; k++) {
					reps[k] = r->reps[k];
					if (reps[k] && (k == 0 || reps[k] != reps[0]))
						distinct++;
				}
				struct proto_ref kids[SCAN_MAX_CHILDREN];
				uint32_t nk = r->nchildren < SCAN_MAX_CHILDREN ? r->nchildren : SCAN_MAX_CHILDREN;
				for (uint32_t k = 0; k < nk; k++)
					kids[k] = (struct proto_ref){ coid_of(space, r->children[k]),
								      generation_of(&s, r->pid, user, r->children[k]) };
				struct proto_object o = {
					r->pid, r->generation, coid_of(space, r->index), r->root,
					(uint16_t)((distinct > 1 || (r->flags & SCAN_PER_CPU) ?
						    PROTO_OBJ_PER_CPU : PROTO_OBJ_SINGLE_REP) |
						   (r->nchildren > nk ? PROTO_OBJ_CHILDREN_CUT : 0)),
					proto_cstr(r->class_name), { reps, 0, ncpu }, { kids, 0, nk } };
				if (!o.class_name.len)
					o.class_name = PROTO_STR("?");
				if (proto_add_object(&b, &o) < 0)
					break;
			}
			send_built(c, &b, i < s.n_objs);
		} while (i < s.n_objs && c->used);
	}
	snapshot_free(&s);
}

/* ---- symbols ------------------------------------------------------------------------------- */

static const void *table_for(struct client *c, const struct proto_frame *f, uint32_t pid,
			     const char **image)
{
	if (pid == PROTO_PID_KERNEL) {
		*image = "kernel";
		if (!target.ksyms_size)
			client_error(c, f->req, f->type, PROTO_E_UNAVAILABLE, "the kernel has no symbol table");
		return target.ksyms_size ? target.ksyms : 0;
	}
	const char *why = 0;
	const void *t = program_symbols(pid, image, &why);
	if (!t)
		client_error(c, f->req, f->type,
			     why && strcmp(why, "no such process") == 0 ? PROTO_E_NOT_FOUND
									 : PROTO_E_UNAVAILABLE, why);
	return t;
}

void answer_lookup(struct client *c, const struct proto_frame *f)
{
	struct proto_symbol_query q;
	struct proto_iter it;
	proto_decode_symbol_lookup(f, &q, &it);
	const char *image = "";
	const void *t = table_for(c, f, q.pid, &image);
	if (!t)
		return;
	struct proto_symbols_head h = { q.pid, proto_cstr(image) };
	uint64_t addr;
	bool have = proto_next_address(&it, &addr);
	do {
		struct proto_builder b;
		proto_begin_symbols(&b, frame, sizeof frame, f->req, 0, &h);
		while (have) {
			uint64_t start = 0;
			const char *name = ksyms_lookup(t, addr, &start);
			if (name && !*name)
				name = NULL;   /* the codec refuses a nameless symbol with a start: it would never fit */
			struct proto_symbol r = { addr, name ? start : 0, 0, proto_cstr(name ? name : "") };
			if (r.name.len > PROTO_SYMBOL_MAX)
				r.name.len = PROTO_SYMBOL_MAX;
			if (proto_add_symbol(&b, &r) < 0)
				break;
			have = proto_next_address(&it, &addr);
		}
		send_built(c, &b, have);
	} while (have && c->used);
}

/* Encodes a whole symbol table as SYMBOLS frames (request id 0) into out; returns the bytes
 * written, or -1 if cap is too small. */
static long encode_table(const uint8_t *t, uint32_t pid, const char *image, uint8_t *out, size_t cap)
{
	uint32_t count = be32_load(t + 4);
	const char *strings = (const char *)t + KSYMS_HEADER_SIZE + (size_t)count * KSYMS_ENTRY_SIZE;
	struct proto_symbols_head h = { pid, proto_cstr(image) };
	size_t len = 0;
	uint32_t i = 0;
	do {
		struct proto_builder b;
		proto_begin_symbols(&b, frame, sizeof frame, 0, 0, &h);
		for (; i < count; i++) {
			const uint8_t *e = t + KSYMS_HEADER_SIZE + (size_t)i * KSYMS_ENTRY_SIZE;
			uint64_t a = be64_load(e);
			struct proto_symbol r = { a, a, be32_load(e + 12), proto_cstr(strings + be32_load(e + 8)) };
			if (!r.name.len)
				continue;   /* names nothing, and the codec refuses it: it would end no frame */
			if (r.name.len > PROTO_SYMBOL_MAX)
				r.name.len = PROTO_SYMBOL_MAX;
			if (proto_add_symbol(&b, &r) < 0)
				break;
		}
		int n = proto_finish(&b);
		if (n < 0 || len + (size_t)n > cap)
			return -1;
		if (i < count)
			proto_frame_set_flags(frame, PROTO_F_MORE);
		memcpy(out + len, frame, (size_t)n);
		len += (size_t)n;
	} while (i < count);
	return (long)len;
}

/* Queues encoded frames with the request id set in each. */
static void queue_frames(struct client *c, uint8_t *frames, size_t len, uint32_t req)
{
	for (size_t off = 0; off < len && c->used;) {
		uint8_t *f = frames + off;
		size_t n = 4 + be32_load(f);
		be32_store(f + 8, req);
		client_queue(c, f, n);
		off += n;
	}
}

void answer_table(struct client *c, const struct proto_frame *f)
{
	/* The kernel's table never changes: it is encoded once and served from the copy. */
	static uint8_t *kernel_frames;
	static long kernel_len;
	struct proto_symbol_query q;
	proto_decode_symbol_table_get(f, &q);
	const char *image = "";
	const uint8_t *t = table_for(c, f, q.pid, &image);
	if (!t)
		return;
	size_t cap = 2 * (size_t)(q.pid == PROTO_PID_KERNEL ? target.ksyms_size : 256 * 1024) + 4096;
	if (q.pid == PROTO_PID_KERNEL && kernel_frames) {
		queue_frames(c, kernel_frames, (size_t)kernel_len, f->req);
		return;
	}
	uint8_t *out = malloc(cap);
	long len = out ? encode_table(t, q.pid, image, out, cap) : -1;
	if (len < 0) {   /* out of memory, or cap's estimate is wrong: the request was fine */
		free(out);
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "the symbol table does not fit");
		return;
	}
	queue_frames(c, out, (size_t)len, f->req);
	if (q.pid == PROTO_PID_KERNEL) {
		kernel_frames = out;
		kernel_len = len;
	} else {
		free(out);
	}
}

void answer_ping(struct client *c, const struct proto_frame *f)
{
	struct proto_ping p;
	proto_decode_ping(f, &p);
	struct proto_pong r = { p.cookie, timebase_now() };
	int n = proto_encode_pong(frame, sizeof frame, f->req, 0, &r);
	client_queue(c, frame, (size_t)n);
}

void answer_status(struct client *c, const struct proto_frame *f)
{
	/* Drops not reported yet come first: a client asking at the end of a period learns of
	 * all of them before the answer. */
	if (!client_drop_notice(c))
		return;
	int n = encode_status_for(c, frame, sizeof frame, f->req);
	client_queue(c, frame, (size_t)n);
}

void answer_wakeups(struct client *c, const struct proto_frame *f)
{
	/* Live counters: read from the KM for every answer, as /metrics does. */
	target_refresh();
	const struct km_info *i = &target.info;
	struct proto_wakeups w = { i->timebase_now, i->wake_rescues, i->wake_resets,
				   i->wake_prods, i->wake_late_max_us, i->ticks_pending };
	int n = proto_encode_wakeups(frame, sizeof frame, f->req, 0, &w);
	client_queue(c, frame, (size_t)n);
}

void answer_catalogue(struct client *c, const struct proto_frame *f)
{
	send_catalogue(c, f->req, false);
}

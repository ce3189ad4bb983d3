/* Client connections: reading frames, the bounded output queue, errors and cut-offs
 * (dci/client.h). */
#include "client.h"
#include "common/lib/bytes.h"

struct daemon_state dcid;
static const struct client_hooks *hooks;

void clients_init(const struct client_hooks *h)
{
	hooks = h;
}

uint32_t clients_pending(void)
{
	uint32_t n = 0;
	for (int i = 0; i < DCID_SLOTS; i++)
		if (dcid.clients[i].used && dcid.clients[i].role == PROTO_ROLE_NONE)
			n++;
	return n;
}

/* With every pending slot taken, the oldest pending connection gives way (one already refused
 * and closing first): an idle connection can delay a real client by nothing, a flood of them
 * only by pushing each other out. At most DCID_MAX_CLIENTS are past the handshake, so a slot
 * is then free. */
static void make_room(void)
{
	if (clients_pending() < DCID_MAX_PENDING)
		return;
	/* A burst of connects is accepted before their HELLOs are read: read those first. */
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (c->used && c->role == PROTO_ROLE_NONE && !c->closing)
			client_readable(c);
	}
	if (clients_pending() < DCID_MAX_PENDING)
		return;
	struct client *victim = 0;
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (!c->used || c->role != PROTO_ROLE_NONE)
			continue;
		if (!victim || (c->closing && !victim->closing) ||
		    (c->closing == victim->closing && c->opened_ns < victim->opened_ns))
			victim = c;
	}
	dcid.handshakes_closed++;
	client_close(victim, "no HELLO yet, and a newer connection needed its slot");
}

void client_open(int fd)
{
	make_room();
	struct client *c = 0;
	for (int i = 0; i < DCID_SLOTS && !c; i++)
		if (!dcid.clients[i].used)
			c = &dcid.clients[i];
	uint8_t *rbuf = c ? malloc(PROTO_MAX_FRAME) : 0;
	if (!rbuf) {
		close(fd);
		dcid.handshakes_closed++;
		printf("dcid: closed a new connection: no memory for it\n");
		return;
	}
	/* The output queue is allocated when something has to wait in it (client_queue). */
	*c = (struct client){ .used = true, .fd = fd, .id = ++dcid.next_id, .rbuf = rbuf };
	c->opened_ns = c->progress_ns = clock_ns();
	proto_reader_init(&c->reader, rbuf, PROTO_MAX_FRAME);
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	printf("dcid: client %u connected\n", c->id);
}

void client_close(struct client *c, const char *why)
{
	if (!c->used)
		return;
	close(c->fd);
	free(c->rbuf);
	free(c->q);
	free(c->ctl);
	bool was_controller = dcid.controller == c->id;
	printf("dcid: client %u closed (%s)\n", c->id, why);
	c->used = false;
	if (was_controller) {
		dcid.controller = 0;
		hooks->status_changed();
	}
}

/* Closes c after a send or recv returned n <= 0; an error's number goes into the reason, since
 * a connection lost to a local error is a bug to find and a peer's close is not. */
static void close_after(struct client *c, const char *why, long n)
{
	char reason[64];
	if (n < 0)
		snprintf(reason, sizeof reason, "%s: error %ld", why, -n);
	client_close(c, n < 0 ? reason : why);
}

uint32_t clients_connected(void)
{
	uint32_t n = 0;
	for (int i = 0; i < DCID_SLOTS; i++)
		if (dcid.clients[i].used && dcid.clients[i].role != PROTO_ROLE_NONE)
			n++;
	return n;
}

static void cut_off(struct client *c, const char *why)
{
	dcid.clients_cut_off++;
	dcid.frames_dropped++;
	printf("dcid: client %u cut off: %s\n", c->id, why);
	client_close(c, "cut off");
	hooks->status_changed();
}

static void sent(struct client *c, long n)
{
	c->bytes_out += (uint64_t)n;
	dcid.bytes_out += (uint64_t)n;
	c->progress_ns = clock_ns();
}

/* Appends a frame to one of c's queues (q/head/len: the data's or the answers'). */
static bool append(struct client *c, uint8_t **q, size_t *head, size_t *len, const void *frame,
		   size_t n)
{
	if (*len + n > DCID_QUEUE_BYTES) {
		cut_off(c, "its output queue is full");
		return false;
	}
	if (!*q && !(*q = malloc(DCID_QUEUE_BYTES))) {
		cut_off(c, "no memory for its output queue");
		return false;
	}
	if (*head + *len + n > DCID_QUEUE_BYTES) {
		memmove(*q, *q + *head, *len);
		*head = 0;
	}
	memcpy(*q + *head + *len, frame, n);
	*len += n;
	c->frames_out++;
	dcid.frames_out++;
	return true;
}

/* Nothing waiting: hands the frame to the socket directly (a copy less for most of a stream)
 * and returns how much of it the socket did not take. */
static size_t send_direct(struct client *c, const void *frame, size_t len)
{
	long n = send(c->fd, frame, len, MSG_DONTWAIT);
	if (n > 0) {
		sent(c, n);
		len -= (size_t)n;
	}
	if (!len) {
		c->frames_out++;
		dcid.frames_out++;
	}
	return len;
}

static bool data_held;

/* A frame for the data queue or the answers' queue: straight to the socket when nothing
 * waits (and data is not held), the rest queued. A data frame the socket took part of is
 * finished first. */
static bool queue_frame(struct client *c, const void *frame, size_t len, bool data)
{
	if (!c->used)
		return false;
	if (!client_backlog(c) && !(data && data_held)) {
		size_t left = send_direct(c, frame, len);
		if (!left)
			return true;
		if (data)
			c->frame_left = left;
		frame = (const uint8_t *)frame + (len - left);
		len = left;
	}
	return data ? append(c, &c->q, &c->head, &c->len, frame, len)
		    : append(c, &c->ctl, &c->ctl_head, &c->ctl_len, frame, len);
}

bool client_queue_data(struct client *c, const void *frame, size_t len)
{
	return queue_frame(c, frame, len, true);
}

bool client_queue(struct client *c, const void *frame, size_t len)
{
	return queue_frame(c, frame, len, false);
}

/* The droppable types, in the order of a client's drop_frames / drop_records. */
static const uint16_t droppable[DCID_DROPPABLE] = {
	PROTO_SAMPLES, PROTO_INTERVAL_COUNTS, PROTO_LOCK_STATS, PROTO_INVOCATIONS, PROTO_LOCK_CONTENTION,
	PROTO_SAMPLES_CHAINED, PROTO_SAMPLES_PACKED,
};

bool client_drop_notice(struct client *c)
{
	if (!c->drop_notice)
		return true;
	static uint8_t notice[PROTO_HEADER_SIZE + 24 + DCID_DROPPABLE * 18 + 8];
	struct proto_builder b;
	uint64_t frames = 0, recs = 0;
	for (unsigned t = 0; t < DCID_DROPPABLE; t++) {
		frames += c->drop_frames[t];
		recs += c->drop_records[t];
	}
	struct proto_dropped_head h = { frames, c->drop_bytes, recs };
	proto_begin_dropped(&b, notice, sizeof notice, 0, 0, &h);
	for (unsigned t = 0; t < DCID_DROPPABLE; t++)
		if (c->drop_frames[t]) {
			struct proto_drop d = { droppable[t], c->drop_frames[t], c->drop_records[t] };
			proto_add_drop(&b, &d);
		}
	int n = proto_finish(&b);
	if (n > 0 && !client_queue_data(c, notice, (size_t)n))
		return false;
	c->drop_notice = false;
	return true;
}

void client_push(struct client *c, const void *frame, size_t len, uint16_t type, uint32_t records)
{
	unsigned k = 0;
	while (k < DCID_DROPPABLE - 1 && droppable[k] != type)
		k++;
	if (c->drop_notice && c->len < DCID_QUEUE_BYTES / 4 && !client_drop_notice(c))
		return;
	if (c->drop_notice || c->len > DCID_QUEUE_BYTES / 2) {
		c->drop_frames[k]++;
		c->drop_records[k] += records;
		c->drop_bytes += len;
		c->drop_notice = true;
		dcid.frames_dropped++;
		return;
	}
	client_queue_data(c, frame, len);
}

void client_error(struct client *c, uint32_t req, uint16_t about, int code, const char *text)
{
	uint8_t buf[PROTO_TEXT_MAX + 64];
	bool fatal = proto_error_fatal(code);
	struct proto_error_msg e = { (uint16_t)code, about, fatal ? PROTO_ERRF_FATAL : 0,
				     proto_cstr(text ? text : proto_strerror(code)) };
	if (e.text.len > PROTO_TEXT_MAX)
		e.text.len = PROTO_TEXT_MAX;
	int n = proto_encode_error(buf, sizeof buf, req, 0, &e);
	if (n > 0)
		client_queue(c, buf, (size_t)n);
	if (fatal && c->used) {
		dcid.bad_frames++;
		printf("dcid: client %u: %s%s%s\n", c->id, proto_strerror(code), text ? ": " : "",
		       text ? text : "");
		c->closing = true;
		if (!client_backlog(c))
			client_finish(c);
	}
}

/* The ERROR has gone out: FIN now, and close once the peer has closed too (or soon). Closing
 * at once with unread input would send a reset, which can destroy the ERROR in flight. */
void client_finish(struct client *c)
{
	if (c->fin_sent)
		return;
	shutdown(c->fd, SHUT_WR);
	c->fin_sent = true;
	c->progress_ns = clock_ns();
}

/* Sends from one queue; returns false when the socket took all it could (or c closed). */
static bool send_some(struct client *c, uint8_t *q, size_t *head, size_t *len, size_t most)
{
	long n = send(c->fd, q + *head, most, MSG_DONTWAIT);
	if (n == -KOV_EAGAIN)
		return false;
	if (n <= 0) {
		close_after(c, "connection lost", n);
		return false;
	}
	*head += (size_t)n;
	*len -= (size_t)n;
	sent(c, n);
	if (!*len)
		*head = 0;
	return true;
}

/* The data queue's first frame: its bytes still to send, taken from its length prefix when q
 * starts at a frame's beginning. */
static size_t first_frame_left(const struct client *c)
{
	if (c->frame_left)
		return c->frame_left;
	size_t n = 4 + (size_t)be32_load(c->q + c->head);
	return n < c->len ? n : c->len;
}

/* The data queue's next run to send: the rest of a frame begun, alone (answers may follow
 * it), or whole frames up to DCID_SEND_SPAN bytes (at least one). */
static size_t data_span(const struct client *c)
{
	size_t n = first_frame_left(c);
	if (c->frame_left)
		return n;
	while (n + 4 <= c->len) {
		size_t f = 4 + (size_t)be32_load(c->q + c->head + n);
		if (n + f > c->len || n + f > DCID_SEND_SPAN)
			break;
		n += f;
	}
	return n;
}

/* After `sent` bytes of a run of frames starting at run (its first frame's rest `first` bytes,
 * 0 if it starts at a frame), the bytes of the frame then begun still to send (0: none). */
static size_t left_in_frame(const uint8_t *run, size_t first, size_t sent)
{
	size_t end = first ? first : 4 + (size_t)be32_load(run);
	while (end < sent)
		end += 4 + (size_t)be32_load(run + end);
	return end - sent;
}

void clients_hold_data(bool hold)
{
	data_held = hold;
	if (hold)
		return;
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (c->used && client_backlog(c))
			client_writable(c);
	}
}

void client_writable(struct client *c)
{
	while (c->used && client_backlog(c)) {
		/* Answers go at a frame boundary of the data: a data frame begun is finished first. */
		if (c->ctl_len && !c->frame_left) {
			if (!send_some(c, c->ctl, &c->ctl_head, &c->ctl_len, c->ctl_len))
				return;
			continue;
		}
		/* The data, whole frames at a time, so that answers can come in between. */
		const uint8_t *run = c->q + c->head;
		size_t span = data_span(c), before = c->len, first = c->frame_left;
		if (!send_some(c, c->q, &c->head, &c->len, span))
			return;
		c->frame_left = left_in_frame(run, first, before - c->len);
	}
	if (c->used && !client_backlog(c) && c->closing)
		client_finish(c);
	/* Drops are reported once the queue has room again, also when no data follows them. */
	if (c->used && !c->closing && c->drop_notice && c->len < DCID_QUEUE_BYTES / 4)
		client_drop_notice(c);
}

/* Requests are read while their answers have room: the data queue, however full, does not
 * hold them back (its frames are dropped instead, client_push), so a client streaming samples
 * is still answered. */
static bool queue_has_room(const struct client *c)
{
	return c->ctl_len < DCID_QUEUE_BYTES / 2;
}

bool client_wants_input(const struct client *c)
{
	return c->closing || (queue_has_room(c) && c->in_pos == c->in_len);
}

void client_resume(struct client *c)
{
	struct proto_frame f;
	int rc;
	while (c->used && !c->closing && queue_has_room(c) && c->in_pos < c->in_len) {
		const uint8_t *p = c->in + c->in_pos;
		size_t left = c->in_len - c->in_pos;
		rc = proto_reader_feed(&c->reader, &p, &left, &f);
		c->in_pos = c->in_len - left;
		if (rc < 0) {
			client_error(c, 0, 0, -rc, "bad framing");
			return;
		}
		if (rc == 0)
			break;
		hooks->frame(c, &f);
	}
}

void client_readable(struct client *c)
{
	if (!c->closing && c->in_pos < c->in_len)
		return;   /* still working through earlier input */
	long n = recv(c->fd, c->in, sizeof c->in, MSG_DONTWAIT);
	if (n == -KOV_EAGAIN)
		return;
	if (n <= 0) {
		close_after(c, c->closing ? "after a fatal error"
			    : proto_reader_pending(&c->reader) ? "closed inside a frame" : "closed", n);
		return;
	}
	if (c->closing)
		return;   /* after a fatal error input is read and dropped */
	c->in_pos = 0;
	c->in_len = (size_t)n;
	client_resume(c);
}

void client_timers(uint64_t now)
{
	for (int i = 0; i < DCID_SLOTS; i++) {
		struct client *c = &dcid.clients[i];
		if (!c->used)
			continue;
		if (c->fin_sent && now - c->progress_ns > DCID_LINGER_NS)
			client_close(c, "after a fatal error");
		else if (c->role == PROTO_ROLE_NONE && !c->closing && now - c->opened_ns > DCID_HELLO_TIMEOUT_NS) {
			dcid.handshakes_closed++;
			client_close(c, "no HELLO within 3 s");
		}
		else if (client_backlog(c) && now - c->progress_ns > DCID_STALL_NS)
			cut_off(c, "it has not read for 10 s");
	}
}

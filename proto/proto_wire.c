/* The machinery every message shares: strings, nested lists, fixed messages, and list
 * messages built a record at a time and read back through an iterator. */
#include "proto_wire.h"

struct proto_str proto_cstr(const char *s)
{
	struct proto_str r = { s, 0 };
	if (s)
		r.len = (uint16_t)strnlen(s, 0xFFFF);
	return r;
}

size_t proto_str_copy(char *dst, size_t n, struct proto_str s)
{
	if (n == 0)
		return 0;
	size_t k = s.len < n - 1 ? s.len : n - 1;
	if (k)
		memcpy(dst, s.s, k);
	dst[k] = '\0';
	return k;
}

bool proto_str_eq(struct proto_str s, const char *cstr)
{
	size_t n = strnlen(cstr, (size_t)s.len + 1);
	return n == s.len && (n == 0 || memcmp(s.s, cstr, n) == 0);
}

int proto_check_str(struct proto_str s, size_t min, size_t max)
{
	if (s.len < min || s.len > max || (s.len && !s.s))
		return PROTO_E_STRING;
	for (size_t i = 0; i < s.len; i++)
		if (s.s[i] == '\0')
			return PROTO_E_STRING;
	return 0;
}

void proto_get_str(struct rd *r, struct proto_str *s, size_t min, size_t max)
{
	uint16_t len = get_u16(r);
	const uint8_t *p = rd_take(r, len, PROTO_E_STRING);
	s->s = (const char *)p;
	s->len = p ? len : 0;
	if (p && proto_check_str(*s, min, max))
		rd_fail(r, PROTO_E_STRING);
}

const uint8_t *proto_get_array(struct rd *r, uint32_t count, size_t elem_size)
{
	if (r->err)
		return NULL;
	if (count > rd_left(r) / elem_size) {
		rd_fail(r, PROTO_E_COUNT);
		return NULL;
	}
	return rd_take(r, (size_t)count * elem_size, PROTO_E_COUNT);
}

uint64_t proto_u64_at(const struct proto_u64_list *l, uint32_t i)
{
	if (i >= l->count)
		return 0;
	return l->items ? l->items[i] : be64_load(l->wire + (size_t)i * 8);
}

struct proto_ref proto_ref_at(const struct proto_ref_list *l, uint32_t i)
{
	struct proto_ref ref = { 0, 0 };
	if (i < l->count) {
		if (l->items) {
			ref = l->items[i];
		} else {
			ref.coid = be64_load(l->wire + (size_t)i * 12);
			ref.gen = be32_load(l->wire + (size_t)i * 12 + 8);
		}
	}
	return ref;
}

static void put_header(struct wr *w, uint16_t type, uint32_t req, uint16_t flags)
{
	put_u32(w, 0);                   /* the length, known at the end */
	put_u16(w, type);
	put_u16(w, flags);
	put_u32(w, req);
}

/* A writer never goes beyond the protocol's limit, whatever the caller's buffer. */
static struct wr writer(void *buf, size_t cap)
{
	struct wr w = { buf, cap < PROTO_MAX_FRAME ? cap : PROTO_MAX_FRAME, 0 };
	return w;
}

static int overflow(const struct wr *w)
{
	if (w->len <= w->cap)
		return 0;
	return w->len > PROTO_MAX_FRAME ? PROTO_E_TOO_BIG : PROTO_E_NOSPACE;
}

/* ---- the table-driven codec --------------------------------------------------------- */

static const struct {
	const struct proto_message *messages;
	const size_t *count;
} parts[] = {
	{ proto_session_messages, &proto_session_message_count },
	{ proto_scan_messages, &proto_scan_message_count },
	{ proto_pmu_messages, &proto_pmu_message_count },
	{ proto_data_messages, &proto_data_message_count },
	{ proto_swap_messages, &proto_swap_message_count },
	{ proto_throttle_messages, &proto_throttle_message_count },
	{ proto_platform_messages, &proto_platform_message_count },
};

const struct proto_message *proto_message(uint16_t type)
{
	for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++)
		for (size_t i = 0; i < *parts[p].count; i++)
			if (parts[p].messages[i].type == type)
				return &parts[p].messages[i];
	return NULL;
}

static const void *field_at(const void *msg, const struct proto_field *f)
{
	return (const uint8_t *)msg + f->offset;
}

static int put_layout(struct wr *w, const struct proto_layout *l, const void *msg)
{
	for (uint8_t i = 0; i < l->n_fields; i++) {
		const struct proto_field *f = &l->fields[i];
		if (f->kind == PF_STR &&
		    proto_check_str(*(const struct proto_str *)field_at(msg, f), f->min, f->max))
			return PROTO_E_STRING;
	}
	int err = l->check ? l->check(msg) : 0;
	if (err)
		return err;
	for (uint8_t i = 0; i < l->n_fields; i++) {
		const struct proto_field *f = &l->fields[i];
		const void *v = field_at(msg, f);
		switch (f->kind) {
		case PF_U8: put_u8(w, *(const uint8_t *)v); break;
		case PF_U16: put_u16(w, *(const uint16_t *)v); break;
		case PF_U32: put_u32(w, *(const uint32_t *)v); break;
		case PF_U64: put_u64(w, *(const uint64_t *)v); break;
		case PF_STR: put_str(w, *(const struct proto_str *)v); break;
		}
	}
	return l->put_more ? l->put_more(w, msg) : 0;
}

static void get_layout(struct rd *r, const struct proto_layout *l, void *msg)
{
	if (l->zero)
		memset(msg, 0, l->size);
	for (uint8_t i = 0; i < l->n_fields; i++) {
		const struct proto_field *f = &l->fields[i];
		void *v = (uint8_t *)msg + f->offset;
		switch (f->kind) {
		case PF_U8: *(uint8_t *)v = get_u8(r); break;
		case PF_U16: *(uint16_t *)v = get_u16(r); break;
		case PF_U32: *(uint32_t *)v = get_u32(r); break;
		case PF_U64: *(uint64_t *)v = get_u64(r); break;
		case PF_STR: proto_get_str(r, v, f->min, f->max); break;
		}
	}
	if (!r->err && l->check)
		r->err = l->check(msg);
	if (l->get_more)
		l->get_more(r, msg);
}

/* The entry of a type of the wanted shape (list or fixed), or NULL. */
static const struct proto_message *entry(uint16_t type, bool list)
{
	const struct proto_message *m = proto_message(type);
	return m && (m->rec != NULL) == list ? m : NULL;
}

int proto_encode_fixed(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags,
                       const void *msg)
{
	const struct proto_message *m = entry(type, false);
	if (!m)
		return -PROTO_E_INVALID;
	struct wr w = writer(buf, cap);
	put_header(&w, type, req, flags);
	int err = m->body ? put_layout(&w, m->body, msg) : 0;
	if (!err)
		err = overflow(&w);
	if (err)
		return -err;
	be32_store(buf, (uint32_t)(w.len - 4));
	return (int)w.len;
}

static struct rd reader(const struct proto_frame *f)
{
	struct rd r = { f->payload, f->size, 0, 0 };
	return r;
}

int proto_decode_fixed(const struct proto_frame *f, uint16_t type, void *msg)
{
	const struct proto_message *m = entry(type, false);
	if (!m || f->type != type)
		return -PROTO_E_INVALID;
	struct rd r = reader(f);
	if (m->body)
		get_layout(&r, m->body, msg);
	if (!r.err && rd_left(&r))
		r.err = PROTO_E_TRAILING;
	return -r.err;
}

int proto_encode_empty(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags)
{
	const struct proto_message *m = entry(type, false);
	if (!m || m->body)
		return -PROTO_E_INVALID;
	return proto_encode_fixed(buf, cap, type, req, flags, NULL);
}

int proto_decode_empty(const struct proto_frame *f)
{
	const struct proto_message *m = entry(f->type, false);
	if (!m || m->body)
		return -PROTO_E_INVALID;
	return proto_decode_fixed(f, f->type, NULL);
}

int proto_list_begin(struct proto_builder *b, void *buf, size_t cap, uint16_t type,
                     uint32_t req, uint16_t flags, const void *head)
{
	const struct proto_message *m = entry(type, true);
	struct wr w = writer(buf, cap);
	put_header(&w, type, req, flags);
	int err = m ? put_layout(&w, m->body, head) : PROTO_E_INVALID;
	size_t count_at = w.len;
	put_u32(&w, 0);
	if (!err)
		err = overflow(&w);
	b->buf = buf;
	b->cap = w.cap;
	b->len = w.len;
	b->count_at = count_at;
	b->count = 0;
	b->type = type;
	b->err = err;
	b->codec = m;
	return -err;
}

/* Whether one more record fits what the frame's head says (a list with a list_check). */
static int room_for_one_more(const struct proto_builder *b, const struct proto_message *m)
{
	union proto_any_head head;
	/* A head the scratch union cannot hold is a defect of the table (test_proto_table), and
	 * this is the encoder: no received byte leads here. */
	if (!m->list_check || m->body->size > sizeof head)
		return m->list_check ? PROTO_E_INTERNAL : 0;
	struct rd r = { b->buf + PROTO_HEADER_SIZE, b->count_at - PROTO_HEADER_SIZE, 0, 0 };
	get_layout(&r, m->body, &head);
	return r.err ? r.err : m->list_check(&head, b->count + 1);
}

int proto_list_add(struct proto_builder *b, uint16_t type, const void *rec)
{
	const struct proto_message *m = b->codec;
	if (b->err)
		return -b->err;
	if (b->type != type || !m)
		return -PROTO_E_INVALID;
	int err = room_for_one_more(b, m);
	if (err)
		return -err;
	struct wr w = { b->buf, b->cap, b->len };
	err = put_layout(&w, m->rec, rec);
	if (!err)
		err = overflow(&w);
	if (err)
		return -err;     /* b->len is unchanged: the partial record is not part of the frame */
	b->len = w.len;
	b->count++;
	return 0;
}
int proto_finish(struct proto_builder *b)
{
	if (b->err)
		return -b->err;
	be32_store(b->buf + b->count_at, b->count);
	be32_store(b->buf, (uint32_t)(b->len - 4));
	return (int)b->len;
}

uint32_t proto_builder_count(const struct proto_builder *b)
{
	return b->count;
}

int proto_list_decode(const struct proto_frame *f, uint16_t type, void *head,
                      struct proto_iter *it)
{
	const struct proto_message *m = entry(type, true);
	union proto_any_record scratch;
	it->left = 0;
	if (!m || f->type != type)
		return -PROTO_E_INVALID;
	if (m->rec->size > sizeof scratch)
		return -PROTO_E_INTERNAL;    /* the table's defect, whatever the frame holds */
	struct rd r = reader(f);
	get_layout(&r, m->body, head);
	uint32_t count = get_u32(&r);
	if (!r.err && count > rd_left(&r) / m->rec_min)
		r.err = PROTO_E_COUNT;
	size_t first = r.pos;
	for (uint32_t i = 0; i < count && !r.err; i++) {
		if (rd_left(&r) == 0)
			r.err = PROTO_E_COUNT;   /* out of records, not inside one */
		else
			get_layout(&r, m->rec, &scratch);
	}
	if (!r.err && rd_left(&r))
		r.err = PROTO_E_TRAILING;
	if (!r.err && m->list_check)
		r.err = m->list_check(head, count);
	if (r.err)
		return -r.err;
	it->p = f->payload;
	it->len = f->size;
	it->pos = first;
	it->left = count;
	it->type = type;
	it->codec = m;
	return 0;
}

bool proto_list_next(struct proto_iter *it, uint16_t type, void *rec)
{
	const struct proto_message *m = it->codec;
	if (it->left == 0 || it->type != type || !m)
		return false;
	struct rd r = { it->p, it->len, it->pos, 0 };
	get_layout(&r, m->rec, rec);
	if (r.err) {             /* only if the frame changed since it was decoded */
		it->left = 0;
		return false;
	}
	it->pos = r.pos;
	it->left--;
	return true;
}

uint32_t proto_iter_left(const struct proto_iter *it)
{
	return it->left;
}

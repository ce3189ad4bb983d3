/* The machinery every message shares: strings, nested lists, fixed messages, and list
 * messages built a record at a time and read back through an iterator. */
#include "dci/proto_wire.h"

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

int proto_fixed_encode(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags,
                       put_fn put, const void *msg)
{
	struct wr w = writer(buf, cap);
	put_header(&w, type, req, flags);
	int err = put ? put(&w, msg) : 0;
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

int proto_fixed_decode(const struct proto_frame *f, uint16_t type, get_fn get, void *msg)
{
	if (f->type != type)
		return -PROTO_E_INVALID;
	struct rd r = reader(f);
	if (get)
		get(&r, msg);
	if (!r.err && rd_left(&r))
		r.err = PROTO_E_TRAILING;
	return -r.err;
}

int proto_encode_empty(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags)
{
	switch (type) {
	case PROTO_OK:
	case PROTO_STATUS_GET:
	case PROTO_CATALOGUE_GET:
	case PROTO_CONFIG_GET:
	case PROTO_STOP:
		return proto_fixed_encode(buf, cap, type, req, flags, NULL, NULL);
	default:
		return -PROTO_E_INVALID;
	}
}

int proto_decode_empty(const struct proto_frame *f)
{
	switch (f->type) {
	case PROTO_OK:
	case PROTO_STATUS_GET:
	case PROTO_CATALOGUE_GET:
	case PROTO_CONFIG_GET:
	case PROTO_STOP:
		return proto_fixed_decode(f, f->type, NULL, NULL);
	default:
		return -PROTO_E_INVALID;
	}
}

int proto_list_begin(struct proto_builder *b, void *buf, size_t cap, uint16_t type,
                     uint32_t req, uint16_t flags, put_fn put_head, const void *head)
{
	struct wr w = writer(buf, cap);
	put_header(&w, type, req, flags);
	int err = put_head(&w, head);
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
	return -err;
}

int proto_list_add(struct proto_builder *b, uint16_t type, put_fn put, const void *rec)
{
	if (b->err)
		return -b->err;
	if (b->type != type)
		return -PROTO_E_INVALID;
	struct wr w = { b->buf, b->cap, b->len };
	int err = put(&w, rec);
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

int proto_list_decode(const struct proto_frame *f, uint16_t type, get_fn get_head, void *head,
                      get_fn get_rec, void *scratch, size_t rec_min, struct proto_iter *it)
{
	if (f->type != type)
		return -PROTO_E_INVALID;
	struct rd r = reader(f);
	get_head(&r, head);
	uint32_t count = get_u32(&r);
	if (!r.err && count > rd_left(&r) / rec_min)
		r.err = PROTO_E_COUNT;
	size_t first = r.pos;
	for (uint32_t i = 0; i < count && !r.err; i++) {
		if (rd_left(&r) == 0)
			r.err = PROTO_E_COUNT;   /* out of records, not inside one */
		else
			get_rec(&r, scratch);
	}
	if (!r.err && rd_left(&r))
		r.err = PROTO_E_TRAILING;
	if (r.err) {
		it->left = 0;
		return -r.err;
	}
	it->p = f->payload;
	it->len = f->size;
	it->pos = first;
	it->left = count;
	it->type = type;
	return 0;
}

bool proto_list_next(struct proto_iter *it, uint16_t type, get_fn get_rec, void *rec)
{
	if (it->left == 0 || it->type != type)
		return false;
	struct rd r = { it->p, it->len, it->pos, 0 };
	get_rec(&r, rec);
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

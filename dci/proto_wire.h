/* Internal to the codec (dci/proto_*.c): bounds-checked cursors for writing and reading
 * fields, and the generic frame, fixed-message and list machinery the message files share.
 *
 * Both cursors carry a sticky error, so a message's code is a straight run of put_* or get_*
 * calls checked once at the end. The writer keeps counting past its capacity without writing,
 * so an overflow can be told apart: above PROTO_MAX_FRAME (too big) or just above the
 * caller's buffer (no space). The reader never touches a byte outside [p, p + len). */
#ifndef KOV_PROTO_WIRE_H
#define KOV_PROTO_WIRE_H

#include "dci/proto.h"
#include "kernel/lib/bytes.h"
#include "kernel/lib/string.h"

struct wr {
	uint8_t *buf;
	size_t cap;
	size_t len;
};

static inline uint8_t *wr_take(struct wr *w, size_t n)
{
	uint8_t *p = NULL;
	if (w->len <= w->cap && n <= w->cap - w->len)
		p = w->buf + w->len;
	w->len += n;
	return p;
}

static inline void put_u8(struct wr *w, uint8_t v)
{
	uint8_t *p = wr_take(w, 1);
	if (p)
		*p = v;
}

static inline void put_u16(struct wr *w, uint16_t v)
{
	uint8_t *p = wr_take(w, 2);
	if (p)
		be16_store(p, v);
}

static inline void put_u32(struct wr *w, uint32_t v)
{
	uint8_t *p = wr_take(w, 4);
	if (p)
		be32_store(p, v);
}

static inline void put_u64(struct wr *w, uint64_t v)
{
	uint8_t *p = wr_take(w, 8);
	if (p)
		be64_store(p, v);
}

/* The caller has checked the string (proto_check_str). */
static inline void put_str(struct wr *w, struct proto_str s)
{
	put_u16(w, s.len);
	uint8_t *p = wr_take(w, s.len);
	if (p && s.len)
		memcpy(p, s.s, s.len);
}

struct rd {
	const uint8_t *p;
	size_t len;
	size_t pos;
	int err;                     /* positive proto_error, 0 while all is well */
};

static inline const uint8_t *rd_take(struct rd *r, size_t n, int err)
{
	if (r->err)
		return NULL;
	if (n > r->len - r->pos) {
		r->err = err;
		return NULL;
	}
	const uint8_t *p = r->p + r->pos;
	r->pos += n;
	return p;
}

static inline size_t rd_left(const struct rd *r)
{
	return r->len - r->pos;
}

static inline uint8_t get_u8(struct rd *r)
{
	const uint8_t *p = rd_take(r, 1, PROTO_E_TRUNCATED);
	return p ? *p : 0;
}

static inline uint16_t get_u16(struct rd *r)
{
	const uint8_t *p = rd_take(r, 2, PROTO_E_TRUNCATED);
	return p ? be16_load(p) : 0;
}

static inline uint32_t get_u32(struct rd *r)
{
	const uint8_t *p = rd_take(r, 4, PROTO_E_TRUNCATED);
	return p ? be32_load(p) : 0;
}

static inline uint64_t get_u64(struct rd *r)
{
	const uint8_t *p = rd_take(r, 8, PROTO_E_TRUNCATED);
	return p ? be64_load(p) : 0;
}

/* 0 when s is a valid string of min..max bytes, else PROTO_E_STRING. */
int proto_check_str(struct proto_str s, size_t min, size_t max);

/* Reads a string and checks it like proto_check_str; bytes past the frame are PROTO_E_STRING. */
void proto_get_str(struct rd *r, struct proto_str *s, size_t min, size_t max);

/* Reads a count of elements of elem_size bytes each, which must fit in what is left, and
 * skips over them; returns where they start (NULL after an error). */
const uint8_t *proto_get_array(struct rd *r, uint32_t count, size_t elem_size);

/* Keeps the first error. */
static inline void rd_fail(struct rd *r, int err)
{
	if (!r->err)
		r->err = err;
}

/* A message's fields: put_fn checks its message and writes it (returning 0 or a positive
 * error); get_fn reads and checks it, leaving any error in r->err. */
typedef int (*put_fn)(struct wr *w, const void *msg);
typedef void (*get_fn)(struct rd *r, void *msg);

int proto_fixed_encode(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags,
                       put_fn put, const void *msg);
int proto_fixed_decode(const struct proto_frame *f, uint16_t type, get_fn get, void *msg);

/* rec_min: the smallest encoded record, to refuse impossible counts before reading any. */
int proto_list_begin(struct proto_builder *b, void *buf, size_t cap, uint16_t type,
                     uint32_t req, uint16_t flags, put_fn put_head, const void *head);
int proto_list_add(struct proto_builder *b, uint16_t type, put_fn put, const void *rec);
int proto_list_decode(const struct proto_frame *f, uint16_t type, get_fn get_head, void *head,
                      get_fn get_rec, void *scratch, size_t rec_min, struct proto_iter *it);
bool proto_list_next(struct proto_iter *it, uint16_t type, get_fn get_rec, void *rec);

#endif

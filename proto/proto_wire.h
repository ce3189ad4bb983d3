/* Internal to the codec (dci/proto_*.c): bounds-checked cursors for writing and reading
 * fields, and the generic frame, fixed-message and list machinery the message files share.
 *
 * Both cursors carry a sticky error, so a message's code is a straight run of put_* or get_*
 * calls checked once at the end. The writer keeps counting past its capacity without writing,
 * so an overflow can be told apart: above PROTO_MAX_FRAME (too big) or just above the
 * caller's buffer (no space). The reader never touches a byte outside [p, p + len). */
#ifndef KOV_PROTO_WIRE_H
#define KOV_PROTO_WIRE_H

#include <stddef.h>
#include "proto.h"
#include "proto_swap.h"
#include "proto_throttle.h"
#include "proto_platform.h"
#include "common/lib/bytes.h"
#include "common/lib/string.h"

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

/* ---- The table-driven codec ------------------------------------------------------------
 *
 * Every message is described once, by data: a layout per structure (its fields in wire order,
 * the rules between them, and hooks for what a field list cannot say: arrays, nested parts,
 * a prefix that decides the rest), and a table entry per message type naming its layouts.
 * One encoder and one decoder walk the layouts; the public proto_encode_X / proto_decode_X /
 * proto_begin_X / proto_add_Y / proto_next_Y of proto/proto_msg.h are thin typed names over them
 * (PROTO_FIXED_NAMES, PROTO_LIST_NAMES), and proto_validate() walks the same table. */

/* A message's fields beyond a field list: put_fn writes them (0 or a positive error); get_fn
 * reads them, leaving any error in r->err. */
typedef int (*put_fn)(struct wr *w, const void *msg);
typedef void (*get_fn)(struct rd *r, void *msg);

enum proto_field_kind { PF_U8, PF_U16, PF_U32, PF_U64, PF_STR };

struct proto_field {
	uint16_t offset;             /* of the member in the structure */
	uint8_t kind;
	uint16_t min, max;           /* PF_STR: its length limits */
};

#define PF(st, member, kind) { (uint16_t)offsetof(st, member), kind, 0, 0 }
#define PF_S(st, member, min, max) { (uint16_t)offsetof(st, member), PF_STR, min, max }

/* Encoding checks every string field, then `check`, then writes the fields and calls
 * put_more. Decoding (after clearing the structure when `zero`) reads the fields, runs `check`
 * if all is well so far, then calls get_more (also after an error: it resets what it owns). */
struct proto_layout {
	const struct proto_field *fields;
	uint8_t n_fields;
	bool zero;                       /* fields the wire may lack read as zero */
	uint16_t size;                   /* sizeof the structure */
	int (*check)(const void *msg);   /* the rules between fields: 0 or a positive error */
	put_fn put_more;
	get_fn get_more;
};

#define PROTO_LAYOUT(st, fields, check) \
	{ fields, sizeof fields / sizeof fields[0], false, sizeof(st), check, NULL, NULL }
/* A structure whose whole encoding is code (a prefix that decides the rest, nested lists). */
#define PROTO_CUSTOM(st, put, get) { NULL, 0, false, sizeof(st), NULL, put, get }

struct proto_message {
	uint16_t type;
	const struct proto_layout *body; /* the message, or a list's head; NULL: no payload */
	const struct proto_layout *rec;  /* a list's records; NULL for a fixed message */
	uint16_t rec_min;                /* lists: the smallest encoded record (refuses impossible
	                                    counts before any record is read) */
	int (*list_check)(const void *head, uint32_t count);   /* lists: do count records fit the
	                                    head? 0 or a positive error; NULL: always */
};

/* Each topic file's part of the table. */
extern const struct proto_message proto_session_messages[], proto_scan_messages[],
	proto_pmu_messages[], proto_data_messages[], proto_swap_messages[], proto_throttle_messages[],
	proto_platform_messages[];
extern const size_t proto_session_message_count, proto_scan_message_count,
	proto_pmu_message_count, proto_data_message_count, proto_swap_message_count, proto_throttle_message_count,
	proto_platform_message_count;

/* SAMPLES_CHAINED's rules for one record (proto_data.c), which SAMPLES_PACKED's records follow
 * too (proto_packed.c): 0 or a positive error. */
int proto_check_sample_chained(const void *msg);

/* The table entry of a type, or NULL. */
const struct proto_message *proto_message(uint16_t type);

/* Scratch space for any list head, any record and any fixed message but the configuration
 * (6.5 KiB, decoded on its own). A message added to the table adds its structures here;
 * tests/unit/test_proto_table.c checks that every layout fits. */
union proto_any_head {
	struct proto_dropped_head dropped;
	struct proto_scan_head scan;
	struct proto_symbol_query symbol_query;
	struct proto_symbols_head symbols;
	struct proto_catalogue_head catalogue;
	struct proto_samples_head samples;
	struct proto_counts_head counts;
	struct proto_interval interval;
	struct proto_platform_head platform;
};
union proto_any_record {
	struct proto_drop drop;
	struct proto_process process;
	struct proto_object object;
	uint64_t address;
	struct proto_symbol symbol;
	struct proto_event event;
	struct proto_sample sample;
	struct proto_chain chain;
	struct proto_count count;
	struct proto_lock lock;
	struct proto_invocation invocation;
	struct proto_lost lost;
	struct proto_platform_path platform_path;
};
union proto_any_fixed {
	struct proto_hello hello;
	struct proto_server_hello server_hello;
	struct proto_error_msg error;
	struct proto_ping ping;
	struct proto_pong pong;
	struct proto_claim claim;
	struct proto_status status;
	struct proto_wakeups wakeups;
	struct proto_scan_request scan_request;
	struct proto_symbol_query symbol_query;
	struct proto_start start;
	struct proto_instrument instrument;
	struct proto_swap swap;
	struct proto_swapped swapped;
	struct proto_throttle_set throttle_set;
	struct proto_throttle throttle;
};

int proto_encode_fixed(void *buf, size_t cap, uint16_t type, uint32_t req, uint16_t flags,
                       const void *msg);
int proto_decode_fixed(const struct proto_frame *f, uint16_t type, void *msg);
int proto_list_begin(struct proto_builder *b, void *buf, size_t cap, uint16_t type,
                     uint32_t req, uint16_t flags, const void *head);
int proto_list_add(struct proto_builder *b, uint16_t type, const void *rec);
int proto_list_decode(const struct proto_frame *f, uint16_t type, void *head,
                      struct proto_iter *it);
bool proto_list_next(struct proto_iter *it, uint16_t type, void *rec);

/* The typed public names of a fixed message and of a list message (proto/proto_msg.h declares
 * them). */
#define PROTO_FIXED_NAMES(name, type, st)                                                   \
	int proto_encode_##name(void *buf, size_t cap, uint32_t req, uint16_t flags,        \
	                        const st *m)                                                \
	{                                                                                   \
		return proto_encode_fixed(buf, cap, type, req, flags, m);                   \
	}                                                                                   \
	int proto_decode_##name(const struct proto_frame *f, st *m)                         \
	{                                                                                   \
		return proto_decode_fixed(f, type, m);                                      \
	}

#define PROTO_LIST_NAMES(name, rec, type, head_st, rec_st)                                  \
	int proto_begin_##name(struct proto_builder *b, void *buf, size_t cap, uint32_t req, \
	                       uint16_t flags, const head_st *h)                            \
	{                                                                                   \
		return proto_list_begin(b, buf, cap, type, req, flags, h);                  \
	}                                                                                   \
	int proto_add_##rec(struct proto_builder *b, const rec_st *r)                       \
	{                                                                                   \
		return proto_list_add(b, type, r);                                          \
	}                                                                                   \
	int proto_decode_##name(const struct proto_frame *f, head_st *h,                    \
	                        struct proto_iter *it)                                      \
	{                                                                                   \
		return proto_list_decode(f, type, h, it);                                   \
	}                                                                                   \
	bool proto_next_##rec(struct proto_iter *it, rec_st *r)                             \
	{                                                                                   \
		return proto_list_next(it, type, r);                                        \
	}

#endif

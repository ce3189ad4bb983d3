/* SAMPLES_PACKED (1.8, docs/protocol.md 8.18c): SAMPLES_CHAINED's records, each written as what
 * changed since the record before it in the same frame. Consecutive samples mostly share their
 * object, thread, CPU, event and flags, and their timebases and PCs lie close together, so a
 * record takes about 10 bytes instead of 50; each frame starts from an all-zero record, so a
 * frame dropped under back-pressure costs no other frame anything.
 *
 * The codec's table describes fixed-size fields only; these records are variable and depend
 * on their predecessor, so they are written and read here, with the same rules for each
 * decoded record as SAMPLES_CHAINED (proto_check_sample_chained). */
#include "proto_wire.h"

/* The record's first byte: which fields equal the previous record's and are left out. */
#define SAME_OBJECT 0x01u   /* coid and generation */
#define SAME_THREAD 0x02u   /* pid and tid */
#define SAME_CPU 0x04u
#define SAME_EVENT 0x08u
#define SAME_FLAGS 0x10u
#define SAME_PERIOD 0x20u
#define SAME_CHAIN 0x40u
#define SAME_ALL 0x7Fu      /* 0x80 is reserved */

#define VARINT_MAX 10       /* a u64 in 7-bit groups */
/* The longest record: the flags byte, three u64 differences, five u32 and three u16 fields. */
#define PACKED_MAX (1 + 3 * VARINT_MAX + 5 * 5 + 3 * 3)
#define PACKED_MIN 3        /* flags byte, timebase and pc differences of one byte each */

/* Signed differences as unsigned numbers with the sign in bit 0, so small steps either way
 * take few bytes. */
static uint64_t zigzag(uint64_t now, uint64_t before)
{
	uint64_t d = now - before;
	return (d << 1) ^ (uint64_t)-(int64_t)(d >> 63);
}

static uint64_t unzigzag(uint64_t z, uint64_t before)
{
	return before + ((z >> 1) ^ (uint64_t)-(int64_t)(z & 1));
}

static uint8_t *put_varint(uint8_t *p, uint64_t v)
{
	while (v >= 0x80) {
		*p++ = (uint8_t)(v | 0x80);
		v >>= 7;
	}
	*p++ = (uint8_t)v;
	return p;
}

/* A varint of at most `max`: longer, overlong (a final zero group) or past the frame is an
 * error, so every record has exactly one encoding. */
static uint64_t get_varint(struct rd *r, uint64_t max)
{
	uint64_t v = 0;
	for (unsigned shift = 0; shift < 7 * VARINT_MAX; shift += 7) {
		const uint8_t *p = rd_take(r, 1, PROTO_E_TRUNCATED);
		if (!p)
			return 0;
		if (shift == 63 && *p > 1)
			break;
		v |= (uint64_t)(*p & 0x7F) << shift;
		if (!(*p & 0x80)) {
			if ((*p == 0 && shift) || v > max)
				break;
			return v;
		}
	}
	rd_fail(r, PROTO_E_INCONSISTENT);
	return 0;
}

/* What the next record is written against: this record's fields. */
static struct proto_sample_base base_of(const struct proto_sample *s)
{
	return (struct proto_sample_base){ s->timebase, s->pc, s->coid, s->gen, s->pid, s->tid,
					   s->period, s->chain_id, s->cpu, s->event, s->flags };
}

int proto_begin_samples_packed(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                               uint16_t flags, const struct proto_samples_head *h)
{
	/* The head is SAMPLES_CHAINED's, written by the table; only the type differs. */
	int err = proto_list_begin(b, buf, cap, PROTO_SAMPLES_CHAINED, req, flags, h);
	b->type = PROTO_SAMPLES_PACKED;
	b->codec = NULL;
	b->prev = (struct proto_sample_base){ 0 };
	if (!err)
		be16_store(b->buf + 4, PROTO_SAMPLES_PACKED);
	return err;
}

int proto_add_sample_packed(struct proto_builder *b, const struct proto_sample *r)
{
	if (b->err)
		return -b->err;
	if (b->type != PROTO_SAMPLES_PACKED)
		return -PROTO_E_INVALID;
	int err = proto_check_sample_chained(r);
	if (err)
		return -err;
	const struct proto_sample_base *o = &b->prev;
	/* Written in place when the frame has room for the longest record (nearly always), else
	 * beside it and copied if it fits: the record's own length decides. */
	uint8_t spill[PACKED_MAX];
	bool room = b->len <= b->cap && b->cap - b->len >= PACKED_MAX;
	uint8_t *rec = room ? b->buf + b->len : spill, *p = rec + 1;
	unsigned same = 0;
	p = put_varint(p, zigzag(r->timebase, o->timebase));
	p = put_varint(p, zigzag(r->pc, o->pc));
	if (r->coid == o->coid && r->gen == o->gen)
		same |= SAME_OBJECT;
	else
		p = put_varint(put_varint(p, zigzag(r->coid, o->coid)), r->gen);
	if (r->pid == o->pid && r->tid == o->tid)
		same |= SAME_THREAD;
	else
		p = put_varint(put_varint(p, r->pid), r->tid);
	if (r->cpu == o->cpu)
		same |= SAME_CPU;
	else
		p = put_varint(p, r->cpu);
	if (r->event == o->event)
		same |= SAME_EVENT;
	else
		p = put_varint(p, r->event);
	if (r->flags == o->flags)
		same |= SAME_FLAGS;
	else
		p = put_varint(p, r->flags);
	if (r->period == o->period)
		same |= SAME_PERIOD;
	else
		p = put_varint(p, r->period);
	if (r->chain_id == o->chain_id)
		same |= SAME_CHAIN;
	else
		p = put_varint(p, r->chain_id);
	rec[0] = (uint8_t)same;
	size_t n = (size_t)(p - rec);
	if (!room) {
		if (b->len > b->cap || b->cap - b->len < n)
			return b->len + n > PROTO_MAX_FRAME ? -PROTO_E_TOO_BIG : -PROTO_E_NOSPACE;
		memcpy(b->buf + b->len, rec, n);
	}
	b->len += n;
	b->count++;
	b->prev = base_of(r);
	return 0;
}

/* Reads one record against *prev, checks it and makes it the new *prev; errors in r->err. */
static void get_packed(struct rd *r, struct proto_sample_base *prev, struct proto_sample *s)
{
	const struct proto_sample_base o = *prev;
	unsigned same = get_u8(r);
	if (same & ~SAME_ALL)
		rd_fail(r, PROTO_E_INCONSISTENT);
	*s = (struct proto_sample){ 0 };
	s->timebase = unzigzag(get_varint(r, UINT64_MAX), o.timebase);
	s->pc = unzigzag(get_varint(r, UINT64_MAX), o.pc);
	s->coid = same & SAME_OBJECT ? o.coid : unzigzag(get_varint(r, UINT64_MAX), o.coid);
	s->gen = same & SAME_OBJECT ? o.gen : (uint32_t)get_varint(r, UINT32_MAX);
	s->pid = same & SAME_THREAD ? o.pid : (uint32_t)get_varint(r, UINT32_MAX);
	s->tid = same & SAME_THREAD ? o.tid : (uint32_t)get_varint(r, UINT32_MAX);
	s->cpu = same & SAME_CPU ? o.cpu : (uint16_t)get_varint(r, UINT16_MAX);
	s->event = same & SAME_EVENT ? o.event : (uint16_t)get_varint(r, UINT16_MAX);
	s->flags = same & SAME_FLAGS ? o.flags : (uint16_t)get_varint(r, UINT16_MAX);
	s->period = same & SAME_PERIOD ? o.period : (uint32_t)get_varint(r, UINT32_MAX);
	s->chain_id = same & SAME_CHAIN ? o.chain_id : (uint32_t)get_varint(r, UINT32_MAX);
	/* A field written out must differ from the previous record's: the same bit says so
	 * otherwise, and every record has one encoding. */
	bool redundant = (!(same & SAME_OBJECT) && s->coid == o.coid && s->gen == o.gen) ||
			 (!(same & SAME_THREAD) && s->pid == o.pid && s->tid == o.tid) ||
			 (!(same & SAME_CPU) && s->cpu == o.cpu) ||
			 (!(same & SAME_EVENT) && s->event == o.event) ||
			 (!(same & SAME_FLAGS) && s->flags == o.flags) ||
			 (!(same & SAME_PERIOD) && s->period == o.period) ||
			 (!(same & SAME_CHAIN) && s->chain_id == o.chain_id);
	if (redundant)
		rd_fail(r, PROTO_E_INCONSISTENT);
	if (!r->err)
		rd_fail(r, proto_check_sample_chained(s));
	*prev = base_of(s);
}

int proto_decode_samples_packed(const struct proto_frame *f, struct proto_samples_head *h,
                                struct proto_iter *it)
{
	it->left = 0;
	if (f->type != PROTO_SAMPLES_PACKED)
		return -PROTO_E_INVALID;
	struct rd r = { f->payload, f->size, 0, 0 };
	h->config_id = get_u32(&r);
	uint32_t count = get_u32(&r);
	if (!r.err && count > rd_left(&r) / PACKED_MIN)
		r.err = PROTO_E_COUNT;
	size_t first = r.pos;
	struct proto_sample_base prev = { 0 };
	struct proto_sample s;
	for (uint32_t i = 0; i < count && !r.err; i++) {
		if (rd_left(&r) == 0)
			r.err = PROTO_E_COUNT;   /* out of records, not inside one */
		else
			get_packed(&r, &prev, &s);
	}
	if (!r.err && rd_left(&r))
		r.err = PROTO_E_TRAILING;
	if (r.err)
		return -r.err;
	*it = (struct proto_iter){ .p = f->payload, .len = f->size, .pos = first, .left = count,
				   .type = PROTO_SAMPLES_PACKED };
	return 0;
}

bool proto_next_sample_packed(struct proto_iter *it, struct proto_sample *s)
{
	if (it->left == 0 || it->type != PROTO_SAMPLES_PACKED)
		return false;
	struct rd r = { it->p, it->len, it->pos, 0 };
	get_packed(&r, &it->prev, s);
	if (r.err) {             /* only if the frame changed since it was decoded */
		it->left = 0;
		return false;
	}
	it->pos = r.pos;
	it->left--;
	return true;
}

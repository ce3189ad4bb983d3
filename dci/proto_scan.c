/* Scan and symbol messages: what lives on the target, and the names of its code addresses
 * (the target serves its symbol tables, so hosts need no copies of its binaries). */
#include "dci/proto_wire.h"

/* Smallest encoded records: every fixed field, and empty strings and lists. */
#define PROCESS_MIN 16
#define OBJECT_MIN 34
#define SYMBOL_MIN 22
#define REF_SIZE 12

/* ---- SCAN_REQUEST -------------------------------------------------------------------- */

static int check_scan_request(const struct proto_scan_request *m)
{
	const uint16_t known = PROTO_SCAN_PROCESSES_BIT | PROTO_SCAN_OBJECTS_BIT;
	return (m->what == 0 || (m->what & ~known)) ? PROTO_E_INCONSISTENT : 0;
}

static int put_scan_request(struct wr *w, const void *msg)
{
	const struct proto_scan_request *m = msg;
	int err = check_scan_request(m);
	if (err)
		return err;
	put_u32(w, m->pid);
	put_u16(w, m->what);
	return 0;
}

static void get_scan_request(struct rd *r, void *msg)
{
	struct proto_scan_request *m = msg;
	m->pid = get_u32(r);
	m->what = get_u16(r);
	if (!r->err)
		r->err = check_scan_request(m);
}

int proto_encode_scan_request(void *buf, size_t cap, uint32_t req, uint16_t flags,
                              const struct proto_scan_request *m)
{
	return proto_fixed_encode(buf, cap, PROTO_SCAN_REQUEST, req, flags, put_scan_request, m);
}

int proto_decode_scan_request(const struct proto_frame *f, struct proto_scan_request *m)
{
	return proto_fixed_decode(f, PROTO_SCAN_REQUEST, get_scan_request, m);
}

/* ---- SCAN_PROCESSES, SCAN_OBJECTS ---------------------------------------------------- */

static int put_scan_head(struct wr *w, const void *msg)
{
	put_u64(w, ((const struct proto_scan_head *)msg)->timebase);
	return 0;
}

static void get_scan_head(struct rd *r, void *msg)
{
	((struct proto_scan_head *)msg)->timebase = get_u64(r);
}

static int put_process(struct wr *w, const void *msg)
{
	const struct proto_process *p = msg;
	if (proto_check_str(p->name, 1, PROTO_NAME_MAX))
		return PROTO_E_STRING;
	put_u32(w, p->pid);
	put_u32(w, p->ppid);
	put_u32(w, p->threads);
	put_u16(w, p->state);
	put_str(w, p->name);
	return 0;
}

static void get_process(struct rd *r, void *msg)
{
	struct proto_process *p = msg;
	p->pid = get_u32(r);
	p->ppid = get_u32(r);
	p->threads = get_u32(r);
	p->state = get_u16(r);
	proto_get_str(r, &p->name, 1, PROTO_NAME_MAX);
}

int proto_begin_scan_processes(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                               uint16_t flags, const struct proto_scan_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_SCAN_PROCESSES, req, flags, put_scan_head, h);
}

int proto_add_process(struct proto_builder *b, const struct proto_process *r)
{
	return proto_list_add(b, PROTO_SCAN_PROCESSES, put_process, r);
}

int proto_decode_scan_processes(const struct proto_frame *f, struct proto_scan_head *h,
                                struct proto_iter *it)
{
	struct proto_process scratch;
	return proto_list_decode(f, PROTO_SCAN_PROCESSES, get_scan_head, h, get_process, &scratch,
	                         PROCESS_MIN, it);
}

bool proto_next_process(struct proto_iter *it, struct proto_process *r)
{
	return proto_list_next(it, PROTO_SCAN_PROCESSES, get_process, r);
}

static int check_object_flags(uint16_t flags)
{
	const uint16_t both = PROTO_OBJ_SINGLE_REP | PROTO_OBJ_PER_CPU;
	return (flags & both) == both ? PROTO_E_INCONSISTENT : 0;
}

static int put_object(struct wr *w, const void *msg)
{
	const struct proto_object *o = msg;
	if (proto_check_str(o->class_name, 1, PROTO_NAME_MAX))
		return PROTO_E_STRING;
	if (o->reps.count > PROTO_MAX_CPUS || check_object_flags(o->flags))
		return PROTO_E_INCONSISTENT;
	if ((o->reps.count && !o->reps.items && !o->reps.wire) ||
	    (o->children.count && !o->children.items && !o->children.wire))
		return PROTO_E_INVALID;
	put_u32(w, o->pid);
	put_u32(w, o->gen);
	put_u64(w, o->coid);
	put_u64(w, o->root);
	put_u16(w, o->flags);
	put_str(w, o->class_name);
	put_u16(w, (uint16_t)o->reps.count);
	for (uint32_t i = 0; i < o->reps.count; i++)
		put_u64(w, proto_u64_at(&o->reps, i));
	put_u32(w, o->children.count);
	for (uint32_t i = 0; i < o->children.count; i++) {
		struct proto_ref c = proto_ref_at(&o->children, i);
		put_u64(w, c.coid);
		put_u32(w, c.gen);
		if (w->len > PROTO_MAX_FRAME)
			break;   /* it cannot fit; stop a huge list early, the length says why */
	}
	return 0;
}

static void get_object(struct rd *r, void *msg)
{
	struct proto_object *o = msg;
	o->pid = get_u32(r);
	o->gen = get_u32(r);
	o->coid = get_u64(r);
	o->root = get_u64(r);
	o->flags = get_u16(r);
	proto_get_str(r, &o->class_name, 1, PROTO_NAME_MAX);
	o->reps.items = NULL;
	o->reps.count = get_u16(r);
	if (!r->err && o->reps.count > PROTO_MAX_CPUS)
		rd_fail(r, PROTO_E_INCONSISTENT);
	o->reps.wire = proto_get_array(r, o->reps.count, 8);
	o->children.items = NULL;
	o->children.count = get_u32(r);
	o->children.wire = proto_get_array(r, o->children.count, REF_SIZE);
	if (!r->err && check_object_flags(o->flags))
		r->err = PROTO_E_INCONSISTENT;
	if (r->err)
		o->reps.count = o->children.count = 0;
}

int proto_begin_scan_objects(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                             uint16_t flags, const struct proto_scan_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_SCAN_OBJECTS, req, flags, put_scan_head, h);
}

int proto_add_object(struct proto_builder *b, const struct proto_object *r)
{
	return proto_list_add(b, PROTO_SCAN_OBJECTS, put_object, r);
}

int proto_decode_scan_objects(const struct proto_frame *f, struct proto_scan_head *h,
                              struct proto_iter *it)
{
	struct proto_object scratch;
	return proto_list_decode(f, PROTO_SCAN_OBJECTS, get_scan_head, h, get_object, &scratch,
	                         OBJECT_MIN, it);
}

bool proto_next_object(struct proto_iter *it, struct proto_object *r)
{
	return proto_list_next(it, PROTO_SCAN_OBJECTS, get_object, r);
}

/* ---- SYMBOL_LOOKUP, SYMBOL_TABLE_GET ------------------------------------------------- */

static int put_symbol_query(struct wr *w, const void *msg)
{
	put_u32(w, ((const struct proto_symbol_query *)msg)->pid);
	return 0;
}

static void get_symbol_query(struct rd *r, void *msg)
{
	((struct proto_symbol_query *)msg)->pid = get_u32(r);
}

static int put_address(struct wr *w, const void *msg)
{
	put_u64(w, *(const uint64_t *)msg);
	return 0;
}

static void get_address(struct rd *r, void *msg)
{
	*(uint64_t *)msg = get_u64(r);
}

int proto_begin_symbol_lookup(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                              uint16_t flags, const struct proto_symbol_query *h)
{
	return proto_list_begin(b, buf, cap, PROTO_SYMBOL_LOOKUP, req, flags, put_symbol_query, h);
}

int proto_add_address(struct proto_builder *b, const uint64_t *r)
{
	return proto_list_add(b, PROTO_SYMBOL_LOOKUP, put_address, r);
}

int proto_decode_symbol_lookup(const struct proto_frame *f, struct proto_symbol_query *h,
                               struct proto_iter *it)
{
	uint64_t scratch;
	return proto_list_decode(f, PROTO_SYMBOL_LOOKUP, get_symbol_query, h, get_address, &scratch,
	                         8, it);
}

bool proto_next_address(struct proto_iter *it, uint64_t *r)
{
	return proto_list_next(it, PROTO_SYMBOL_LOOKUP, get_address, r);
}

int proto_encode_symbol_table_get(void *buf, size_t cap, uint32_t req, uint16_t flags,
                                  const struct proto_symbol_query *m)
{
	return proto_fixed_encode(buf, cap, PROTO_SYMBOL_TABLE_GET, req, flags, put_symbol_query,
	                          m);
}

int proto_decode_symbol_table_get(const struct proto_frame *f, struct proto_symbol_query *m)
{
	return proto_fixed_decode(f, PROTO_SYMBOL_TABLE_GET, get_symbol_query, m);
}

/* ---- SYMBOLS ------------------------------------------------------------------------- */

static int put_symbols_head(struct wr *w, const void *msg)
{
	const struct proto_symbols_head *h = msg;
	if (proto_check_str(h->image, 0, PROTO_NAME_MAX))
		return PROTO_E_STRING;
	put_u32(w, h->pid);
	put_str(w, h->image);
	return 0;
}

static void get_symbols_head(struct rd *r, void *msg)
{
	struct proto_symbols_head *h = msg;
	h->pid = get_u32(r);
	proto_get_str(r, &h->image, 0, PROTO_NAME_MAX);
}

/* An unknown address has no symbol at all; a known one lies at or after its symbol. */
static int check_symbol(const struct proto_symbol *s)
{
	if (s->name.len == 0)
		return (s->start || s->size) ? PROTO_E_INCONSISTENT : 0;
	if (s->addr < s->start || (s->size && s->addr - s->start >= s->size))
		return PROTO_E_INCONSISTENT;
	return 0;
}

static int put_symbol(struct wr *w, const void *msg)
{
	const struct proto_symbol *s = msg;
	if (proto_check_str(s->name, 0, PROTO_SYMBOL_MAX))
		return PROTO_E_STRING;
	int err = check_symbol(s);
	if (err)
		return err;
	put_u64(w, s->addr);
	put_u64(w, s->start);
	put_u32(w, s->size);
	put_str(w, s->name);
	return 0;
}

static void get_symbol(struct rd *r, void *msg)
{
	struct proto_symbol *s = msg;
	s->addr = get_u64(r);
	s->start = get_u64(r);
	s->size = get_u32(r);
	proto_get_str(r, &s->name, 0, PROTO_SYMBOL_MAX);
	if (!r->err)
		r->err = check_symbol(s);
}

int proto_begin_symbols(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
                        uint16_t flags, const struct proto_symbols_head *h)
{
	return proto_list_begin(b, buf, cap, PROTO_SYMBOLS, req, flags, put_symbols_head, h);
}

int proto_add_symbol(struct proto_builder *b, const struct proto_symbol *r)
{
	return proto_list_add(b, PROTO_SYMBOLS, put_symbol, r);
}

int proto_decode_symbols(const struct proto_frame *f, struct proto_symbols_head *h,
                         struct proto_iter *it)
{
	struct proto_symbol scratch;
	return proto_list_decode(f, PROTO_SYMBOLS, get_symbols_head, h, get_symbol, &scratch,
	                         SYMBOL_MIN, it);
}

bool proto_next_symbol(struct proto_iter *it, struct proto_symbol *r)
{
	return proto_list_next(it, PROTO_SYMBOLS, get_symbol, r);
}

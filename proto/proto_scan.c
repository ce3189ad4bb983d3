/* Scan and symbol messages: what lives on the target, and the names of its code addresses
 * (the target serves its symbol tables, so hosts need no copies of its binaries); layouts and
 * entries of the codec's table (proto/proto_wire.h). */
#include "proto_wire.h"

/* Smallest encoded records: every fixed field, and empty strings and lists. */
#define PROCESS_MIN 16
#define OBJECT_MIN 34
#define SYMBOL_MIN 22
#define REF_SIZE 12

/* ---- SCAN_REQUEST -------------------------------------------------------------------- */

static int check_scan_request(const void *msg)
{
	const struct proto_scan_request *m = msg;
	const uint16_t known = PROTO_SCAN_PROCESSES_BIT | PROTO_SCAN_OBJECTS_BIT;
	return (m->what == 0 || (m->what & ~known)) ? PROTO_E_INCONSISTENT : 0;
}

static const struct proto_field scan_request_fields[] = {
	PF(struct proto_scan_request, pid, PF_U32),
	PF(struct proto_scan_request, what, PF_U16),
};

/* ---- SCAN_PROCESSES, SCAN_OBJECTS ---------------------------------------------------- */

static const struct proto_field scan_head_fields[] = {
	PF(struct proto_scan_head, timebase, PF_U64),
};

static const struct proto_field process_fields[] = {
	PF(struct proto_process, pid, PF_U32),
	PF(struct proto_process, ppid, PF_U32),
	PF(struct proto_process, threads, PF_U32),
	PF(struct proto_process, state, PF_U16),
	PF_S(struct proto_process, name, 1, PROTO_NAME_MAX),
};

static int check_object_flags(uint16_t flags)
{
	const uint16_t both = PROTO_OBJ_SINGLE_REP | PROTO_OBJ_PER_CPU;
	return (flags & both) == both ? PROTO_E_INCONSISTENT : 0;
}

/* An object: fixed fields, then its reps and children as counted arrays. */
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

/* ---- SYMBOL_LOOKUP, SYMBOL_TABLE_GET, SYMBOLS ---------------------------------------- */

static const struct proto_field symbol_query_fields[] = {
	PF(struct proto_symbol_query, pid, PF_U32),
};

static const struct proto_field address_fields[] = {
	{ 0, PF_U64, 0, 0 },         /* a record is a bare uint64_t */
};

static const struct proto_field symbols_head_fields[] = {
	PF(struct proto_symbols_head, pid, PF_U32),
	PF_S(struct proto_symbols_head, image, 0, PROTO_NAME_MAX),
};

/* An unknown address has no symbol at all; a known one lies at or after its symbol. */
static int check_symbol(const void *msg)
{
	const struct proto_symbol *s = msg;
	if (s->name.len == 0)
		return (s->start || s->size) ? PROTO_E_INCONSISTENT : 0;
	if (s->addr < s->start || (s->size && s->addr - s->start >= s->size))
		return PROTO_E_INCONSISTENT;
	return 0;
}

static const struct proto_field symbol_fields[] = {
	PF(struct proto_symbol, addr, PF_U64),
	PF(struct proto_symbol, start, PF_U64),
	PF(struct proto_symbol, size, PF_U32),
	PF_S(struct proto_symbol, name, 0, PROTO_SYMBOL_MAX),
};

/* ---- the table ----------------------------------------------------------------------- */

static const struct proto_layout scan_request_layout =
	PROTO_LAYOUT(struct proto_scan_request, scan_request_fields, check_scan_request);
static const struct proto_layout scan_head_layout =
	PROTO_LAYOUT(struct proto_scan_head, scan_head_fields, NULL);
static const struct proto_layout process_layout =
	PROTO_LAYOUT(struct proto_process, process_fields, NULL);
static const struct proto_layout object_layout =
	PROTO_CUSTOM(struct proto_object, put_object, get_object);
static const struct proto_layout symbol_query_layout =
	PROTO_LAYOUT(struct proto_symbol_query, symbol_query_fields, NULL);
static const struct proto_layout address_layout = PROTO_LAYOUT(uint64_t, address_fields, NULL);
static const struct proto_layout symbols_head_layout =
	PROTO_LAYOUT(struct proto_symbols_head, symbols_head_fields, NULL);
static const struct proto_layout symbol_layout =
	PROTO_LAYOUT(struct proto_symbol, symbol_fields, check_symbol);

const struct proto_message proto_scan_messages[] = {
	{ PROTO_SCAN_REQUEST, &scan_request_layout, NULL, 0, NULL },
	{ PROTO_SCAN_PROCESSES, &scan_head_layout, &process_layout, PROCESS_MIN, NULL },
	{ PROTO_SCAN_OBJECTS, &scan_head_layout, &object_layout, OBJECT_MIN, NULL },
	{ PROTO_SYMBOL_LOOKUP, &symbol_query_layout, &address_layout, 8, NULL },
	{ PROTO_SYMBOL_TABLE_GET, &symbol_query_layout, NULL, 0, NULL },
	{ PROTO_SYMBOLS, &symbols_head_layout, &symbol_layout, SYMBOL_MIN, NULL },
};
const size_t proto_scan_message_count = sizeof proto_scan_messages / sizeof proto_scan_messages[0];

PROTO_FIXED_NAMES(scan_request, PROTO_SCAN_REQUEST, struct proto_scan_request)
PROTO_FIXED_NAMES(symbol_table_get, PROTO_SYMBOL_TABLE_GET, struct proto_symbol_query)
PROTO_LIST_NAMES(scan_processes, process, PROTO_SCAN_PROCESSES, struct proto_scan_head,
                 struct proto_process)
PROTO_LIST_NAMES(scan_objects, object, PROTO_SCAN_OBJECTS, struct proto_scan_head,
                 struct proto_object)
PROTO_LIST_NAMES(symbol_lookup, address, PROTO_SYMBOL_LOOKUP, struct proto_symbol_query,
                 uint64_t)
PROTO_LIST_NAMES(symbols, symbol, PROTO_SYMBOLS, struct proto_symbols_head, struct proto_symbol)

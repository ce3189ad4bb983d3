#include "fdt_write.h"
#include "fdt.h"
#include "common/lib/bytes.h"
#include "common/lib/string.h"

#define TOK_BEGIN_NODE 1
#define TOK_END_NODE   2
#define TOK_PROP       3
#define TOK_END        9

#define OFF_RSVMAP 40   /* right after the version 17 header */
#define OFF_STRUCT 56   /* after the reservation map's terminating entry */

static uint64_t align4(uint64_t n)
{
	return (n + 3) & ~(uint64_t)3;
}

void fdt_writer_init(struct fdt_writer *w, void *buf, size_t cap)
{
	/* The reader takes offsets as ints; keeping cap below 2 GiB keeps the result readable. */
	if (cap > (size_t)INT32_MAX)
		cap = (size_t)INT32_MAX;
	*w = (struct fdt_writer){
		.buf = buf,
		.cap = (uint32_t)cap,
		.pos = OFF_STRUCT,
		.strings = (uint32_t)cap,
		.failed = cap < OFF_STRUCT,
	};
}

/* Makes sure n more bytes fit in the structure block below the names. */
static bool room(struct fdt_writer *w, uint64_t n)
{
	if (!w->failed && n > w->strings - w->pos)
		w->failed = true;
	return !w->failed;
}

static void put32(struct fdt_writer *w, uint32_t v)
{
	be32_store(w->buf + w->pos, v);
	w->pos += 4;
}

/* Copies n bytes and zero-pads them to the next token boundary; room() was checked. */
static void put_padded(struct fdt_writer *w, const void *data, uint32_t n)
{
	if (n)
		memcpy(w->buf + w->pos, data, n);
	uint32_t end = (uint32_t)align4(n);
	for (uint32_t i = n; i < end; i++)
		w->buf[w->pos + i] = 0;
	w->pos += end;
}

/* Finds or adds a property name. Its final offset in the strings block is not known until
 * the block stops growing, so this returns its distance from the end of the buffer, which
 * fdt_writer_finish turns into the offset. Returns 0 on failure. */
static uint32_t name_ref(struct fdt_writer *w, const char *name)
{
	for (uint32_t s = w->strings; s < w->cap; s += (uint32_t)strlen((char *)w->buf + s) + 1)
		if (strcmp((char *)w->buf + s, name) == 0)
			return w->cap - s;
	size_t n = strlen(name) + 1;
	if (w->failed || n > w->strings - w->pos) {
		w->failed = true;
		return 0;
	}
	w->strings -= (uint32_t)n;
	memcpy(w->buf + w->strings, name, n);
	return w->cap - w->strings;
}

void fdt_begin_node(struct fdt_writer *w, const char *name)
{
	if (w->depth == 0 && w->roots > 0)
		w->failed = true;   /* a second root */
	if (!name)
		name = "";
	size_t n = strlen(name) + 1;
	if (!room(w, 4 + align4(n)))
		return;
	put32(w, TOK_BEGIN_NODE);
	put_padded(w, name, (uint32_t)n);
	if (w->depth++ == 0)
		w->roots++;
	w->last = TOK_BEGIN_NODE;
}

void fdt_add_prop(struct fdt_writer *w, const char *name, const void *data, uint32_t len)
{
	/* Properties belong to an open node and come before its children. */
	if (w->depth == 0 || w->last == TOK_END_NODE || !name || (!data && len))
		w->failed = true;
	if (!room(w, 12 + align4(len)))
		return;
	uint32_t ref = name_ref(w, name);
	if (!room(w, 12 + align4(len)))   /* the name may have taken the space */
		return;
	put32(w, TOK_PROP);
	put32(w, len);
	put32(w, ref);
	put_padded(w, data, len);
	w->last = TOK_PROP;
}

void fdt_add_prop_u32(struct fdt_writer *w, const char *name, uint32_t value)
{
	uint8_t b[4];
	be32_store(b, value);
	fdt_add_prop(w, name, b, sizeof b);
}

void fdt_end_node(struct fdt_writer *w)
{
	if (w->depth == 0)
		w->failed = true;
	if (!room(w, 4))
		return;
	put32(w, TOK_END_NODE);
	w->depth--;
	w->last = TOK_END_NODE;
}

/* Rewrites each property's name reference (distance from the end of the buffer) as its
 * offset into the strings block. Only tokens this writer produced are in the block. */
static void fix_name_offsets(struct fdt_writer *w, uint32_t strings_size)
{
	uint32_t off = OFF_STRUCT;
	for (;;) {
		uint32_t tag = be32_load(w->buf + off);
		if (tag == TOK_BEGIN_NODE) {
			off += 4 + (uint32_t)align4(strlen((char *)w->buf + off + 4) + 1);
		} else if (tag == TOK_PROP) {
			uint32_t len = be32_load(w->buf + off + 4);
			uint32_t ref = be32_load(w->buf + off + 8);
			be32_store(w->buf + off + 8, strings_size - ref);
			off += 12 + (uint32_t)align4(len);
		} else if (tag == TOK_END_NODE) {
			off += 4;
		} else {
			return;   /* TOK_END */
		}
	}
}

uint32_t fdt_writer_finish(struct fdt_writer *w)
{
	if (w->depth != 0 || w->roots != 1 || !room(w, 4)) {
		w->failed = true;
		return 0;
	}
	put32(w, TOK_END);
	uint32_t struct_size = w->pos - OFF_STRUCT;
	uint32_t strings_size = w->cap - w->strings;
	fix_name_offsets(w, strings_size);
	/* Move the names down to follow the structure block; the regions may overlap, and
	 * the destination is the lower one, so a forward copy is safe. */
	for (uint32_t i = 0; i < strings_size; i++)
		w->buf[w->pos + i] = w->buf[w->strings + i];
	uint32_t total = w->pos + strings_size;

	uint8_t *h = w->buf;
	memset(h + OFF_RSVMAP, 0, OFF_STRUCT - OFF_RSVMAP);
	be32_store(h + 0, FDT_MAGIC);
	be32_store(h + 4, total);
	be32_store(h + 8, OFF_STRUCT);
	be32_store(h + 12, w->pos);          /* off_dt_strings */
	be32_store(h + 16, OFF_RSVMAP);
	be32_store(h + 20, 17);              /* version */
	be32_store(h + 24, 16);              /* last compatible version */
	be32_store(h + 28, 0);               /* boot_cpuid_phys */
	be32_store(h + 32, strings_size);
	be32_store(h + 36, struct_size);
	w->failed = true;   /* the buffer now holds a finished blob: no more additions */
	return total;
}

#include "fdt.h"
#include "common/lib/bytes.h"
#include "common/lib/string.h"

#define TOK_BEGIN_NODE 1
#define TOK_END_NODE   2
#define TOK_PROP       3
#define TOK_NOP        4
#define TOK_END        9

#define HEADER_V16 36   /* version 17 added size_dt_struct */
#define HEADER_V17 40

static bool block_inside(uint32_t off, uint32_t size, uint32_t total)
{
	return off <= total && size <= total - off;
}

int fdt_open(struct fdt *f, const void *blob, size_t max_size)
{
	const uint8_t *b = blob;
	*f = (struct fdt){ 0 };
	if (!b || max_size < 8)
		return FDT_ERR_TRUNCATED;
	if (be32_load(b) != FDT_MAGIC)
		return FDT_ERR_BADMAGIC;
	uint32_t total = be32_load(b + 4);
	if (total > max_size || total < HEADER_V16)
		return FDT_ERR_TRUNCATED;
	uint32_t version = be32_load(b + 20), last_compatible = be32_load(b + 24);
	if (version < 16 || last_compatible > 17)
		return FDT_ERR_BADVERSION;
	if (version >= 17 && total < HEADER_V17)
		return FDT_ERR_TRUNCATED;
	/* Offsets are ints in this API. */
	if (total > (uint32_t)INT32_MAX)
		return FDT_ERR_BADLAYOUT;

	struct fdt t = {
		.blob = b,
		.size = total,
		.off_struct = be32_load(b + 8),
		.off_strings = be32_load(b + 12),
		.size_strings = be32_load(b + 32),
	};
	if (version >= 17)
		t.size_struct = be32_load(b + 36);
	else if (t.off_strings > t.off_struct)
		t.size_struct = t.off_strings - t.off_struct;
	else
		t.size_struct = total - t.off_struct;   /* bounded by the check below */
	uint32_t off_rsvmap = be32_load(b + 16);
	/* The reservation map is not read here, but a valid one holds at least its terminator. */
	if (!block_inside(t.off_struct, t.size_struct, total) ||
	    !block_inside(t.off_strings, t.size_strings, total) ||
	    !block_inside(off_rsvmap, 16, total) || t.off_struct % 4 || off_rsvmap % 8)
		return FDT_ERR_BADLAYOUT;
	int root = fdt_root(&t);
	if (root < 0)
		return root;
	*f = t;
	return 0;
}

const char *fdt_strerror(int err)
{
	switch (err) {
	case 0: return "no error";
	case FDT_ERR_NOTFOUND: return "not found";
	case FDT_ERR_TRUNCATED: return "blob truncated";
	case FDT_ERR_BADMAGIC: return "bad magic";
	case FDT_ERR_BADVERSION: return "unsupported version";
	case FDT_ERR_BADLAYOUT: return "block outside the blob";
	case FDT_ERR_BADSTRUCTURE: return "corrupt structure block";
	case FDT_ERR_BADOFFSET: return "bad node or property offset";
	case FDT_ERR_BADPATH: return "bad path";
	default: return "unknown error";
	}
}

uint32_t fdt_blob_size(const void *blob)
{
	return be32_load((const uint8_t *)blob + 4);
}

static const uint8_t *struct_at(const struct fdt *f, int off)
{
	return f->blob + f->off_struct + off;
}

static bool token_in_range(const struct fdt *f, int off)
{
	return off >= 0 && off % 4 == 0 && f->size_struct >= 4 && (uint32_t)off <= f->size_struct - 4;
}

/* Reads and checks the token at off: returns its tag and the offset of the token after it
 * in *next (always beyond off), or FDT_ERR_BADSTRUCTURE. */
static int token(const struct fdt *f, int off, int *next)
{
	if (!token_in_range(f, off))
		return FDT_ERR_BADSTRUCTURE;
	uint32_t size = f->size_struct;
	uint32_t tag = be32_load(struct_at(f, off));
	uint32_t pos = (uint32_t)off + 4;
	switch (tag) {
	case TOK_BEGIN_NODE: {
		const uint8_t *name = struct_at(f, (int)pos);
		uint32_t n = 0;
		while (n < size - pos && name[n])
			n++;
		if (n == size - pos)
			return FDT_ERR_BADSTRUCTURE;
		pos += n + 1;
		break;
	}
	case TOK_PROP: {
		if (size - pos < 8)
			return FDT_ERR_BADSTRUCTURE;
		uint32_t len = be32_load(struct_at(f, (int)pos));
		pos += 8;
		if (len > size - pos)
			return FDT_ERR_BADSTRUCTURE;
		pos += len;
		break;
	}
	case TOK_END_NODE:
	case TOK_NOP:
	case TOK_END:
		break;
	default:
		return FDT_ERR_BADSTRUCTURE;
	}
	*next = (int)((pos + 3) & ~3u);   /* pos <= size <= INT32_MAX, so this cannot wrap */
	return (int)tag;
}

/* From off, skips NOPs (and properties too if skip_props); returns the offset of the first
 * other token and stores its tag. */
static int skip(const struct fdt *f, int off, bool skip_props, int *tag)
{
	for (;;) {
		int next;
		int t = token(f, off, &next);
		if (t < 0)
			return t;
		if (t != TOK_NOP && !(skip_props && t == TOK_PROP)) {
			*tag = t;
			return off;
		}
		off = next;
	}
}

/* Checks that node is a node token; returns the offset just past it (its first property or
 * child) or an error. */
static int node_body(const struct fdt *f, int node)
{
	int next;
	if (!token_in_range(f, node))
		return FDT_ERR_BADOFFSET;
	int t = token(f, node, &next);
	if (t < 0)
		return t;
	return t == TOK_BEGIN_NODE ? next : FDT_ERR_BADOFFSET;
}

int fdt_root(const struct fdt *f)
{
	int tag;
	int off = skip(f, 0, false, &tag);
	if (off < 0)
		return off;
	return tag == TOK_BEGIN_NODE ? off : FDT_ERR_BADSTRUCTURE;
}

int fdt_first_child(const struct fdt *f, int node)
{
	int tag;
	int off = node_body(f, node);
	if (off < 0)
		return off;
	off = skip(f, off, true, &tag);
	if (off < 0)
		return off;
	if (tag == TOK_BEGIN_NODE)
		return off;
	return tag == TOK_END_NODE ? FDT_ERR_NOTFOUND : FDT_ERR_BADSTRUCTURE;
}

int fdt_next_sibling(const struct fdt *f, int node)
{
	int off = node_body(f, node);
	if (off < 0)
		return off;
	/* Walk past the node's subtree to its END_NODE. */
	for (int depth = 1; depth > 0;) {
		int next;
		int t = token(f, off, &next);
		if (t < 0)
			return t;
		if (t == TOK_BEGIN_NODE)
			depth++;
		else if (t == TOK_END_NODE)
			depth--;
		else if (t == TOK_END)
			return FDT_ERR_BADSTRUCTURE;
		off = next;
	}
	int tag;
	off = skip(f, off, true, &tag);
	if (off < 0)
		return off;
	if (tag == TOK_BEGIN_NODE)
		return off;
	/* END follows the root, which has no siblings. */
	return tag == TOK_END_NODE || tag == TOK_END ? FDT_ERR_NOTFOUND : FDT_ERR_BADSTRUCTURE;
}

const char *fdt_node_name(const struct fdt *f, int node)
{
	if (node_body(f, node) < 0)
		return NULL;
	return (const char *)struct_at(f, node + 4);
}

/* Does a node name match the path component comp[0..n)? */
static bool component_matches(const char *name, const char *comp, size_t n)
{
	bool has_unit = false;
	for (size_t i = 0; i < n; i++) {
		if (name[i] != comp[i])
			return false;   /* also stops at the end of name */
		if (comp[i] == '@')
			has_unit = true;
	}
	return name[n] == 0 || (name[n] == '@' && !has_unit);
}

int fdt_path(const struct fdt *f, const char *path)
{
	if (!path || path[0] != '/')
		return FDT_ERR_BADPATH;
	int node = fdt_root(f);
	const char *p = path;
	while (node >= 0) {
		while (*p == '/')
			p++;
		if (!*p)
			return node;
		size_t n = 0;
		while (p[n] && p[n] != '/')
			n++;
		int child = fdt_first_child(f, node);
		while (child >= 0 && !component_matches(fdt_node_name(f, child), p, n))
			child = fdt_next_sibling(f, child);
		node = child;
		p += n;
	}
	return node;
}

/* The NUL-terminated string at nameoff in the strings block, or NULL. */
static const char *string_at(const struct fdt *f, uint32_t nameoff)
{
	if (nameoff >= f->size_strings)
		return NULL;
	const char *s = (const char *)f->blob + f->off_strings + nameoff;
	for (uint32_t i = 0; i < f->size_strings - nameoff; i++)
		if (s[i] == 0)
			return s;
	return NULL;
}

/* Reads the property at a PROP token that token() has already checked. */
static const void *prop_fields(const struct fdt *f, int prop, const char **name, int *len)
{
	const uint8_t *p = struct_at(f, prop);
	const char *s = string_at(f, be32_load(p + 8));
	if (!s)
		return NULL;
	if (name)
		*name = s;
	if (len)
		*len = (int)be32_load(p + 4);   /* fits: it lies inside the blob */
	return p + 12;
}

int fdt_first_prop(const struct fdt *f, int node)
{
	int tag;
	int off = node_body(f, node);
	if (off < 0)
		return off;
	off = skip(f, off, false, &tag);
	if (off < 0)
		return off;
	return tag == TOK_PROP ? off : FDT_ERR_NOTFOUND;
}

int fdt_next_prop(const struct fdt *f, int prop)
{
	int next, tag;
	if (!token_in_range(f, prop))
		return FDT_ERR_BADOFFSET;
	int t = token(f, prop, &next);
	if (t < 0)
		return t;
	if (t != TOK_PROP)
		return FDT_ERR_BADOFFSET;
	int off = skip(f, next, false, &tag);
	if (off < 0)
		return off;
	return tag == TOK_PROP ? off : FDT_ERR_NOTFOUND;
}

const void *fdt_prop_at(const struct fdt *f, int prop, const char **name, int *len)
{
	int next;
	if (!token_in_range(f, prop) || token(f, prop, &next) != TOK_PROP)
		return NULL;
	return prop_fields(f, prop, name, len);
}

const void *fdt_prop(const struct fdt *f, int node, const char *name, int *len)
{
	int p = fdt_first_prop(f, node);
	for (; p >= 0; p = fdt_next_prop(f, p)) {
		const char *pname;
		int plen;
		const void *data = prop_fields(f, p, &pname, &plen);
		if (!data) {
			p = FDT_ERR_BADSTRUCTURE;
			break;
		}
		if (strcmp(pname, name) == 0) {
			if (len)
				*len = plen;
			return data;
		}
	}
	if (len)
		*len = p;
	return NULL;
}

bool fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *out)
{
	int len;
	const void *p = fdt_prop(f, node, name, &len);
	if (!p || len != 4)
		return false;
	*out = be32_load(p);
	return true;
}

bool fdt_prop_u64(const struct fdt *f, int node, const char *name, uint64_t *out)
{
	int len;
	const void *p = fdt_prop(f, node, name, &len);
	if (!p || (len != 4 && len != 8))
		return false;
	*out = len == 4 ? be32_load(p) : be64_load(p);
	return true;
}

const char *fdt_prop_str(const struct fdt *f, int node, const char *name)
{
	int len;
	const char *p = fdt_prop(f, node, name, &len);
	for (int i = 0; p && i < len; i++)
		if (p[i] == 0)
			return p;
	return NULL;
}

uint64_t fdt_cells(const void *prop, int index, int ncells)
{
	if (index < 0)
		return 0;
	const uint8_t *p = (const uint8_t *)prop + (size_t)index * 4;
	if (ncells == 1)
		return be32_load(p);
	if (ncells == 2)
		return be64_load(p);
	return 0;
}

int fdt_find_by_type(const struct fdt *f, int start, const char *device_type)
{
	int off = 0;
	if (start != -1) {
		off = node_body(f, start);
		if (off < 0)
			return off;
	}
	/* Nodes appear in the structure block in depth-first order, so a plain token scan
	 * visits them in that order. */
	for (;;) {
		int next;
		int t = token(f, off, &next);
		if (t < 0)
			return t;
		if (t == TOK_END)
			return FDT_ERR_NOTFOUND;
		if (t == TOK_BEGIN_NODE) {
			const char *type = fdt_prop_str(f, off, "device_type");
			if (type && strcmp(type, device_type) == 0)
				return off;
		}
		off = next;
	}
}

static int parent_below(const struct fdt *f, int from, int node, int depth)
{
	if (depth > 64)
		return FDT_ERR_NOTFOUND;   /* deeper than any real tree: a malformed blob */
	for (int c = fdt_first_child(f, from); c >= 0; c = fdt_next_sibling(f, c)) {
		if (c == node)
			return from;
		int p = parent_below(f, c, node, depth + 1);
		if (p >= 0)
			return p;
	}
	return FDT_ERR_NOTFOUND;
}

int fdt_parent(const struct fdt *f, int node)
{
	return parent_below(f, fdt_root(f), node, 0);
}

static int phandle_below(const struct fdt *f, int from, uint32_t ph, int depth)
{
	uint32_t v;
	if ((fdt_prop_u32(f, from, "phandle", &v) || fdt_prop_u32(f, from, "linux,phandle", &v) ||
	     fdt_prop_u32(f, from, "ibm,phandle", &v)) && v == ph)
		return from;
	if (depth > 64)
		return FDT_ERR_NOTFOUND;
	for (int c = fdt_first_child(f, from); c >= 0; c = fdt_next_sibling(f, c)) {
		int n = phandle_below(f, c, ph, depth + 1);
		if (n >= 0)
			return n;
	}
	return FDT_ERR_NOTFOUND;
}

int fdt_node_by_phandle(const struct fdt *f, uint32_t ph)
{
	return phandle_below(f, fdt_root(f), ph, 0);
}

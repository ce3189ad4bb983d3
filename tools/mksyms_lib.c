#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mksyms_lib.h"
/* The table format comes from the kernel's own headers; relative paths need no -I. */
#include "common/lib/bytes.h"
#include "common/syms/ksyms.h"

struct sym {
	uint64_t addr;
	const char *name;   /* points into the parser's copy of the input */
	bool global;
	bool text;
	size_t order;       /* position in the input, for a stable sort */
};

struct parser {
	struct sym *syms;
	size_t count, cap;
	char *err;
	size_t err_size;
	bool failed;
};

static int fail(struct parser *p, size_t line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records the first error; line 0 means the error is not about one line. */
static int fail(struct parser *p, size_t line, const char *fmt, ...)
{
	int n = line ? snprintf(p->err, p->err_size, "line %zu: ", line) : 0;
	if (n >= 0 && (size_t)n < p->err_size) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(p->err + n, p->err_size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	p->failed = true;
	return -1;
}

static bool is_hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

static unsigned hex_value(char c)
{
	return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

static int add(struct parser *p, uint64_t addr, const char *name, char type)
{
	if (p->count == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 1024;
		struct sym *s = realloc(p->syms, cap * sizeof *s);
		if (!s)
			return fail(p, 0, "out of memory");
		p->syms = s;
		p->cap = cap;
	}
	p->syms[p->count] = (struct sym){
		.addr = addr,
		.name = name,
		.global = type >= 'A' && type <= 'Z',
		.text = strchr("TtWw", type) != NULL,
		.order = p->count,
	};
	p->count++;
	return 0;
}

/* Parses one NUL-terminated line (no '\n'); the name stays in place. */
static int parse_line(struct parser *p, char *s, size_t line)
{
	const char *form = "expected \"ADDRESS TYPE NAME\" as nm prints it";
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	if (n == 0)
		return 0;

	uint64_t addr = 0;
	size_t i = 0;
	bool has_addr = is_hex(s[0]);
	if (has_addr) {
		for (; is_hex(s[i]); i++) {
			if (i == 16)
				return fail(p, line, "address longer than 16 hex digits");
			addr = addr << 4 | hex_value(s[i]);
		}
	} else {
		/* An undefined symbol has blanks for its address; stop at the one before the type. */
		while (s[i] == ' ' && s[i + 1] == ' ')
			i++;
	}
	if (s[i] != ' ' || s[i + 1] == 0 || s[i + 1] == ' ' || s[i + 2] != ' ' || s[i + 3] == 0 ||
	    s[i + 3] == ' ')
		return fail(p, line, "%s", form);
	char type = s[i + 1];
	const char *name = s + i + 3;
	if (!has_addr) {
		if (strchr("Uwv", type))
			return 0;
		return fail(p, line, "symbol of type %c has no address", type);
	}
	if (!strchr("TtWwDdBbRrGgSsVv", type))
		return 0;   /* absolute, undefined, debugging and the rarer kinds */
	if (name[0] == '$' || (name[0] == '.' && (name[1] == 'L' || name[1] == 0)))
		return 0;   /* assembler-local labels, and a bare "." that would lose its name */
	return add(p, addr, name, type);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* ELFv1: drops the descriptor of every function whose ".name" code entry is present, and
 * renames the entries to "name". */
static int merge_dot_symbols(struct parser *p)
{
	const char **entries = malloc((p->count + 1) * sizeof *entries);
	if (!entries)
		return fail(p, 0, "out of memory");
	size_t n = 0;
	for (size_t i = 0; i < p->count; i++)
		if (p->syms[i].text && p->syms[i].name[0] == '.')
			entries[n++] = p->syms[i].name + 1;
	qsort(entries, n, sizeof *entries, by_name);
	size_t kept = 0;
	for (size_t i = 0; i < p->count; i++) {
		struct sym s = p->syms[i];
		if (s.text && s.name[0] == '.')
			s.name++;
		else if (bsearch(&s.name, entries, n, sizeof *entries, by_name))
			continue;
		p->syms[kept++] = s;
	}
	p->count = kept;
	free(entries);
	return 0;
}

/* Address, then globals first, then input order. */
static int by_address(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global)
		return x->global ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int emit(struct parser *p, unsigned char **table, size_t *size)
{
	size_t strings = 0;
	for (size_t i = 0; i < p->count; i++)
		strings += strlen(p->syms[i].name) + 1;
	if (p->count > UINT32_MAX / KSYMS_ENTRY_SIZE || strings > UINT32_MAX)
		return fail(p, 0, "too many symbols");
	size_t total = KSYMS_HEADER_SIZE + p->count * KSYMS_ENTRY_SIZE + strings;
	unsigned char *t = malloc(total);
	if (!t)
		return fail(p, 0, "out of memory");
	be32_store(t, KSYMS_MAGIC);
	be32_store(t + 4, (uint32_t)p->count);
	be32_store(t + 8, (uint32_t)strings);
	be32_store(t + 12, 0);
	unsigned char *e = t + KSYMS_HEADER_SIZE;
	unsigned char *names = e + p->count * KSYMS_ENTRY_SIZE;
	size_t off = 0;
	for (size_t i = 0; i < p->count; i++, e += KSYMS_ENTRY_SIZE) {
		const struct sym *s = &p->syms[i];
		uint64_t gap = i + 1 < p->count ? p->syms[i + 1].addr - s->addr : 0;
		be64_store(e, s->addr);
		be32_store(e + 8, (uint32_t)off);
		be32_store(e + 12, gap > UINT32_MAX ? 0 : (uint32_t)gap);   /* 0: up to the next */
		size_t n = strlen(s->name) + 1;
		memcpy(names + off, s->name, n);
		off += n;
	}
	*table = t;
	*size = total;
	return 0;
}

int mksyms_build(const char *text, size_t len, unsigned char **table, size_t *size,
                 char *err, size_t err_size)
{
	struct parser p = { .err = err, .err_size = err_size };
	if (err_size)
		err[0] = 0;
	if (memchr(text, 0, len))
		return fail(&p, 0, "input contains a NUL byte");
	/* Lines are cut in place in a copy, and the names stay there until the table is out. */
	char *copy = malloc(len + 1);
	if (!copy)
		return fail(&p, 0, "out of memory");
	memcpy(copy, text, len);
	copy[len] = 0;

	size_t line = 1;
	for (char *s = copy; *s && !p.failed; line++) {
		char *nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		parse_line(&p, s, line);
		s = nl ? nl + 1 : s + strlen(s);
	}
	if (!p.failed)
		merge_dot_symbols(&p);
	if (!p.failed) {
		if (p.count)   /* syms is still NULL when nothing was kept */
			qsort(p.syms, p.count, sizeof *p.syms, by_address);
		size_t kept = 0;
		for (size_t i = 0; i < p.count; i++)
			if (kept == 0 || p.syms[i].addr != p.syms[kept - 1].addr)
				p.syms[kept++] = p.syms[i];
		p.count = kept;
		emit(&p, table, size);
	}
	free(p.syms);
	free(copy);
	return p.failed ? -1 : 0;
}

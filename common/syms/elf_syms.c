/* ELF64 big-endian symbol tables into common/syms/ksyms.h tables (common/syms/elf_syms.h). */
#include <stdbool.h>
#include "elf_syms.h"
#include "ksyms.h"
#include "common/lib/string.h"
#include "common/lib/bytes.h"

#define SHT_SYMTAB 2
#define SHT_NOBITS 8
#define STT_OBJECT 1
#define STT_FUNC 2
#define SHDR_SIZE 64
#define SYM_SIZE 24
#define NAME_MAX_LEN 128

struct section {
	uint32_t type, link;
	uint64_t addr, offset, size, entsize;
};

struct reader {
	elf_read_fn read;
	void *ctx;
	uint64_t size;
};

static int read_at(const struct reader *r, uint64_t off, void *buf, size_t len)
{
	if (off > r->size || len > r->size - off)
		return -ELF_SYMS_E_BOUNDS;
	return r->read(r->ctx, off, buf, len) == (long)len ? 0 : -ELF_SYMS_E_READ;
}

static int section_at(const struct reader *r, uint64_t shoff, uint32_t i, struct section *s)
{
	uint8_t h[SHDR_SIZE];
	int rc = read_at(r, shoff + (uint64_t)i * SHDR_SIZE, h, sizeof h);
	if (rc)
		return rc;
	s->type = (uint32_t)be32_load(h + 4);
	s->addr = be64_load(h + 16);
	s->offset = be64_load(h + 24);
	s->size = be64_load(h + 32);
	s->link = (uint32_t)be32_load(h + 40);
	s->entsize = be64_load(h + 56);
	if (s->type == SHT_NOBITS)
		s->size = 0;   /* .bss: occupies no bytes of the file */
	if (s->offset > r->size || s->size > r->size - s->offset)
		return -ELF_SYMS_E_BOUNDS;
	return 0;
}

struct sym {
	uint64_t addr;
	uint32_t size;
	uint32_t name;     /* offset in the output strings */
};

/* Insertion into a sorted array (programs have at most a few thousand symbols). */
static void insert(struct sym *syms, uint32_t *n, struct sym s)
{
	uint32_t i = *n;
	while (i > 0 && syms[i - 1].addr > s.addr) {
		syms[i] = syms[i - 1];
		i--;
	}
	if (i > 0 && syms[i - 1].addr == s.addr) {   /* one name per address */
		memmove(&syms[i], &syms[i + 1], (*n - i) * sizeof *syms);
		return;
	}
	syms[i] = s;
	(*n)++;
}

/* Reads the ELF header and checks that the file is a big-endian ELF64 one. */
static int read_header(const struct reader *r, uint8_t eh[64])
{
	int rc = read_at(r, 0, eh, 64);
	if (rc)
		return rc == -ELF_SYMS_E_BOUNDS ? -ELF_SYMS_E_FORMAT : rc;
	if (memcmp(eh, "\177ELF", 4) != 0 || eh[4] != 2 || eh[5] != 2)
		return -ELF_SYMS_E_FORMAT;
	return 0;
}

/* The section header table from the ELF header: where it is, how many entries, which one
 * names the sections. Checked: an ELF64 big-endian file with 1 to 4096 entries of our size. */
struct section_table {
	uint64_t shoff;
	uint32_t shnum, shstrndx;
};

static int read_section_table(const struct reader *r, struct section_table *st)
{
	uint8_t eh[64];
	int rc = read_header(r, eh);
	if (rc)
		return rc;
	st->shoff = be64_load(eh + 40);
	st->shnum = (uint32_t)be16_load(eh + 60);
	st->shstrndx = (uint32_t)be16_load(eh + 62);
	if ((uint32_t)be16_load(eh + 58) != SHDR_SIZE || st->shnum == 0 || st->shnum > 4096)
		return -ELF_SYMS_E_FORMAT;
	return 0;
}

/* The sections a symbol table is read from: the table, its strings, and .opd (whose function
 * descriptors ELFv1 function symbols point at), if the program has one. */
struct symtab_sections {
	struct section symtab, strtab, opd;
	bool have_opd;
};

static int find_symtab(const struct reader *r, struct symtab_sections *t)
{
	struct section_table st;
	int rc = read_section_table(r, &st);
	if (rc)
		return rc;
	uint64_t shoff = st.shoff;
	uint32_t shnum = st.shnum, shstrndx = st.shstrndx;

	*t = (struct symtab_sections){ .have_opd = false };
	struct section shstr;
	bool have_shstr = shstrndx < shnum && section_at(r, shoff, shstrndx, &shstr) == 0;
	for (uint32_t i = 0; i < shnum; i++) {
		struct section s;
		if ((rc = section_at(r, shoff, i, &s)))
			return rc;
		if (s.type == SHT_SYMTAB)
			t->symtab = s;
		uint8_t h[4], nm[5];
		if (have_shstr && read_at(r, shoff + (uint64_t)i * SHDR_SIZE, h, 4) == 0 &&
		    be32_load(h) < shstr.size && read_at(r, shstr.offset + be32_load(h), nm, 5) == 0 &&
		    memcmp(nm, ".opd", 5) == 0) {
			t->opd = s;
			t->have_opd = true;
		}
	}
	if (t->symtab.type != SHT_SYMTAB || t->symtab.entsize != SYM_SIZE)
		return -ELF_SYMS_E_NO_SYMTAB;
	if (t->symtab.link >= shnum || (rc = section_at(r, shoff, t->symtab.link, &t->strtab)))
		return rc ? rc : -ELF_SYMS_E_BOUNDS;
	return 0;
}

/* Writes the header and the entries of the n sorted symbols before the strings, which are
 * at `strings` now (after room for every symbol's entry): they move up to their final place,
 * right after the last entry. Returns the table's size. */
static long write_table(uint8_t *o, const struct sym *syms, uint32_t n, const uint8_t *strings,
			size_t strings_len)
{
	size_t final_entries = KSYMS_HEADER_SIZE + (size_t)n * KSYMS_ENTRY_SIZE;
	memmove(o + final_entries, strings, strings_len);
	for (uint32_t i = 0; i < n; i++) {
		uint8_t *e = o + KSYMS_HEADER_SIZE + (size_t)i * KSYMS_ENTRY_SIZE;
		struct sym s = syms[i];
		be64_store(e, s.addr);
		be32_store(e + 8, s.name);
		be32_store(e + 12, s.size);
	}
	be32_store(o, KSYMS_MAGIC);
	be32_store(o + 4, n);
	be32_store(o + 8, (uint32_t)strings_len);
	be32_store(o + 12, 0);
	return (long)(final_entries + strings_len);
}

long elf_syms_build(elf_read_fn read, void *ctx, uint64_t file_size, void *out, size_t cap)
{
	struct reader r = { read, ctx, file_size };
	struct symtab_sections t;
	int rc = find_symtab(&r, &t);
	if (rc)
		return rc;

	/* Output layout: header, entries, strings. The entries are collected at the end of the
	 * buffer first, the strings after the (final) entry area. */
	uint64_t nsyms = t.symtab.size / SYM_SIZE;
	uint32_t max = nsyms < ELF_SYMS_MAX ? (uint32_t)nsyms : ELF_SYMS_MAX;
	size_t entries_end = KSYMS_HEADER_SIZE + (size_t)max * KSYMS_ENTRY_SIZE;
	size_t sym_bytes = (size_t)max * sizeof(struct sym);
	if (cap < entries_end + sym_bytes + 8)
		return -ELF_SYMS_E_NOSPACE;
	uint8_t *o = out;
	struct sym *syms = (struct sym *)(void *)(o + ((cap - sym_bytes) & ~(size_t)7));
	size_t strings_cap = (size_t)((uint8_t *)syms - o) - entries_end;
	uint8_t *strings = o + entries_end;
	size_t strings_len = 0;
	uint32_t n = 0;

	for (uint64_t i = 1; i < nsyms && n < max; i++) {
		uint8_t e[SYM_SIZE];
		if ((rc = read_at(&r, t.symtab.offset + i * SYM_SIZE, e, sizeof e)))
			return rc;
		uint32_t name = (uint32_t)be32_load(e);
		unsigned type = e[4] & 0xf;
		uint16_t shndx = (uint16_t)be16_load(e + 6);
		uint64_t value = be64_load(e + 8), size = be64_load(e + 16);
		if ((type != STT_FUNC && type != STT_OBJECT) || shndx == 0 || name == 0 ||
		    name >= t.strtab.size)
			continue;
		if (type == STT_FUNC && t.have_opd && value >= t.opd.addr &&
		    value + 8 <= t.opd.addr + t.opd.size) {
			uint8_t d[8];   /* an ELFv1 descriptor: its first doubleword is the entry */
			if ((rc = read_at(&r, t.opd.offset + (value - t.opd.addr), d, 8)))
				return rc;
			value = be64_load(d);
			size = 0;
		}
		char nm[NAME_MAX_LEN];
		size_t want = t.strtab.size - name < sizeof nm ? t.strtab.size - name : sizeof nm;
		long got = r.read(r.ctx, t.strtab.offset + name, nm, want);
		if (got <= 0)
			return -ELF_SYMS_E_READ;
		size_t len = strnlen(nm, (size_t)got);
		if (len == (size_t)got)
			continue;   /* unterminated or too long: skip it */
		if (strings_len + len + 1 > strings_cap)
			return -ELF_SYMS_E_NOSPACE;
		memcpy(strings + strings_len, nm, len + 1);
		insert(syms, &n, (struct sym){ value, size > UINT32_MAX ? 0 : (uint32_t)size,
					       (uint32_t)strings_len });
		strings_len += len + 1;
	}
	return write_table(o, syms, n, strings, strings_len);
}

/* Finds the sections named in `names` (up to 4) by their header names. */
static int find_sections(const struct reader *r, const char *const *names, int n,
	struct section *out, bool *found)
{
	struct section_table st;
	int rc = read_section_table(r, &st);
	if (rc)
		return rc;
	uint64_t shoff = st.shoff;
	uint32_t shnum = st.shnum, shstrndx = st.shstrndx;
	if (shstrndx >= shnum)
		return -ELF_SYMS_E_FORMAT;
	struct section shstr;
	if ((rc = section_at(r, shoff, shstrndx, &shstr)))
		return rc;
	for (int k = 0; k < n; k++)
		found[k] = false;
	for (uint32_t i = 0; i < shnum; i++) {
		uint8_t h[4];
		char nm[16];
		if ((rc = read_at(r, shoff + (uint64_t)i * SHDR_SIZE, h, 4)))
			return rc;
		uint64_t at = be32_load(h);
		if (at >= shstr.size)
			continue;
		size_t want = shstr.size - at < sizeof nm ? (size_t)(shstr.size - at) : sizeof nm;
		if ((rc = read_at(r, shstr.offset + at, nm, want)))
			return rc;
		for (int k = 0; k < n; k++) {
			size_t len = strlen(names[k]);
			if (len < want && memcmp(nm, names[k], len + 1) == 0) {
				if ((rc = section_at(r, shoff, i, &out[k])))
					return rc;
				found[k] = true;
			}
		}
	}
	return 0;
}

long elf_co_methods(elf_read_fn read, void *ctx, uint64_t file_size, uint64_t *out, size_t max)
{
	struct reader r = { read, ctx, file_size };
	static const char *const names[] = { ".co_methods", ".opd" };
	struct section s[2];
	bool found[2];
	int rc = find_sections(&r, names, 2, s, found);
	if (rc)
		return rc;
	if (!found[0])
		return 0;
	size_t n = 0;
	for (uint64_t off = 0; off + 8 <= s[0].size && n < max; off += 8) {
		uint8_t d[8];
		if ((rc = read_at(&r, s[0].offset + off, d, 8)))
			return rc;
		uint64_t addr = be64_load(d);
		if (found[1] && addr >= s[1].addr && addr + 8 <= s[1].addr + s[1].size) {
			if ((rc = read_at(&r, s[1].offset + (addr - s[1].addr), d, 8)))
				return rc;
			addr = be64_load(d);
		}
		out[n++] = addr;
	}
	return (long)n;
}

long elf_exec_segment(elf_read_fn read, void *ctx, uint64_t file_size, uint64_t *vaddr,
	uint64_t *offset, uint64_t *filesz)
{
	struct reader r = { read, ctx, file_size };
	uint8_t eh[64], ph[56];
	int rc = read_header(&r, eh);
	if (rc)
		return rc;
	if (be16_load(eh + 54) != 56)
		return -ELF_SYMS_E_FORMAT;
	uint64_t phoff = be64_load(eh + 32);
	for (uint32_t i = 0; i < be16_load(eh + 56); i++) {
		if ((rc = read_at(&r, phoff + (uint64_t)i * 56, ph, sizeof ph)))
			return rc;
		if (be32_load(ph) != 1 || !(be32_load(ph + 4) & 1))   /* PT_LOAD, PF_X */
			continue;
		*vaddr = be64_load(ph + 16);
		*offset = be64_load(ph + 8);
		*filesz = be64_load(ph + 32);
		if (*offset > file_size || *filesz > file_size - *offset)
			return -ELF_SYMS_E_BOUNDS;
		return 0;
	}
	return -ELF_SYMS_E_FORMAT;
}

const char *elf_syms_strerror(long err)
{
	switch (err < 0 ? -err : err) {
	case ELF_SYMS_E_READ: return "cannot read the program file";
	case ELF_SYMS_E_FORMAT: return "not a big-endian ELF64 program";
	case ELF_SYMS_E_NO_SYMTAB: return "the program has no symbol table";
	case ELF_SYMS_E_BOUNDS: return "the program's headers point outside the file";
	case ELF_SYMS_E_NOSPACE: return "the symbol table is too large";
	default: return "unknown error";
	}
}

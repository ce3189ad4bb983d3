/* The kernel's symbol table, linked into the image by the build (tools/mksyms makes it).
 *
 * Layout, all big-endian: a header {u32 magic 'KSYM', u32 count, u32 strings_size,
 * u32 reserved 0}; count entries {u64 addr, u32 name_offset, u32 size} in strictly ascending
 * addr order; then strings_size bytes of NUL-terminated names. An entry covers
 * [addr, addr + size); size 0 means "up to the next symbol", and for the last symbol
 * KSYMS_LAST_SPAN bytes. */
#ifndef KOV_KSYMS_H
#define KOV_KSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KSYMS_MAGIC 0x4B53594Du
#define KSYMS_HEADER_SIZE 16
#define KSYMS_ENTRY_SIZE 16
#define KSYMS_LAST_SPAN 0x10000u

/* Checks the header, that the table fits in max_size, the order of the entries and that
 * every name lies NUL-terminated inside the strings. The other calls trust a table that
 * passed this check. */
bool ksyms_valid(const void *table, size_t max_size);

/* The name of the symbol covering addr, its start in *sym_addr (if not NULL); NULL if no
 * symbol covers addr. */
const char *ksyms_lookup(const void *table, uint64_t addr, uint64_t *sym_addr);

/* The extent [*start, *end) of the symbol covering addr (a size-0 symbol ends at the next
 * one); false if no symbol covers addr. */
bool ksyms_extent(const void *table, uint64_t addr, uint64_t *start, uint64_t *end);

/* Symbols in the table, and the extent of the i-th (as ksyms_extent gives it). */
uint32_t ksyms_count(const void *table);
bool ksyms_at(const void *table, uint32_t i, uint64_t *start, uint64_t *end);

/* Writes "name+0x1c", "name" at offset 0, or "?"; snprintf return semantics. */
int ksyms_format(const void *table, uint64_t addr, char *buf, size_t n);

/* The address of the symbol named exactly `name`; 0 if there is none. */
uint64_t ksyms_addr(const void *table, const char *name);

#endif

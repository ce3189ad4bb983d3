/* The kernel's own symbol table, embedded in the image at build time (tools/mksyms). */
#ifndef KOV_SYMBOLS_H
#define KOV_SYMBOLS_H

#include <stdint.h>
#include <stddef.h>

/* Writes "name+0xoff" for a kernel address into buf ("?" if unknown); returns buf. */
const char *symbolize(uint64_t addr, char *buf, size_t n);

/* Number of symbols in the embedded table (0 if the table is missing or corrupt). */
unsigned int symbol_count(void);
/* The table itself (common/syms/ksyms.h layout) and its size without padding; 0 if missing. */
const void *symbol_table(size_t *size);

#endif

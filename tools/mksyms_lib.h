/* Turns the output of `nm -n --synthetic` for the linked kernel into the symbol table that
 * common/syms/ksyms.h reads. Separate from the mksyms program so the unit tests can call it.
 *
 * Kept: text symbols (types T t W w) and data symbols (D d B b R r G g S s V v). With ELFv1
 * a function has a code entry ".name" and a descriptor "name" in .opd: the descriptor is
 * dropped and the entry kept as "name". Dropped too: names starting with "$" or ".L" and
 * every other type (A a U N ...). Where several symbols share an address, the first global
 * one wins, else the first one. Each size is the distance to the next symbol; 0 for the last
 * (or a distance beyond 32 bits). */
#ifndef KOV_MKSYMS_LIB_H
#define KOV_MKSYMS_LIB_H

#include <stddef.h>

/* Parses len bytes of nm output. On success returns 0 and a malloc'd table in *table (the
 * caller frees it) with its size in *size. On malformed input returns -1 and writes a
 * message that names the line into err (err_size bytes). */
int mksyms_build(const char *text, size_t len, unsigned char **table, size_t *size,
                 char *err, size_t err_size);

#endif

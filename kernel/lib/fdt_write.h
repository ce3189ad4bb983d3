/* Builds a flattened device tree (version 17) in one caller-supplied buffer.
 *
 * Nodes and properties are added in document order: begin a node, add its properties, then
 * its children, then end it; exactly one root node (named ""). The structure block grows up
 * from the start of the buffer while property names collect at its end, deduplicated;
 * fdt_writer_finish moves them into place. Running out of room, or a call out of order, makes
 * the writer fail for good: later calls do nothing and finish returns 0. Nothing is written
 * past cap. */
#ifndef KOV_FDT_WRITE_H
#define KOV_FDT_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct fdt_writer {
	uint8_t *buf;
	uint32_t cap;       /* usable size of buf */
	uint32_t pos;       /* end of the structure block so far */
	uint32_t strings;   /* start of the names, which fill [strings, cap) downwards */
	int depth;          /* nodes begun and not yet ended */
	int roots;          /* nodes begun at depth 0 */
	uint32_t last;      /* the last token written */
	bool failed;
};

void fdt_writer_init(struct fdt_writer *w, void *buf, size_t cap);
void fdt_begin_node(struct fdt_writer *w, const char *name);
void fdt_add_prop(struct fdt_writer *w, const char *name, const void *data, uint32_t len);
void fdt_add_prop_u32(struct fdt_writer *w, const char *name, uint32_t value);
void fdt_end_node(struct fdt_writer *w);

/* Completes the blob at the start of the buffer (empty memory reservation map,
 * boot_cpuid_phys 0) and returns its total size, or 0 if the writer failed or nodes are
 * still open. Call it once. */
uint32_t fdt_writer_finish(struct fdt_writer *w);

#endif

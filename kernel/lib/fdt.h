/* Reader for flattened device trees (DTB, version 16 and 17).
 *
 * Everything is read byte-wise and bounds-checked against the header that fdt_open accepted,
 * so a corrupt blob yields errors or NULL, never a read outside it. Nodes and properties are
 * named by their offset into the structure block; a negative value is an FDT_ERR_* code.
 * Returned names and values point into the blob. */
#ifndef KOV_FDT_H
#define KOV_FDT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FDT_MAGIC 0xd00dfeedu

#define FDT_ERR_NOTFOUND     (-1)  /* no such node or property */
#define FDT_ERR_TRUNCATED    (-2)  /* the blob is shorter than its header says */
#define FDT_ERR_BADMAGIC     (-3)
#define FDT_ERR_BADVERSION   (-4)  /* older than 16, or needs a reader newer than 17 */
#define FDT_ERR_BADLAYOUT    (-5)  /* a block lies outside the blob or is misaligned */
#define FDT_ERR_BADSTRUCTURE (-6)  /* a bad token, or a name or value running off its block */
#define FDT_ERR_BADOFFSET    (-7)  /* the offset given is not a node (or property) token */
#define FDT_ERR_BADPATH      (-8)  /* a path not starting with '/' */

struct fdt {
	const uint8_t *blob;
	uint32_t size, off_struct, off_strings, size_struct, size_strings;
};

/* Validates the header of the blob at `blob`, of which at most max_size bytes may be read.
 * Returns 0 or a negative FDT_ERR_*. */
int fdt_open(struct fdt *f, const void *blob, size_t max_size);
const char *fdt_strerror(int err);

/* The totalsize header field; blob must have at least 8 readable bytes. */
uint32_t fdt_blob_size(const void *blob);

/* Tree walking; each returns a node offset or a negative FDT_ERR_* (NOTFOUND at the end). */
int fdt_root(const struct fdt *f);
int fdt_first_child(const struct fdt *f, int node);
int fdt_next_sibling(const struct fdt *f, int node);

/* The full name, unit address included ("" for the root), or NULL. */
const char *fdt_node_name(const struct fdt *f, int node);

/* Finds a node by absolute path ("/", "/cpus", "/vdevice/vty@71000000"). A component
 * without '@' also matches a name with a unit address: "memory" finds "memory@0". */
int fdt_path(const struct fdt *f, const char *path);

/* Depth-first (document order) search for the next node after `start` (-1: from the root,
 * which is included) whose "device_type" is the string device_type. */
int fdt_find_by_type(const struct fdt *f, int start, const char *device_type);

/* A property's value and its length in *len (len may be NULL); NULL if absent, with *len
 * set to the negative error. */
const void *fdt_prop(const struct fdt *f, int node, const char *name, int *len);

/* A 4-byte property. */
bool fdt_prop_u32(const struct fdt *f, int node, const char *name, uint32_t *out);
/* A 4-byte (zero-extended) or 8-byte property. */
bool fdt_prop_u64(const struct fdt *f, int node, const char *name, uint64_t *out);
/* The property's (first) string; NULL unless a NUL lies within the property. */
const char *fdt_prop_str(const struct fdt *f, int node, const char *name);

/* Reads the big-endian value of ncells (1 or 2; otherwise 0 is returned) 32-bit cells that
 * start at cell `index` of a property value. The caller checks the property's length. */
uint64_t fdt_cells(const void *prop, int index, int ncells);

/* The node containing `node`; FDT_ERR_NOTFOUND for the root (a walk from the root). */
int fdt_parent(const struct fdt *f, int node);

/* The node whose "phandle" (or "linux,phandle", or Open Firmware's "ibm,phandle") is ph. */
int fdt_node_by_phandle(const struct fdt *f, uint32_t ph);

/* Property iteration: offsets of a node's properties in order, negative at the end. */
int fdt_first_prop(const struct fdt *f, int node);
int fdt_next_prop(const struct fdt *f, int prop);
/* The value, name (if name is not NULL) and length (if len is not NULL) of the property at
 * offset prop; NULL on a bad offset or a corrupt property. */
const void *fdt_prop_at(const struct fdt *f, int prop, const char **name, int *len);

#endif

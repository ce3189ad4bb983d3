/* libFuzzer target: the flattened device-tree reader (kernel/lib/fdt.c) that the kernel runs
 * on the tree the firmware or QEMU hands it. A blob that opens is walked completely (every
 * node, its name, parent, properties and the typed getters the platform code uses) and looked
 * up by the paths and types the kernel asks for; nothing may be read outside the blob. */
#include <stdlib.h>
#include <string.h>
#include "kernel/lib/fdt.h"

static const char *const paths[] = { "/", "/chosen", "/cpus", "/memory", "/rtas", "/vdevice/vty",
				     "/cpus/PowerPC,970@0", "//", "/a/b/c/d/e/f", "" };
static const char *const props[] = { "compatible", "reg", "#address-cells", "#size-cells",
				     "device_type", "bootargs", "model", "interrupts", "phandle" };

static void visit(const struct fdt *f, int node, int depth)
{
	if (depth > 64)
		return;   /* the reader bounds a walk by the blob; this only bounds the recursion */
	const char *name = fdt_node_name(f, node);
	if (name && strlen(name) > f->size)
		abort();
	fdt_parent(f, node);
	for (int p = fdt_first_prop(f, node); p >= 0; p = fdt_next_prop(f, p)) {
		const char *pname;
		int len;
		const void *v = fdt_prop_at(f, p, &pname, &len);
		if (v && (len < 0 || (const uint8_t *)v + len > f->blob + f->size))
			abort();
		if (v && len >= 8)
			fdt_cells(v, 0, 2);
	}
	for (size_t k = 0; k < sizeof props / sizeof props[0]; k++) {
		uint32_t u32;
		uint64_t u64;
		fdt_prop_u32(f, node, props[k], &u32);
		fdt_prop_u64(f, node, props[k], &u64);
		fdt_prop_str(f, node, props[k]);
	}
	for (int c = fdt_first_child(f, node); c >= 0; c = fdt_next_sibling(f, c))
		visit(f, c, depth + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* The kernel hands the reader an aligned blob; the copy also puts the end of the input
	 * where the address sanitizer sees any read past it. */
	uint8_t *blob = malloc(size ? size : 1);
	memcpy(blob, data, size);
	struct fdt f;
	if (fdt_open(&f, blob, size) == 0) {
		int root = fdt_root(&f);
		if (root >= 0)
			visit(&f, root, 0);
		for (size_t k = 0; k < sizeof paths / sizeof paths[0]; k++)
			fdt_path(&f, paths[k]);
		for (int n = fdt_find_by_type(&f, -1, "cpu"); n >= 0; n = fdt_find_by_type(&f, n, "cpu"))
			;
		fdt_find_by_type(&f, -1, "memory");
		fdt_node_by_phandle(&f, 1);
	}
	free(blob);
	return 0;
}

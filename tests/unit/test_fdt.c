/* fdt (reader) and fdt_write (builder): trees built with the writer and read back, the
 * writer's limits, corrupt blobs of every kind (each call must fail cleanly; run this under
 * valgrind or -fsanitize=address to see that nothing reads outside the blob), and, when
 * KOV_QEMU_DTB names a file, the device tree QEMU gives a 4-CPU pseries machine. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "common/lib/bytes.h"
#include "kernel/lib/fdt.h"
#include "kernel/lib/fdt_write.h"

static const char compatible[] = "kov,test\0kov,generic";   /* two strings, 21 bytes */

/* / { #address-cells=<2> #size-cells=<1> model compatible device_type="chrp"
 *   cpus { #address-cells=<1> #size-cells=<0>
 *     cpu@0 { device_type="cpu" reg=<0> timebase-frequency=<512000000> }
 *     cpu@1 { device_type="cpu" reg=<1> timebase-frequency=/bits/ 64 <0x100000000> } }
 *   memory@0 { device_type="memory" reg=<0 0 0x20000000> }
 *   memory@40000000 { device_type="memory" reg=<0 0x40000000 0x1000> }
 *   chosen { bootargs="console=hvc0" empty odd=[01 02 03] unterminated="abc" (no NUL) }
 *   vdevice { vty@71000000 { reg=<0x71000000> } vty-extra { } }
 *   mem { } } */
static void write_sample(struct fdt_writer *w)
{
	uint8_t cells[12];
	fdt_begin_node(w, "");
	fdt_add_prop_u32(w, "#address-cells", 2);
	fdt_add_prop_u32(w, "#size-cells", 1);
	fdt_add_prop(w, "model", "KOV test board", 15);
	fdt_add_prop(w, "compatible", compatible, sizeof compatible);
	fdt_add_prop(w, "device_type", "chrp", 5);
	fdt_begin_node(w, "cpus");
	fdt_add_prop_u32(w, "#address-cells", 1);
	fdt_add_prop_u32(w, "#size-cells", 0);
	for (uint32_t i = 0; i < 2; i++) {
		fdt_begin_node(w, i == 0 ? "cpu@0" : "cpu@1");
		fdt_add_prop(w, "device_type", "cpu", 4);
		fdt_add_prop_u32(w, "reg", i);
		if (i == 0) {
			fdt_add_prop_u32(w, "timebase-frequency", 512000000);
		} else {
			be64_store(cells, 0x100000000ull);
			fdt_add_prop(w, "timebase-frequency", cells, 8);
		}
		fdt_end_node(w);
	}
	fdt_end_node(w);
	fdt_begin_node(w, "memory@0");
	fdt_add_prop(w, "device_type", "memory", 7);
	be32_store(cells, 0), be32_store(cells + 4, 0), be32_store(cells + 8, 0x20000000);
	fdt_add_prop(w, "reg", cells, 12);
	fdt_end_node(w);
	fdt_begin_node(w, "memory@40000000");
	fdt_add_prop(w, "device_type", "memory", 7);
	be32_store(cells, 0), be32_store(cells + 4, 0x40000000), be32_store(cells + 8, 0x1000);
	fdt_add_prop(w, "reg", cells, 12);
	fdt_end_node(w);
	fdt_begin_node(w, "chosen");
	fdt_add_prop(w, "bootargs", "console=hvc0", 13);
	fdt_add_prop(w, "empty", NULL, 0);
	fdt_add_prop(w, "odd", "\1\2\3", 3);
	fdt_add_prop(w, "unterminated", "abc", 3);
	fdt_end_node(w);
	fdt_begin_node(w, "vdevice");
	fdt_begin_node(w, "vty@71000000");
	fdt_add_prop_u32(w, "reg", 0x71000000);
	fdt_end_node(w);
	fdt_begin_node(w, "vty-extra");
	fdt_end_node(w);
	fdt_end_node(w);
	fdt_begin_node(w, "mem");
	fdt_end_node(w);
	fdt_end_node(w);
}

/* The distinct property names of the sample, each with its NUL. */
static const size_t sample_strings_size =
	sizeof "#address-cells" + sizeof "#size-cells" + sizeof "model" + sizeof "compatible" +
	sizeof "device_type" + sizeof "reg" + sizeof "timebase-frequency" + sizeof "bootargs" +
	sizeof "empty" + sizeof "odd" + sizeof "unterminated";

static uint8_t sample[4096];
static uint32_t sample_size;
static struct fdt sample_fdt;

static int setup_sample(void **state)
{
	(void)state;
	struct fdt_writer w;
	fdt_writer_init(&w, sample, sizeof sample);
	write_sample(&w);
	sample_size = fdt_writer_finish(&w);
	if (sample_size == 0 || fdt_open(&sample_fdt, sample, sample_size) != 0)
		return -1;
	return 0;
}

static int node(const char *path)
{
	return fdt_path(&sample_fdt, path);
}

/* --- writer output ------------------------------------------------------------------------ */

static void writer_header(void **state)
{
	(void)state;
	const uint8_t *h = sample;
	assert_int_equal(be32_load(h), FDT_MAGIC);
	assert_int_equal(be32_load(h + 4), sample_size);
	assert_int_equal(fdt_blob_size(sample), sample_size);
	assert_int_equal(be32_load(h + 20), 17);   /* version */
	assert_int_equal(be32_load(h + 24), 16);   /* last compatible version */
	assert_int_equal(be32_load(h + 28), 0);    /* boot_cpuid_phys */
	uint32_t rsv = be32_load(h + 16);
	assert_int_equal(rsv % 8, 0);
	for (int i = 0; i < 16; i++)               /* just the terminating entry */
		assert_int_equal(h[rsv + i], 0);
	uint32_t off_struct = be32_load(h + 8), off_strings = be32_load(h + 12);
	uint32_t size_strings = be32_load(h + 32), size_struct = be32_load(h + 36);
	assert_int_equal(off_struct % 4, 0);
	assert_true(off_struct >= rsv + 16);
	assert_int_equal(off_strings, off_struct + size_struct);
	assert_int_equal(off_strings + size_strings, sample_size);
	assert_int_equal(be32_load(h + off_struct + size_struct - 4), 9);   /* FDT_END */
	assert_int_equal(sample_fdt.size, sample_size);
	assert_int_equal(sample_fdt.off_struct, off_struct);
	assert_int_equal(sample_fdt.size_strings, size_strings);
}

static void writer_dedups_names(void **state)
{
	(void)state;
	assert_int_equal(sample_fdt.size_strings, sample_strings_size);
	/* Every name occurs once in the strings block. */
	const char *s = (const char *)sample + sample_fdt.off_strings;
	const char *end = s + sample_fdt.size_strings;
	int names = 0;
	for (const char *p = s; p < end; p += strlen(p) + 1, names++)
		for (const char *q = p + strlen(p) + 1; q < end; q += strlen(q) + 1)
			assert_string_not_equal(p, q);
	assert_int_equal(names, 11);
}

/* Every capacity short of the full size fails without touching a byte past cap; the exact
 * size succeeds and gives the same blob as a roomy buffer. */
static void writer_overflow_is_sticky_and_bounded(void **state)
{
	(void)state;
	size_t guard = 64;
	uint8_t *buf = malloc(sample_size + guard);
	assert_non_null(buf);
	for (size_t cap = 0; cap <= sample_size; cap++) {
		memset(buf, 0xa5, sample_size + guard);
		struct fdt_writer w;
		fdt_writer_init(&w, buf, cap);
		write_sample(&w);
		uint32_t got = fdt_writer_finish(&w);
		for (size_t i = cap; i < sample_size + guard; i++)
			if (buf[i] != 0xa5)
				fail_msg("cap %zu: byte %zu written", cap, i);
		if (cap < sample_size) {
			if (got != 0)
				fail_msg("cap %zu: finish returned %u", cap, got);
		} else {
			assert_int_equal(got, sample_size);
			assert_memory_equal(buf, sample, sample_size);
		}
	}
	free(buf);
	/* No buffer at all. */
	struct fdt_writer w;
	fdt_writer_init(&w, NULL, 0);
	write_sample(&w);
	assert_int_equal(fdt_writer_finish(&w), 0);
}

static uint32_t finish_after(void (*build)(struct fdt_writer *))
{
	static uint8_t buf[1024];
	struct fdt_writer w;
	fdt_writer_init(&w, buf, sizeof buf);
	build(&w);
	return fdt_writer_finish(&w);
}

static void nothing(struct fdt_writer *w) { (void)w; }
static void open_node(struct fdt_writer *w) { fdt_begin_node(w, ""); }
static void extra_end(struct fdt_writer *w)
{
	fdt_begin_node(w, "");
	fdt_end_node(w);
	fdt_end_node(w);
}
static void two_roots(struct fdt_writer *w)
{
	fdt_begin_node(w, "");
	fdt_end_node(w);
	fdt_begin_node(w, "");
	fdt_end_node(w);
}
static void prop_outside(struct fdt_writer *w)
{
	fdt_add_prop_u32(w, "x", 1);
	fdt_begin_node(w, "");
	fdt_end_node(w);
}
static void prop_after_child(struct fdt_writer *w)
{
	fdt_begin_node(w, "");
	fdt_begin_node(w, "child");
	fdt_end_node(w);
	fdt_add_prop_u32(w, "x", 1);
	fdt_end_node(w);
}
static void null_data(struct fdt_writer *w)
{
	fdt_begin_node(w, "");
	fdt_add_prop(w, "x", NULL, 4);
	fdt_end_node(w);
}
static void minimal(struct fdt_writer *w)
{
	fdt_begin_node(w, NULL);   /* NULL is the empty name */
	fdt_end_node(w);
}

static void writer_rejects_misuse(void **state)
{
	(void)state;
	assert_int_equal(finish_after(nothing), 0);
	assert_int_equal(finish_after(open_node), 0);
	assert_int_equal(finish_after(extra_end), 0);
	assert_int_equal(finish_after(two_roots), 0);
	assert_int_equal(finish_after(prop_outside), 0);
	assert_int_equal(finish_after(prop_after_child), 0);
	assert_int_equal(finish_after(null_data), 0);
	/* header 40 + reservation map 16 + BEGIN_NODE "" 8 + END_NODE 4 + END 4, no strings */
	assert_int_equal(finish_after(minimal), 72);

	/* finish is final. */
	uint8_t buf[256];
	struct fdt_writer w;
	fdt_writer_init(&w, buf, sizeof buf);
	minimal(&w);
	assert_int_equal(fdt_writer_finish(&w), 72);
	assert_int_equal(fdt_writer_finish(&w), 0);
}

/* --- reading ------------------------------------------------------------------------------ */

static void walk_children(void **state)
{
	(void)state;
	const struct fdt *f = &sample_fdt;
	int root = fdt_root(f);
	assert_true(root >= 0);
	assert_string_equal(fdt_node_name(f, root), "");
	static const char *const names[] = { "cpus", "memory@0", "memory@40000000", "chosen",
	                                     "vdevice", "mem" };
	int n = 0;
	int c;
	for (c = fdt_first_child(f, root); c >= 0; c = fdt_next_sibling(f, c), n++) {
		assert_true(n < 6);
		assert_string_equal(fdt_node_name(f, c), names[n]);
	}
	assert_int_equal(n, 6);
	assert_int_equal(c, FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_next_sibling(f, root), FDT_ERR_NOTFOUND);
	int cpus = fdt_first_child(f, root);
	int cpu0 = fdt_first_child(f, cpus);
	assert_string_equal(fdt_node_name(f, cpu0), "cpu@0");
	assert_string_equal(fdt_node_name(f, fdt_next_sibling(f, cpu0)), "cpu@1");
	assert_int_equal(fdt_first_child(f, cpu0), FDT_ERR_NOTFOUND);   /* props, no children */
	assert_int_equal(fdt_first_child(f, node("/mem")), FDT_ERR_NOTFOUND);   /* nothing at all */
	/* Offsets that are not node tokens. */
	assert_int_equal(fdt_first_child(f, -1), FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_first_child(f, root + 2), FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_first_child(f, fdt_first_prop(f, root)), FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_next_sibling(f, (int)f->size_struct), FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_next_sibling(f, 0x7ffffffc), FDT_ERR_BADOFFSET);
	assert_null(fdt_node_name(f, (int)f->size_struct - 4));   /* the END token */
}

static void paths(void **state)
{
	(void)state;
	const struct fdt *f = &sample_fdt;
	int root = fdt_root(f);
	assert_int_equal(node("/"), root);
	assert_int_equal(node("//"), root);
	assert_string_equal(fdt_node_name(f, node("/cpus")), "cpus");
	assert_int_equal(node("/cpus/"), node("/cpus"));
	assert_int_equal(node("//cpus//cpu@1"), node("/cpus/cpu@1"));
	assert_string_equal(fdt_node_name(f, node("/cpus/cpu@1")), "cpu@1");
	/* Without a unit address, the first node of that name with any unit address. */
	assert_string_equal(fdt_node_name(f, node("/memory")), "memory@0");
	assert_string_equal(fdt_node_name(f, node("/memory@40000000")), "memory@40000000");
	assert_string_equal(fdt_node_name(f, node("/cpus/cpu")), "cpu@0");
	assert_string_equal(fdt_node_name(f, node("/vdevice/vty")), "vty@71000000");
	assert_string_equal(fdt_node_name(f, node("/vdevice/vty@71000000")), "vty@71000000");
	assert_string_equal(fdt_node_name(f, node("/mem")), "mem");   /* not memory@0 */
	assert_string_equal(fdt_node_name(f, node("/vdevice/vty-extra")), "vty-extra");
	assert_int_equal(node("/memo"), FDT_ERR_NOTFOUND);
	assert_int_equal(node("/memory@4"), FDT_ERR_NOTFOUND);   /* unit addresses match whole */
	assert_int_equal(node("/memory@"), FDT_ERR_NOTFOUND);
	assert_int_equal(node("/cpus/cpu@2"), FDT_ERR_NOTFOUND);
	assert_int_equal(node("/cpus/cpu@0/x"), FDT_ERR_NOTFOUND);
	assert_int_equal(node("/nothing/cpus"), FDT_ERR_NOTFOUND);
	assert_int_equal(node("/cpu@0"), FDT_ERR_NOTFOUND);       /* not searched in depth */
	assert_int_equal(node("cpus"), FDT_ERR_BADPATH);
	assert_int_equal(node(""), FDT_ERR_BADPATH);
	assert_int_equal(fdt_path(f, NULL), FDT_ERR_BADPATH);
}

static void property_values(void **state)
{
	(void)state;
	const struct fdt *f = &sample_fdt;
	int root = fdt_root(f), cpu0 = node("/cpus/cpu@0"), cpu1 = node("/cpus/cpu@1");
	int chosen = node("/chosen");
	uint32_t v32 = 0xdead;
	uint64_t v64 = 0xdead;
	int len = 0;

	assert_true(fdt_prop_u32(f, root, "#address-cells", &v32));
	assert_int_equal(v32, 2);
	assert_true(fdt_prop_u32(f, cpu1, "reg", &v32));
	assert_int_equal(v32, 1);
	assert_true(fdt_prop_u64(f, cpu0, "timebase-frequency", &v64));   /* 4 bytes */
	assert_int_equal(v64, 512000000);
	assert_true(fdt_prop_u64(f, cpu1, "timebase-frequency", &v64));   /* 8 bytes */
	assert_int_equal(v64, 0x100000000ull);
	v32 = 0xdead;
	assert_false(fdt_prop_u32(f, cpu1, "timebase-frequency", &v32));  /* 8 bytes */
	assert_int_equal(v32, 0xdead);
	assert_false(fdt_prop_u32(f, chosen, "odd", &v32));
	assert_false(fdt_prop_u64(f, chosen, "odd", &v64));
	assert_false(fdt_prop_u64(f, node("/memory@0"), "reg", &v64));     /* 12 bytes */
	assert_false(fdt_prop_u32(f, root, "missing", &v32));

	const char *p = fdt_prop(f, root, "compatible", &len);
	assert_non_null(p);
	assert_int_equal(len, 21);
	assert_memory_equal(p, compatible, 21);
	assert_string_equal(fdt_prop_str(f, root, "compatible"), "kov,test");   /* the first one */
	assert_string_equal(fdt_prop_str(f, root, "model"), "KOV test board");
	assert_string_equal(fdt_prop_str(f, chosen, "bootargs"), "console=hvc0");
	assert_null(fdt_prop_str(f, chosen, "unterminated"));
	assert_null(fdt_prop_str(f, chosen, "empty"));
	assert_null(fdt_prop_str(f, chosen, "missing"));

	p = fdt_prop(f, chosen, "empty", &len);
	assert_non_null(p);   /* present, even with no value */
	assert_int_equal(len, 0);
	assert_non_null(fdt_prop(f, chosen, "odd", NULL));
	len = 1;
	assert_null(fdt_prop(f, chosen, "missing", &len));
	assert_int_equal(len, FDT_ERR_NOTFOUND);
	assert_null(fdt_prop(f, node("/mem"), "reg", &len));   /* a node without properties */
	assert_int_equal(len, FDT_ERR_NOTFOUND);
	assert_null(fdt_prop(f, root + 1, "model", &len));
	assert_int_equal(len, FDT_ERR_BADOFFSET);
	/* Names match whole. */
	assert_null(fdt_prop(f, root, "#address", NULL));
	assert_null(fdt_prop(f, root, "#address-cellsx", NULL));
}

static void cells(void **state)
{
	(void)state;
	int len;
	const void *reg = fdt_prop(&sample_fdt, node("/memory@40000000"), "reg", &len);
	assert_non_null(reg);
	assert_int_equal(len, 12);
	assert_int_equal(fdt_cells(reg, 0, 2), 0x40000000);
	assert_int_equal(fdt_cells(reg, 2, 1), 0x1000);
	assert_int_equal(fdt_cells(reg, 1, 1), 0x40000000);
	static const uint8_t raw[] = { 0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0, 0, 0, 0, 1 };
	assert_int_equal(fdt_cells(raw, 0, 1), 0x12345678);
	assert_int_equal(fdt_cells(raw, 0, 2), 0x123456789abcdef0ull);
	assert_int_equal(fdt_cells(raw, 1, 2), 0x9abcdef000000001ull);
	assert_int_equal(fdt_cells(raw, 2, 1), 1);
	assert_int_equal(fdt_cells(raw, 0, 0), 0);
	assert_int_equal(fdt_cells(raw, 0, 3), 0);
	assert_int_equal(fdt_cells(raw, -1, 1), 0);
}

static void property_iteration(void **state)
{
	(void)state;
	const struct fdt *f = &sample_fdt;
	static const char *const names[] = { "#address-cells", "#size-cells", "model", "compatible",
	                                     "device_type" };
	static const int lens[] = { 4, 4, 15, 21, 5 };
	int n = 0, p;
	for (p = fdt_first_prop(f, fdt_root(f)); p >= 0; p = fdt_next_prop(f, p), n++) {
		assert_true(n < 5);
		const char *name = NULL;
		int len = -1;
		const void *data = fdt_prop_at(f, p, &name, &len);
		assert_non_null(data);
		assert_string_equal(name, names[n]);
		assert_int_equal(len, lens[n]);
		assert_ptr_equal(data, fdt_prop(f, fdt_root(f), names[n], NULL));
		assert_non_null(fdt_prop_at(f, p, NULL, NULL));
	}
	assert_int_equal(n, 5);
	assert_int_equal(p, FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_first_prop(f, node("/mem")), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_first_prop(f, node("/vdevice")), FDT_ERR_NOTFOUND);   /* only children */
	assert_int_equal(fdt_first_prop(f, 5), FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_next_prop(f, fdt_root(f)), FDT_ERR_BADOFFSET);   /* a node, not a prop */
	assert_int_equal(fdt_next_prop(f, -4), FDT_ERR_BADOFFSET);
	assert_null(fdt_prop_at(f, fdt_root(f), NULL, NULL));
	assert_null(fdt_prop_at(f, (int)f->size_struct, NULL, NULL));
}

static void find_by_type(void **state)
{
	(void)state;
	const struct fdt *f = &sample_fdt;
	int cpu = fdt_find_by_type(f, -1, "cpu");
	assert_int_equal(cpu, node("/cpus/cpu@0"));
	cpu = fdt_find_by_type(f, cpu, "cpu");
	assert_int_equal(cpu, node("/cpus/cpu@1"));
	assert_int_equal(fdt_find_by_type(f, cpu, "cpu"), FDT_ERR_NOTFOUND);

	int mem = fdt_find_by_type(f, -1, "memory");
	assert_int_equal(mem, node("/memory@0"));
	assert_int_equal(fdt_find_by_type(f, mem, "memory"), node("/memory@40000000"));
	/* The root itself is searched when starting from -1, and only then. */
	assert_int_equal(fdt_find_by_type(f, -1, "chrp"), fdt_root(f));
	assert_int_equal(fdt_find_by_type(f, fdt_root(f), "chrp"), FDT_ERR_NOTFOUND);
	/* From a node, its own descendants come next. */
	assert_int_equal(fdt_find_by_type(f, node("/cpus"), "cpu"), node("/cpus/cpu@0"));
	assert_int_equal(fdt_find_by_type(f, -1, "cp"), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_find_by_type(f, -1, "nothing"), FDT_ERR_NOTFOUND);
	assert_int_equal(fdt_find_by_type(f, 3, "cpu"), FDT_ERR_BADOFFSET);
	assert_int_equal(fdt_find_by_type(f, -2, "cpu"), FDT_ERR_BADOFFSET);
}

static void strerror_names_every_code(void **state)
{
	(void)state;
	const char *seen[9];
	for (int e = 0; e >= FDT_ERR_BADPATH; e--) {
		const char *s = fdt_strerror(e);
		assert_non_null(s);
		assert_string_not_equal(s, "unknown error");
		for (int i = 0; i < -e; i++)
			assert_string_not_equal(s, seen[i]);
		seen[-e] = s;
	}
	assert_string_equal(fdt_strerror(-100), "unknown error");
	assert_string_equal(fdt_strerror(1), "unknown error");
}

/* --- corrupt blobs ------------------------------------------------------------------------ */

/* A copy in a heap block of exactly `size` bytes, so that a sanitizer or valgrind catches
 * any read past it. */
static uint8_t *exact_copy(const void *src, size_t size)
{
	uint8_t *p = malloc(size ? size : 1);
	assert_non_null(p);
	memcpy(p, src, size);
	return p;
}

static uint8_t *patched(uint32_t at, uint32_t value)
{
	uint8_t *b = exact_copy(sample, sample_size);
	be32_store(b + at, value);
	return b;
}

static int open_patched(uint32_t at, uint32_t value)
{
	struct fdt f;
	uint8_t *b = patched(at, value);
	int err = fdt_open(&f, b, sample_size);
	free(b);
	return err;
}

static void open_rejects_bad_headers(void **state)
{
	(void)state;
	struct fdt f;
	uint32_t off_struct = sample_fdt.off_struct, off_strings = sample_fdt.off_strings;
	assert_int_equal(open_patched(0, 0xd00dfeee), FDT_ERR_BADMAGIC);
	assert_int_equal(open_patched(0, 0xedfe0dd0), FDT_ERR_BADMAGIC);   /* byte-swapped */
	assert_int_equal(open_patched(4, sample_size + 1), FDT_ERR_TRUNCATED);
	assert_int_equal(open_patched(4, 0xffffffff), FDT_ERR_TRUNCATED);
	assert_int_equal(open_patched(4, 35), FDT_ERR_TRUNCATED);
	assert_int_equal(open_patched(8, sample_size + 4), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(8, off_struct + 2), FDT_ERR_BADLAYOUT);   /* misaligned */
	assert_int_equal(open_patched(12, sample_size), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(12, 0xfffffff0), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(16, sample_size - 8), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(16, 44), FDT_ERR_BADLAYOUT);   /* misaligned */
	assert_int_equal(open_patched(20, 15), FDT_ERR_BADVERSION);
	assert_int_equal(open_patched(20, 1), FDT_ERR_BADVERSION);
	assert_int_equal(open_patched(24, 18), FDT_ERR_BADVERSION);
	assert_int_equal(open_patched(32, sample_size - off_strings + 1), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(32, 0xffffffff), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(36, sample_size - off_struct + 1), FDT_ERR_BADLAYOUT);
	assert_int_equal(open_patched(36, 0), FDT_ERR_BADSTRUCTURE);   /* no root token */
	assert_int_equal(open_patched(off_struct, 2), FDT_ERR_BADSTRUCTURE);   /* END_NODE first */
	assert_int_equal(open_patched(off_struct, 9), FDT_ERR_BADSTRUCTURE);   /* END first */
	assert_int_equal(open_patched(off_struct, 0x100), FDT_ERR_BADSTRUCTURE);
	/* Version 16 has no size_dt_struct; the structure block then ends where strings start. */
	assert_int_equal(open_patched(20, 16), 0);

	assert_int_equal(fdt_open(&f, NULL, 100), FDT_ERR_TRUNCATED);
	for (size_t max = 0; max < sample_size; max++) {
		uint8_t *b = exact_copy(sample, max);
		int err = fdt_open(&f, b, max);
		free(b);
		if (err != FDT_ERR_TRUNCATED)
			fail_msg("max_size %zu: %d", max, err);
		/* A failed open leaves a struct that every call rejects. */
		assert_int_equal(fdt_root(&f), FDT_ERR_BADSTRUCTURE);
		assert_null(fdt_prop(&f, 0, "x", NULL));
	}
}

static int find_prop(const uint8_t *blob, const char *node_path, const char *name)
{
	struct fdt f;
	assert_int_equal(fdt_open(&f, blob, sample_size), 0);
	for (int p = fdt_first_prop(&f, fdt_path(&f, node_path)); p >= 0; p = fdt_next_prop(&f, p)) {
		const char *n;
		fdt_prop_at(&f, p, &n, NULL);
		if (strcmp(n, name) == 0)
			return p;
	}
	fail_msg("no %s in %s", name, node_path);
	return -1;
}

static void corrupt_property_length(void **state)
{
	(void)state;
	int reg = find_prop(sample, "/memory@0", "reg");
	uint32_t len_at = sample_fdt.off_struct + (uint32_t)reg + 4;
	uint32_t lens[] = { sample_fdt.size_struct, 0xffffffff, 0x7ffffff0,
	                    sample_fdt.size_struct - (uint32_t)reg - 12 + 1 };
	for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
		uint8_t *b = patched(len_at, lens[i]);
		struct fdt f;
		assert_int_equal(fdt_open(&f, b, sample_size), 0);   /* the header is fine */
		int mem = fdt_path(&f, "/memory@0");
		assert_true(mem >= 0);
		int len = 0;
		assert_null(fdt_prop(&f, mem, "reg", &len));
		assert_int_equal(len, FDT_ERR_BADSTRUCTURE);
		assert_null(fdt_prop(&f, mem, "nothing", &len));
		assert_int_equal(len, FDT_ERR_BADSTRUCTURE);
		assert_null(fdt_prop_at(&f, reg, NULL, NULL));
		assert_int_equal(fdt_next_sibling(&f, mem), FDT_ERR_BADSTRUCTURE);
		assert_int_equal(fdt_path(&f, "/chosen"), FDT_ERR_BADSTRUCTURE);
		assert_int_equal(fdt_find_by_type(&f, -1, "nothing"), FDT_ERR_BADSTRUCTURE);
		/* What comes before the damage still reads. */
		assert_true(fdt_path(&f, "/cpus/cpu@1") >= 0);
		assert_string_equal(fdt_prop_str(&f, fdt_root(&f), "model"), "KOV test board");
		free(b);
	}
}

static void corrupt_names_and_tokens(void **state)
{
	(void)state;
	struct fdt f;
	/* A property name offset outside the strings block. */
	int model = find_prop(sample, "/", "model");
	uint8_t *b = patched(sample_fdt.off_struct + (uint32_t)model + 8, sample_fdt.size_strings);
	assert_int_equal(fdt_open(&f, b, sample_size), 0);
	assert_null(fdt_prop_at(&f, model, NULL, NULL));
	int len;
	assert_null(fdt_prop(&f, fdt_root(&f), "compatible", &len));
	assert_int_equal(len, FDT_ERR_BADSTRUCTURE);
	free(b);

	/* The strings block cut so that its last name has no NUL. */
	const char *strings = (const char *)sample + sample_fdt.off_strings, *last = strings;
	for (const char *s = strings; s < strings + sample_fdt.size_strings; s += strlen(s) + 1)
		last = s;
	assert_string_equal(last, "#address-cells");   /* on the root, the first name added */
	b = patched(32, sample_fdt.size_strings - 1);
	assert_int_equal(fdt_open(&f, b, sample_size), 0);
	int p = find_prop(sample, "/", last);
	assert_null(fdt_prop_at(&f, p, NULL, NULL));
	assert_null(fdt_prop(&f, fdt_root(&f), "model", &len));   /* it comes after the bad name */
	assert_int_equal(len, FDT_ERR_BADSTRUCTURE);
	assert_string_equal(fdt_prop_str(&f, fdt_path(&f, "/chosen"), "bootargs"), "console=hvc0");
	free(b);

	/* An unknown token in place of a node. */
	int chosen = fdt_path(&sample_fdt, "/chosen");
	b = patched(sample_fdt.off_struct + (uint32_t)chosen, 7);
	assert_int_equal(fdt_open(&f, b, sample_size), 0);
	assert_int_equal(fdt_path(&f, "/chosen"), FDT_ERR_BADSTRUCTURE);
	assert_int_equal(fdt_path(&f, "/memory@0"), fdt_path(&sample_fdt, "/memory@0"));
	assert_int_equal(fdt_find_by_type(&f, -1, "x"), FDT_ERR_BADSTRUCTURE);
	free(b);

	/* The structure block cut inside the root's name: 4 bytes leave the token only. */
	b = patched(36, 4);
	assert_int_equal(fdt_open(&f, b, sample_size), FDT_ERR_BADSTRUCTURE);
	free(b);

	/* The structure block cut short of the END token. */
	b = patched(36, sample_fdt.size_struct - 4);
	assert_int_equal(fdt_open(&f, b, sample_size), 0);
	assert_int_equal(fdt_find_by_type(&f, -1, "nothing"), FDT_ERR_BADSTRUCTURE);
	assert_int_equal(fdt_next_sibling(&f, fdt_root(&f)), FDT_ERR_BADSTRUCTURE);
	free(b);
}

static volatile unsigned sink_sum;

static void touch(const void *p, int len)
{
	const uint8_t *b = p;
	for (int i = 0; i < len; i++)
		sink_sum += b[i];
}

static void read_node(const struct fdt *f, int n)
{
	const char *name = fdt_node_name(f, n);
	if (name)
		sink_sum += (unsigned)strlen(name);
	int budget = 10000;
	for (int p = fdt_first_prop(f, n); p >= 0 && budget--; p = fdt_next_prop(f, p)) {
		const char *pname;
		int len;
		const void *data = fdt_prop_at(f, p, &pname, &len);
		if (data) {
			sink_sum += (unsigned)strlen(pname);
			touch(data, len);
		}
	}
	int len;
	const void *reg = fdt_prop(f, n, "reg", &len);
	if (reg)
		touch(reg, len);
	const char *s = fdt_prop_str(f, n, "device_type");
	if (s)
		sink_sum += (unsigned)strlen(s);
	uint32_t v32;
	uint64_t v64;
	sink_sum += fdt_prop_u32(f, n, "reg", &v32) + fdt_prop_u64(f, n, "timebase-frequency", &v64);
}

static void read_tree(const struct fdt *f, int n, int depth)
{
	read_node(f, n);
	if (depth > 32)
		return;
	int budget = 10000;
	for (int c = fdt_first_child(f, n); c >= 0 && budget--; c = fdt_next_sibling(f, c))
		read_tree(f, c, depth + 1);
}

/* Uses every call on every node and property it can reach, and on every offset. */
static void read_everything(const uint8_t *blob, size_t size)
{
	struct fdt f;
	if (fdt_open(&f, blob, size) != 0)
		return;
	read_tree(&f, fdt_root(&f), 0);
	static const char *const paths[] = { "/", "/cpus/cpu", "/memory", "/chosen",
	                                     "/vdevice/vty@71000000", "/mem" };
	for (size_t i = 0; i < sizeof paths / sizeof *paths; i++)
		fdt_path(&f, paths[i]);
	int budget = 10000;
	for (int n = fdt_find_by_type(&f, -1, "cpu"); n >= 0 && budget--;
	     n = fdt_find_by_type(&f, n, "cpu"))
		read_node(&f, n);
	for (int off = -8; off < (int)f.size_struct + 8; off++) {
		read_node(&f, off);
		fdt_first_child(&f, off);
		fdt_next_sibling(&f, off);
		fdt_next_prop(&f, off);
		fdt_find_by_type(&f, off, "memory");
		const char *name;
		int len;
		const void *data = fdt_prop_at(&f, off, &name, &len);
		if (data)
			touch(data, len);
	}
}

/* Every byte of the blob set to a few values, and every 32-bit word to a few more. */
static void mutated_blobs_stay_in_bounds(void **state)
{
	(void)state;
	static const uint8_t bytes[] = { 0x00, 0xff, 0x01, 0x02, 0x03, 0x04, 0x09, 0x7f, 0x80 };
	for (uint32_t i = 0; i < sample_size; i++) {
		for (size_t v = 0; v < sizeof bytes; v++) {
			uint8_t *b = exact_copy(sample, sample_size);
			b[i] = bytes[v];
			read_everything(b, sample_size);
			free(b);
		}
	}
	uint32_t words[] = { 0, 1, 2, 3, 4, 9, 0xffffffff, 0x7fffffff, 0x80000000, sample_size,
	                     sample_size - 4, sample_size + 4, sample_fdt.size_struct,
	                     sample_fdt.size_strings, 0xfffffffc };
	for (uint32_t i = 0; i + 4 <= sample_size; i += 4) {
		for (size_t v = 0; v < sizeof words / sizeof *words; v++) {
			uint8_t *b = patched(i, words[v]);
			read_everything(b, sample_size);
			free(b);
		}
	}
}

/* Every prefix of the blob, with totalsize claiming the prefix is all there is. */
static void truncated_blobs_stay_in_bounds(void **state)
{
	(void)state;
	for (uint32_t size = 0; size < sample_size; size++) {
		uint8_t *b = exact_copy(sample, size);
		if (size >= 8)
			be32_store(b + 4, size);
		read_everything(b, size);
		free(b);
	}
}

/* --- QEMU's device tree --------------------------------------------------------------------- */

struct dtb {
	uint8_t *data;
	size_t size;
	struct fdt f;
};

static int load_qemu_dtb(void **state)
{
	static struct dtb d;
	*state = NULL;
	const char *path = getenv("KOV_QEMU_DTB");
	if (!path || !*path)
		return 0;   /* the tests skip */
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		fprintf(stderr, "KOV_QEMU_DTB=%s cannot be opened\n", path);
		return -1;
	}
	d.data = malloc(1 << 20);
	d.size = d.data ? fread(d.data, 1, 1 << 20, fp) : 0;
	fclose(fp);
	if (fdt_open(&d.f, d.data, d.size) != 0) {
		fprintf(stderr, "%s: %s\n", path, fdt_strerror(fdt_open(&d.f, d.data, d.size)));
		return -1;
	}
	*state = &d;
	return 0;
}

static int free_qemu_dtb(void **state)
{
	struct dtb *d = *state;
	if (d)
		free(d->data);
	return 0;
}

static const struct fdt *qemu_fdt(void **state)
{
	struct dtb *d = *state;
	if (!d)
		skip();   /* KOV_QEMU_DTB is not set */
	assert_int_equal(fdt_blob_size(d->data), d->size);
	return &d->f;
}

static void qemu_cpus(void **state)
{
	const struct fdt *f = qemu_fdt(state);
	int cpus = fdt_path(f, "/cpus");
	assert_true(cpus >= 0);
	int count = 0;
	uint32_t seen = 0;
	for (int c = fdt_first_child(f, cpus); c >= 0; c = fdt_next_sibling(f, c)) {
		const char *type = fdt_prop_str(f, c, "device_type");
		if (!type || strcmp(type, "cpu") != 0)
			continue;
		uint32_t reg;
		uint64_t tb;
		assert_true(fdt_prop_u32(f, c, "reg", &reg));
		assert_true(reg < 4);
		seen |= 1u << reg;
		assert_true(fdt_prop_u64(f, c, "timebase-frequency", &tb));
		assert_int_equal(tb, 512000000);
		count++;
	}
	assert_int_equal(count, 4);
	assert_int_equal(seen, 0xf);
	/* The same four through the device_type search, all children of /cpus. */
	count = 0;
	for (int c = fdt_find_by_type(f, -1, "cpu"); c >= 0; c = fdt_find_by_type(f, c, "cpu")) {
		int p = fdt_first_child(f, cpus);
		while (p >= 0 && p != c)
			p = fdt_next_sibling(f, p);
		assert_int_equal(p, c);
		count++;
	}
	assert_int_equal(count, 4);
}

static void qemu_memory(void **state)
{
	const struct fdt *f = qemu_fdt(state);
	uint32_t ac, sc;
	assert_true(fdt_prop_u32(f, fdt_root(f), "#address-cells", &ac));
	assert_true(fdt_prop_u32(f, fdt_root(f), "#size-cells", &sc));
	assert_true(ac >= 1 && ac <= 2 && sc >= 1 && sc <= 2);
	int mem = fdt_path(f, "/memory@0");
	assert_true(mem >= 0);
	assert_int_equal(fdt_path(f, "/memory"), mem);
	assert_int_equal(fdt_find_by_type(f, -1, "memory"), mem);
	int len;
	const void *reg = fdt_prop(f, mem, "reg", &len);
	assert_non_null(reg);
	assert_true(len >= (int)(ac + sc) * 4);
	assert_int_equal(len % (int)((ac + sc) * 4), 0);
	assert_int_equal(fdt_cells(reg, 0, (int)ac), 0);
	assert_int_equal(fdt_cells(reg, (int)ac, (int)sc), 512u << 20);
}

static void qemu_console_and_rtas(void **state)
{
	const struct fdt *f = qemu_fdt(state);
	int vty = fdt_path(f, "/vdevice/vty@71000000");
	assert_true(vty >= 0);
	assert_int_equal(fdt_path(f, "/vdevice/vty"), vty);
	uint32_t reg;
	assert_true(fdt_prop_u32(f, vty, "reg", &reg));
	assert_int_equal(reg, 0x71000000);
	int rtas = fdt_path(f, "/rtas");
	assert_true(rtas >= 0);
	uint32_t start_cpu, power_off;
	assert_true(fdt_prop_u32(f, rtas, "start-cpu", &start_cpu));
	assert_true(fdt_prop_u32(f, rtas, "power-off", &power_off));
	assert_int_not_equal(start_cpu, power_off);
	assert_string_equal(fdt_prop_str(f, fdt_root(f), "compatible"), "qemu,pseries");
	assert_string_equal(fdt_node_name(f, fdt_root(f)), "");
}

static void parents_and_phandles(void **state)
{
	const struct fdt *f = qemu_fdt(state);
	int vty = fdt_path(f, "/vdevice/vty@71000000"), vdev = fdt_path(f, "/vdevice");
	assert_true(vty >= 0 && vdev >= 0);
	assert_int_equal(fdt_parent(f, vty), vdev);
	assert_int_equal(fdt_parent(f, vdev), fdt_root(f));
	assert_true(fdt_parent(f, fdt_root(f)) < 0);
	/* Every phandle in QEMU's tree leads back to its own node. */
	int found = 0;
	for (int n = fdt_first_child(f, fdt_root(f)); n >= 0; n = fdt_next_sibling(f, n)) {
		uint32_t ph;
		if (fdt_prop_u32(f, n, "phandle", &ph)) {
			assert_int_equal(fdt_node_by_phandle(f, ph), n);
			found++;
		}
	}
	assert_true(found >= 1);
	assert_true(fdt_node_by_phandle(f, 0xdeadbeef) < 0);
}

static void qemu_everything_reads(void **state)
{
	struct dtb *d = *state;
	qemu_fdt(state);
	read_everything(d->data, d->size);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(writer_header),
		cmocka_unit_test(writer_dedups_names),
		cmocka_unit_test(writer_overflow_is_sticky_and_bounded),
		cmocka_unit_test(writer_rejects_misuse),
		cmocka_unit_test(walk_children),
		cmocka_unit_test(paths),
		cmocka_unit_test(property_values),
		cmocka_unit_test(cells),
		cmocka_unit_test(property_iteration),
		cmocka_unit_test(find_by_type),
		cmocka_unit_test(strerror_names_every_code),
		cmocka_unit_test(open_rejects_bad_headers),
		cmocka_unit_test(corrupt_property_length),
		cmocka_unit_test(corrupt_names_and_tokens),
		cmocka_unit_test(mutated_blobs_stay_in_bounds),
		cmocka_unit_test(truncated_blobs_stay_in_bounds),
	};
	const struct CMUnitTest qemu_tests[] = {
		cmocka_unit_test(qemu_cpus),
		cmocka_unit_test(qemu_memory),
		cmocka_unit_test(qemu_console_and_rtas),
		cmocka_unit_test(parents_and_phandles),
		cmocka_unit_test(qemu_everything_reads),
	};
	int failed = cmocka_run_group_tests_name("fdt", tests, setup_sample, NULL);
	failed += cmocka_run_group_tests_name("fdt_qemu", qemu_tests, load_qemu_dtb, free_qemu_dtb);
	return failed != 0;
}

/* Programs as the sampler sees them: a symbol table (to find the start of an interrupted
 * function) and a text map (common/monitor/attrib.h: whether each instruction belongs to a clustered-
 * object method body, and where its function's frame and return address are, in one load).
 * The kernel's is built at boot from its own table; a user program's when the first process
 * loads it, and kept: initrd files never change. */
#include "km_internal.h"
#include "common/syms/elf_syms.h"
#include "common/syms/ksyms.h"
#include "common/lib/string.h"
#include "common/co/cobj.h"

#define MAX_PROGRAMS 32
#define MAX_METHODS 1024
#define SYMS_SCRATCH (128 * 1024)

extern const char _ksyms_start[], _ksyms_end[], _vectors_end[], _etext[];

struct km_program km_kernel_program;
static struct km_program *programs[MAX_PROGRAMS];

/* The text map over [lo, hi): its methods (the functions at `pcs`) and, with code_at (which
 * gives each function's code, or 0), its frames. Without text (lo >= hi) the map covers the
 * methods' extent, methods only. False when there is no memory for it. */
static bool build_text(struct text_map *m, const void *syms, const uint64_t *pcs, size_t n,
	uint64_t lo, uint64_t hi, const uint32_t *(*code_at)(void *ctx, uint64_t addr, uint64_t len),
	void *ctx)
{
	uint64_t start, end;
	*m = (struct text_map){ 0 };
	if (lo >= hi) {
		code_at = 0;
		lo = UINT64_MAX;
		hi = 0;
		for (size_t i = 0; i < n; i++)
			if (ksyms_extent(syms, pcs[i], &start, &end)) {
				lo = start < lo ? start : lo;
				hi = end > hi ? end : hi;
			}
		if (lo >= hi)
			return true;
	}
	uint64_t size = (hi - lo) & ~3ull;
	uint8_t *facts = kmalloc(text_map_bytes(size));
	if (!facts)
		return false;
	for (size_t i = 0; i < n; i++)
		if (ksyms_extent(syms, pcs[i], &start, &end))
			text_map_mark_method(facts, lo, size, start, end);
	for (uint32_t i = 0, count = code_at ? ksyms_count(syms) : 0; i < count; i++) {
		if (!ksyms_at(syms, i, &start, &end) || start < lo || end > lo + size || (start & 3))
			continue;
		const uint32_t *code = code_at(ctx, start, end - start);
		if (code)
			text_map_mark_frames(facts, lo, size, start, code, (end - start) / 4);
	}
	*m = (struct text_map){ lo, size, facts, code_at != 0 };
	return true;
}

static const uint32_t *kernel_code(void *ctx, uint64_t addr, uint64_t len)
{
	(void)ctx, (void)len;
	return (const uint32_t *)addr;
}

static void set_name(struct km_program *pr, const char *name)
{
	size_t n = strnlen(name, sizeof pr->name - 1);
	memcpy(pr->name, name, n);
	pr->name[n] = 0;
}

void km_program_init(void)
{
	const uint64_t *pcs;
	unsigned n = co_method_pcs(&pcs);
	size_t size = (size_t)(_ksyms_end - _ksyms_start);
	set_name(&km_kernel_program, "kernel");
	if (!ksyms_valid(_ksyms_start, size)) {
		kprintf("kov: no kernel symbol table: kernel samples are not attributed\n");
		return;
	}
	km_kernel_program.syms = _ksyms_start;
	if (!build_text(&km_kernel_program.text, _ksyms_start, pcs, n, (uint64_t)_vectors_end,
			(uint64_t)_etext, kernel_code, 0))
		kprintf("kov: no memory for the kernel's text map\n");
}

struct image { const uint8_t *bytes; uint64_t size; uint64_t vaddr, offset, filesz; };

/* Code of a user program from its file, inside its executable segment. */
static const uint32_t *image_code(void *ctx, uint64_t addr, uint64_t len)
{
	const struct image *im = ctx;
	if (addr < im->vaddr || addr - im->vaddr > im->filesz || len > im->filesz - (addr - im->vaddr))
		return 0;
	return (const uint32_t *)(im->bytes + im->offset + (addr - im->vaddr));
}

static long read_image(void *ctx, uint64_t off, void *buf, size_t len)
{
	const struct image *im = ctx;
	if (off >= im->size)
		return 0;
	size_t n = im->size - off < len ? (size_t)(im->size - off) : len;
	memcpy(buf, im->bytes + off, n);
	return (long)n;
}

static struct km_program *build_program(const char *file, const uint8_t *bytes, uint64_t size)
{
	struct image im = { bytes, size, 0, 0, 0 };
	struct km_program *pr = kmalloc(sizeof *pr);
	uint8_t *scratch = kmalloc(SYMS_SCRATCH);
	uint64_t *pcs = kmalloc(MAX_METHODS * sizeof *pcs);
	void *syms = 0;
	if (!pr || !scratch || !pcs)
		goto fail;
	set_name(pr, file);
	long n = elf_syms_build(read_image, &im, size, scratch, SYMS_SCRATCH);
	long m = n > 0 ? elf_co_methods(read_image, &im, size, pcs, MAX_METHODS) : 0;
	if (n > 0 && (syms = kmalloc((size_t)n)) != 0) {
		memcpy(syms, scratch, (size_t)n);
		pr->syms = syms;
		/* Its executable segment's code, when it is there to read (aligned). */
		bool code = elf_exec_segment(read_image, &im, size, &im.vaddr, &im.offset,
					     &im.filesz) == 0 && !((uintptr_t)(bytes + im.offset) & 3);
		if (!build_text(&pr->text, syms, pcs, m > 0 ? (size_t)m : 0, code ? im.vaddr : 0,
				code ? im.vaddr + im.filesz : 0, image_code, &im))
			kprintf("kov: %s: no memory for its text map; its samples are not "
				"attributed to objects\n", file);
	} else {
		kprintf("kov: %s: %s; its samples are not attributed to objects\n", file,
			n < 0 ? elf_syms_strerror(n) : "no memory for its symbols");
	}
	kfree(scratch);
	kfree(pcs);
	return pr;
fail:
	kfree(pr);
	kfree(scratch);
	kfree(pcs);
	return 0;
}

void km_program_attach(struct km_proc *k, const char *file, const uint8_t *image, uint64_t size)
{
	struct km_program *found = 0;
	svc_lock(SVC_LOCK_PROGRAMS);
	int free_slot = -1;
	for (int i = 0; i < MAX_PROGRAMS && !found; i++) {
		if (programs[i] && strncmp(programs[i]->name, file, sizeof programs[i]->name - 1) == 0)
			found = programs[i];
		else if (!programs[i] && free_slot < 0)
			free_slot = i;
	}
	if (!found && free_slot >= 0 && (found = build_program(file, image, size)) != 0)
		programs[free_slot] = found;
	svc_unlock(SVC_LOCK_PROGRAMS);
	k->prog = found;
	k->leaf_text = found && found->text.frames ? &found->text : 0;
}

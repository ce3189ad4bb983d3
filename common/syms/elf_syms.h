/* Symbol tables of user programs for the DCI's symbol service: turns a big-endian ELF64
 * (PowerPC ELFv1) executable's .symtab into a table in the kernel's own format
 * (common/syms/ksyms.h), so one lookup serves kernel and user addresses. Portable (target and
 * host unit tests); reads the file only through a callback and validates every offset. */
#ifndef KOV_ELF_SYMS_H
#define KOV_ELF_SYMS_H

#include <stddef.h>
#include <stdint.h>

/* Reads len bytes at offset into buf; returns the bytes read (fewer at the end), < 0 on error. */
typedef long (*elf_read_fn)(void *ctx, uint64_t offset, void *buf, size_t len);

#define ELF_SYMS_MAX 4096          /* symbols kept per program */

enum elf_syms_error {
	ELF_SYMS_E_READ = 1,       /* the callback failed or the file is shorter than it says */
	ELF_SYMS_E_FORMAT,         /* not a big-endian ELF64 executable */
	ELF_SYMS_E_NO_SYMTAB,      /* stripped */
	ELF_SYMS_E_BOUNDS,         /* a header, section or name outside the file */
	ELF_SYMS_E_NOSPACE,        /* the output buffer is too small */
};

/* Builds the table into out (cap bytes): function (code addresses: ELFv1 descriptors in .opd
 * are followed to their entry points) and data symbols, sorted by address, duplicates at one
 * address dropped. Returns the table's size or -ELF_SYMS_E_*. */
long elf_syms_build(elf_read_fn read, void *ctx, uint64_t file_size, void *out, size_t cap);

/* The code addresses of the clustered-object method bodies the program lists in its
 * .co_methods section (kernel/abi/co_abi.h: one ELFv1 descriptor address each, followed
 * through .opd). Returns how many were written to out (at most max; 0 when the program has
 * no such section) or -ELF_SYMS_E_*. */
long elf_co_methods(elf_read_fn read, void *ctx, uint64_t file_size, uint64_t *out, size_t max);

/* The first loadable, executable segment: its address, file offset and bytes in the file.
 * 0 or -ELF_SYMS_E_*. */
long elf_exec_segment(elf_read_fn read, void *ctx, uint64_t file_size, uint64_t *vaddr,
	uint64_t *offset, uint64_t *filesz);

const char *elf_syms_strerror(long err);

#endif

/* Starting a program in a process, as xv6's exec.c: the ELF loader (a Region over an FCM over
 * the program's FR for each PT_LOAD segment, then the heap and stack regions), the argument
 * vector on the new stack, and the way into user mode for the first and later threads. */
#include "process.h"
#include "exec.h"
#include "../mem/vm.h"
#include "../mm/kmem.h"
#include "../arch/cpu.h"
#include "../abi/syscall_nr.h"
#include "kernel/include/kov_hooks.h"
#include "common/lib/bytes.h"
#include "common/lib/string.h"

void enter_user(struct trap_frame *tf) __attribute__((noreturn));

#define STACK_TOP   0xF0000000ull
#define STACK_BYTES (256 * 1024ull)
#define HEAP_BYTES  (64ull << 20)

static bool add_region(struct process *p, uint64_t start, uint64_t end, unsigned prot,
		       coid_t fr, uint64_t file_off, uint64_t file_bytes)
{
	if (p->nregions == MAX_REGIONS || start < USER_BASE || end > USER_END || start >= end)
		return false;
	/* The user-LTT segment belongs to the clustered-object runtime alone. */
	if (start < ULTT_BASE + (1ull << SEGMENT_SHIFT) && end > ULTT_BASE)
		return false;
	for (unsigned i = 0; i < p->nregions; i++)
		if (start < p->region_end[i] && end > p->region_start[i])
			return false;
	coid_t fcm = fcm_create(fr, file_off, file_bytes);
	coid_t r = fcm ? region_create(start, end - start, prot, fcm) : 0;
	if (!r) {
		if (fcm)
			co_destroy(fcm);
		return false;
	}
	p->regions[p->nregions] = r;
	p->region_start[p->nregions] = start;
	p->region_end[p->nregions] = end;
	p->nregions++;
	return true;
}

/* ELF64 big-endian header and program header fields (offsets). */
#define EH_TYPE 16
#define EH_MACHINE 18
#define EH_ENTRY 24
#define EH_PHOFF 32
#define EH_PHENTSIZE 54
#define EH_PHNUM 56
#define PH_TYPE 0
#define PH_FLAGS 4
#define PH_OFFSET 8
#define PH_VADDR 16
#define PH_FILESZ 32
#define PH_MEMSZ 40
#define PT_LOAD 1
#define EM_PPC64 21

static long load_elf(struct process *p)
{
	struct fr *fr = co_rep(p->fr);
	uint8_t eh[64], ph[56];
	if (CO_CALL(struct fr, p->fr, read, 0, eh, sizeof eh) != sizeof eh ||
	    memcmp(eh, "\177ELF\2\2\1", 7) != 0 || be16_load(eh + EH_TYPE) != 2 ||
	    be16_load(eh + EH_MACHINE) != EM_PPC64 || be16_load(eh + EH_PHENTSIZE) != sizeof ph)
		return -KOV_ENOEXEC;
	uint64_t entry = be64_load(eh + EH_ENTRY), top = 0;
	bool entry_found = false;
	for (unsigned i = 0; i < be16_load(eh + EH_PHNUM); i++) {
		uint64_t off = be64_load(eh + EH_PHOFF) + i * sizeof ph;
		if (CO_CALL(struct fr, p->fr, read, off, ph, sizeof ph) != sizeof ph)
			return -KOV_ENOEXEC;
		if (be32_load(ph + PH_TYPE) != PT_LOAD)
			continue;
		uint64_t vaddr = be64_load(ph + PH_VADDR), foff = be64_load(ph + PH_OFFSET);
		uint64_t filesz = be64_load(ph + PH_FILESZ), memsz = be64_load(ph + PH_MEMSZ);
		uint32_t flags = be32_load(ph + PH_FLAGS);
		uint64_t start = vaddr & ~(PAGE_SIZE - 1), lead = vaddr - start;
		if (filesz > memsz || foff < lead || (foff - lead) % PAGE_SIZE ||
		    foff + filesz > fr->bytes || memsz > USER_END || vaddr > USER_END - memsz)
			return -KOV_ENOEXEC;
		unsigned prot = (flags & 4 ? PROT_READ : 0) | (flags & 2 ? PROT_WRITE : 0) |
				(flags & 1 ? PROT_EXEC : 0);
		uint64_t end = (vaddr + memsz + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
		if (!add_region(p, start, end, prot, p->fr, foff - lead, filesz + lead))
			return -KOV_ENOEXEC;
		if (end > top)
			top = end;
		/* ELFv1: the entry point is a function descriptor (code address, TOC). */
		if (entry >= vaddr && entry + 16 <= vaddr + filesz) {
			uint8_t desc[16];
			CO_CALL(struct fr, p->fr, read, foff + (entry - vaddr), desc, sizeof desc);
			p->entry = be64_load(desc);
			p->toc = be64_load(desc + 8);
			entry_found = true;
		}
	}
	if (!entry_found)
		return -KOV_ENOEXEC;
	km_program_attach(p->km, fr->name, fr->data, fr->bytes);
	p->heap_start = p->brk = top + PAGE_SIZE;
	p->heap_end = p->heap_start + HEAP_BYTES;
	if (!add_region(p, p->heap_start, p->heap_end, PROT_READ | PROT_WRITE, 0, 0, 0) ||
	    !add_region(p, STACK_TOP - STACK_BYTES, STACK_TOP, PROT_READ | PROT_WRITE, 0, 0, 0))
		return -KOV_ENOMEM;
	return 0;
}

/* Writes argv (the program name and the comma-separated arguments) at the top of the stack,
 * through the stack region's frames (the process is not running yet). */
static long build_stack(struct process *p, const char *program, const char *args)
{
	unsigned stack_region = p->nregions - 1;
	struct region *r = co_rep(p->regions[stack_region]);
	uint64_t page_va = STACK_TOP - PAGE_SIZE;
	uint64_t pa = CO_CALL(struct fcm, r->fcm, get_page, page_va - r->start);
	if (!pa)
		return -KOV_ENOMEM;
	uint8_t *page = kernel_ptr(pa);
	char strings[1024];
	uint64_t argv[32];
	size_t used = 0;
	int argc = 0;
	const char *src[2] = { program, args };
	for (int s = 0; s < 2; s++) {
		const char *a = src[s];
		while (a && *a && argc < 31) {
			size_t n = 0;
			while (a[n] && (s == 0 || a[n] != ','))
				n++;
			if (used + n + 1 > sizeof strings)
				return -KOV_EINVAL;
			memcpy(strings + used, a, n);
			strings[used + n] = 0;
			argv[argc++] = STACK_TOP - sizeof strings + used;
			used += n + 1;
			a += n;
			if (*a == ',')
				a++;
		}
	}
	argv[argc] = 0;
	memcpy(page + PAGE_SIZE - sizeof strings, strings, sizeof strings);
	uint64_t argv_va = STACK_TOP - sizeof strings - 8 * (uint64_t)(argc + 1);
	argv_va &= ~15ull;
	for (int i = 0; i <= argc; i++)
		be64_store(page + (argv_va - page_va) + 8 * (uint64_t)i, argv[i]);
	p->argc = (uint64_t)argc;
	p->argv = argv_va;
	p->sp = (argv_va - 128) & ~15ull;   /* below the arguments, room for crt0's frame */
	return 0;
}

/* Leaves the kernel for user mode at pc with the given stack, TOC and two arguments. */
__attribute__((noreturn)) static void enter_user_at(uint64_t pc, uint64_t toc, uint64_t sp,
						    uint64_t r3, uint64_t r4)
{
	struct thread *t = current_thread();
	struct trap_frame *tf = (struct trap_frame *)((uint64_t)(t->stack + t->stack_size -
			      sizeof *tf - 512) & ~15ull);
	memset(tf, 0, sizeof *tf);
	tf->nip = pc;
	tf->msr = MSR_SF | MSR_EE | MSR_PR | MSR_ME | MSR_IR | MSR_DR | MSR_RI;
	tf->gpr[1] = sp;
	tf->gpr[2] = toc;
	tf->gpr[3] = r3;
	tf->gpr[4] = r4;
	irq_disable();
	enter_user(tf);
}

void exec_user_start(void *arg)
{
	struct process *p = arg;
	enter_user_at(p->entry, p->toc, p->sp, p->argc, p->argv);
}

void exec_user_thread_start(void *arg)
{
	struct user_thread_start u = *(struct user_thread_start *)arg;
	kfree(arg);
	enter_user_at(u.entry, u.toc, u.sp, u.arg, 0);
}

long exec_load(struct process *p, const char *program, const char *args)
{
	long rc = load_elf(p);
	return rc ? rc : build_stack(p, program, args);
}

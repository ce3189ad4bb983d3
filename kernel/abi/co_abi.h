/* The clustered-object ABI shared by the kernel's runtime (kernel/co/cobj.c) and each process's
 * user-level runtime (libc-instr/cobj.c): the translation-table entry, DREF, method calls, and
 * CO_METHOD, whose entry stub leaves the rep in the caller's parameter save area for the
 * monitor's stack walker. The default method table and its trampoline (common/co/cobj_tramp.S)
 * are the same code on both sides; each side provides co_handle_miss(). */
#ifndef KOV_CO_ABI_H
#define KOV_CO_ABI_H

#include <stdint.h>
#include "kov_limits.h"
#include "kov_instr.h"

#define CO_MAX_METHODS 32
/* Both runtimes keep one rep slot per CPU the kernel can run (KOV_MAX_CPUS),
 * and each Local Translation Table, the kernel's and a process's, is this big. */
#define CO_MAX_CPUS KOV_MAX_CPUS
#define CO_LTT_BYTES (256ull * 1024)

struct ltt_entry {
	void *rep;              /* this CPU's rep, or &miss_ops when none is installed */
	const void *miss_ops;   /* always the default method table */
};
typedef struct ltt_entry *coid_t;

#define DREF(coid) ((void *)(coid)->rep)
/* Calls `method` of the object `coid`, whose reps have type `type` (with an `ops` member). */
#define CO_CALL(type, coid, method, ...) \
	({ type *co_r_ = DREF(coid); co_r_->ops->method(co_r_, ##__VA_ARGS__); })

/* What every rep begins with. */
struct co_rep {
	const void *ops;
};

/* The miss handler both runtimes implement: called by the trampoline with the entry that
 * missed and the method index; returns the rep to dispatch to. */
void *co_handle_miss(struct ltt_entry *entry, unsigned long method);

/* Defines method `name` of a class: declares `ret name(args)` callable through a method table,
 * whose entry stub stores the rep (first argument) in its home slot and branches to the C body
 * `name##_body`, which the caller then defines:
 *     CO_METHOD(long, counter_add, struct counter *c, long n) { ... }
 * Before the entry sits its counting prologue, entered only through a counted rep's method
 * table (common/co/co_count.c) with r11 = the method's count: an atomic increment that falls
 * through into the entry, so counting a call costs four instructions. The stubs have a section
 * of their own, which the linker scripts bound (__co_stubs_start/end), and so have the bodies
 * (__co_bodies_start/end: a hot swap's stack walk tells a method's frame by its pc). Without
 * invocation counting (kov_instr.h) there is no prologue: the stub is the method's entry. */
#if KOV_CALL_INSTR
#define CO_COUNT_PROLOGUE "1: ldarx 0, 0, 11\n addic 0, 0, 1\n stdcx. 0, 0, 11\n bne- 1b\n"
#else
#define CO_COUNT_PROLOGUE ""
#endif
#define CO_METHOD(ret, name, ...)                                                        \
	ret name(__VA_ARGS__);                                                           \
	__attribute__((section(".text.co_bodies"))) ret name##_body(__VA_ARGS__);        \
	__asm__(".section \".opd\",\"aw\"\n .align 3\n .globl " #name "\n"                \
		#name ": .quad .L." #name ", .TOC.@tocbase, 0\n .previous\n"             \
		" .type " #name ", @function\n"                                          \
		" .section .text.co_method_stubs, \"ax\"\n"                               \
		CO_COUNT_PROLOGUE                                                        \
		".L." #name ":\n std 3, 48(1)\n b " #name "_body\n"                      \
		" .size " #name ", 8\n .previous\n"                                      \
		" .section .co_methods, \"a\"\n .align 3\n .quad " #name "_body\n .previous"); \
	ret name##_body(__VA_ARGS__)

#endif

/* Which software instrumentation the image is built with. `make instr-variants` builds images
 * without the lock statistics (-DKOV_NO_LOCK_INSTR), without invocation counting
 * (-DKOV_NO_CALL_INSTR) or without either, to measure what the disabled hooks cost (the
 * thesis's Table 4.3); the kernel, the C library, the workloads and the daemon of one image get
 * the same switches. This is the one place that reads them: the hooks' own definitions
 * (common/lib/spinword.h, lockstat.h, kernel/include/kov_hooks.h, kernel/abi/co_abi.h,
 * common/co/co_count.h and the files behind them) test KOV_LOCK_INSTR and KOV_CALL_INSTR, 1
 * when built and 0 when compiled out, so a lock path or a method call compiles to the code it
 * would be without the hook, and what serves a figure that is compiled out (kov/, dci/) says so
 * with the texts below. With neither switch nothing changes: the normal build is unaffected. */
#ifndef KOV_INSTR_H
#define KOV_INSTR_H

#ifdef KOV_NO_LOCK_INSTR
#define KOV_LOCK_INSTR 0
#else
#define KOV_LOCK_INSTR 1
#endif

#ifdef KOV_NO_CALL_INSTR
#define KOV_CALL_INSTR 0
#else
#define KOV_CALL_INSTR 1
#endif

#define KOV_NO_LOCK_INSTR_TEXT "lock statistics are not built into this image (KOV_NO_LOCK_INSTR)"
#define KOV_NO_CALL_INSTR_TEXT "invocation counting is not built into this image (KOV_NO_CALL_INSTR)"

#endif

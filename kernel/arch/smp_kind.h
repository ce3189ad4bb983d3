/* How the CPUs run. Under QEMU that is a property of the emulator, not of anything the guest can
 * time reliably (with more virtual CPUs than free host cores, CPUs with a host thread each
 * also take turns), so the launcher says it: the boot argument `cpus=parallel|turns` (sim/run
 * passes it). Unsaid, it is unknown. */
#ifndef KOV_SMP_KIND_H
#define KOV_SMP_KIND_H

#include <stdbool.h>

#define SMP_RUN_UNKNOWN 0      /* one CPU, or not said */
#define SMP_RUN_TAKE_TURNS 1   /* the CPUs take turns on one host thread (QEMU thread=single) */
#define SMP_RUN_PARALLEL 2     /* the CPUs run at the same time (QEMU thread=multi, hardware) */

/* SMP_RUN_* (the values of the ABI's KM_CPUS_*); reads the boot argument on first use. */
int smp_run_kind(void);

/* Where the CPUs take turns, ends this CPU's turn so that the next one runs now, and returns
 * true: for a CPU that waits on the others, which otherwise get their turns only at the host's
 * timer events, milliseconds apart. Does nothing and returns false anywhere else. */
bool smp_yield_turn(void);

/* "run in parallel", "take turns", "unknown". */
const char *smp_run_kind_name(int kind);

#endif

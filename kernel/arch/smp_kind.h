/* How the CPUs run. Under QEMU that is a property of the emulator, not of anything the guest can
 * time reliably (with more virtual CPUs than free host cores, CPUs with a host thread each
 * also take turns), so the launcher says it: the boot argument `cpus=parallel|turns` (sim/run
 * passes it). Unsaid, it is unknown. */
#ifndef KOV_SMP_KIND_H
#define KOV_SMP_KIND_H

#include <stdbool.h>
#include <stdint.h>

#define SMP_RUN_UNKNOWN 0      /* one CPU, or not said */
#define SMP_RUN_TAKE_TURNS 1   /* the CPUs take turns on one host thread (QEMU thread=single) */
#define SMP_RUN_PARALLEL 2     /* the CPUs run at the same time (QEMU thread=multi, hardware) */

/* SMP_RUN_* (the values of the ABI's KM_CPUS_*); reads the boot argument on first use. */
int smp_run_kind(void);

/* Where the CPUs take turns, ends this CPU's turn so that the next one runs now, and returns
 * true: for a CPU that waits on the others, which otherwise get their turns only at the host's
 * timer events, milliseconds apart. Does nothing and returns false anywhere else. */
bool smp_yield_turn(void);

/* Work that waits for another CPU's turn, as a layer above sees it: true when some is waiting
 * for CPU *cpu, with *step the progress that CPU's side has made (any value that changes as it
 * takes such work up). */
typedef bool (*smp_waiting_fn)(unsigned *cpu, uint64_t *step);
/* Where the CPUs take turns, registers the probe smp_hand_on_turn asks (one; the network's
 * receive ring, kernel/net/netdev.c). */
void smp_watch_turns(smp_waiting_fn waiting);
/* At an interrupt or system call, interrupts off: if work waits for another CPU's turn, hands
 * this CPU's turn on (smp_yield_turn) so that QEMU's round robin reaches that CPU now rather
 * than at the host's next timer events, 2.5 ms apart on 4 CPUs at 100 Hz. Once per step: work
 * that CPU had its turn and left (its threads busy) does not make the others give up every
 * turn. Nothing when no probe is registered (the CPUs run in parallel). */
void smp_hand_on_turn(void);

/* "run in parallel", "take turns", "unknown". */
const char *smp_run_kind_name(int kind);

#endif

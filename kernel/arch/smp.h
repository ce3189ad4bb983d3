/* Bringing up the other CPUs. */
#ifndef KOV_SMP_H
#define KOV_SMP_H

#include <stdbool.h>

/* Starts every CPU of the device tree (up to MAX_CPUS) and waits for each to come online.
 * Returns the number of CPUs online, the boot CPU included. */
unsigned int smp_start(void);

/* A starting CPU (kernel/main.c: secondary_main) is online: it takes cross-CPU calls. */
void smp_mark_online(void);

/* Runs fn(arg) on every online CPU, the caller included, and waits until all have returned.
 * Other CPUs pick the call up in their idle loop (within one timer tick). False on timeout. */
bool smp_call_all(void (*fn)(void *), void *arg);

/* The idle loop's turn (kernel/main.c: cpu_idle_loop): runs a pending cross-CPU call. */
void smp_run_pending_call(void);

#endif

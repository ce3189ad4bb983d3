/* Idle through H_CEDE, and the guard that bounds how long a CPU can sleep through a wake-up.
 *
 * QEMU 10's pseries machine (TCG, either thread mode) can halt a CPU in H_CEDE and then, in the
 * same pass of its CPU loop, deliver an interrupt that became pending in between: the CPU is
 * left halted at the interrupt vector with MSR[EE] off, and only H_PROD or a system reset runs
 * it again (docs/architecture.md, "Idle and wake-ups"; tools/qemu-cede-race/ shows it in 40
 * instructions). The guard: every tick, each CPU prods a ceded CPU whose tick is overdue by
 * WAKE_PROD_PERIODS; a hypervisor watchdog whose expiry resets every CPU is armed around each
 * cede of a CPU alone, or petted by the ticks of several, so a CPU alone (or all of them at
 * once) is resumed too. Each rescue is counted; a normal run has none. */
#ifndef KOV_WAKE_GUARD_H
#define KOV_WAKE_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include "trap.h"

/* A ceded CPU whose tick is this many periods (and at least WAKE_PROD_MIN_US) overdue is
 * prodded by the next CPU that ticks. */
#define WAKE_PROD_PERIODS 3
#define WAKE_PROD_MIN_US 20000
/* The hypervisor watchdog's timeout (ms; the `wakewdt=` boot argument, 0 = off). A CPU alone
 * arms it around each cede, where its reset can only find the CPU ceding or stuck after it:
 * short. With neighbours (who rescue a stuck CPU within WAKE_PROD_MIN_US) the ticks keep it
 * off and only every CPU stuck at once needs it; its reset then also catches CPUs whose host
 * threads merely ran late, possibly at an interrupt vector whose state the reset overwrites
 * (a panic): long. */
#define WAKE_WATCHDOG_MS_ALONE 100
#define WAKE_WATCHDOG_MS_SMP 5000

/* Idles this CPU in H_CEDE (interrupts off on entry and on return, taken inside). */
void wake_cede(void);

/* The cede is over (an interrupt's entry from hcall_cede_return, or wake_cede itself). */
void wake_cede_ended(void);

/* Boot CPU, once the timers run: arms the hypervisor watchdog where the platform has one. */
void wake_guard_start(void);

/* From every tick (interrupts off): measures how late a ceded CPU woke, pets the watchdog and
 * prods ceded CPUs that slept through their tick. */
void wake_guard_tick(const struct trap_frame *tf);

/* From the system-reset vector: true if the reset was the watchdog's and the interrupted
 * state was resumed (tf rewritten to continue); false for anything else (an NMI to report). */
bool wake_guard_reset(struct trap_frame *tf);

#endif

/* The mac-io OpenPIC (platform_mac99's device interrupts; openpic.c). */
#ifndef KOV_OPENPIC_H
#define KOV_OPENPIC_H

#include <stdbool.h>
#include <stdint.h>

/* Takes the controller at physical address phys; every source stays masked until routed. */
void openpic_init(uint64_t phys);
/* Unmasks source (level-sensitive) and sends it to CPU 0; false if it did not take. */
bool openpic_route(uint32_t source);
/* External interrupt: acknowledges, dispatches and ends every pending source. */
void openpic_interrupt(void);

#endif

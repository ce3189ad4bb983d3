/* Device interrupts: drivers attach a handler to a device-tree interrupt source; the
 * platform's external-interrupt code (XICS on pseries, OpenPIC on mac99) dispatches to it. */
#ifndef KOV_IRQ_H
#define KOV_IRQ_H

#include <stdbool.h>
#include <stdint.h>

typedef void (*irq_handler_fn)(void *arg);

#define IRQ_MAX_HANDLERS 16

/* Routes source (the number in the device's "interrupts" property) to fn(arg), called in
 * interrupt context on the boot CPU, and unmasks it. False if the platform cannot deliver
 * device interrupts or the table is full; the driver then polls. */
bool irq_attach(uint32_t source, irq_handler_fn fn, void *arg);
/* Called by the platform for each device interrupt it takes; false if nobody handles it. */
bool irq_dispatch(uint32_t source);

#endif

/* RTAS services on pseries. Tokens come from the /rtas node of the device tree; QEMU runs the
 * services through the KVMPPC_H_RTAS hypercall, so no RTAS blob needs to be instantiated. */
#ifndef KOV_RTAS_H
#define KOV_RTAS_H

#include <stdint.h>
#include <stdbool.h>
#include "../lib/fdt.h"

#define RTAS_NO_TOKEN 0xffffffffu

void rtas_init(const struct fdt *fdt);

/* Token for a named service ("start-cpu", "power-off"), or RTAS_NO_TOKEN. */
uint32_t rtas_token(const char *name);

/* Runs a service: nargs inputs, nret outputs (ret may be NULL if nret is 0).
 * Returns the service's status (ret[0] convention) or -1 if the token is missing. */
int rtas_call(const char *name, int nargs, int nret, uint32_t *ret, ...);

#endif

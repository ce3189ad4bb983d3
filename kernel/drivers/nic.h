/* The network interface drivers' probes: each looks for its device in the device tree and,
 * when it finds one, registers it with the stack (kernel/net/netdev.h) and returns true. */
#ifndef KOV_NIC_H
#define KOV_NIC_H

#include <stdbool.h>
#include "kernel/lib/fdt.h"

bool spapr_vlan_probe(const struct fdt *fdt);
bool sungem_probe(const struct fdt *fdt);

#endif

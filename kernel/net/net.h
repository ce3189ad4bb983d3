/* The kernel's network stack: lwIP over the registered NIC (netdev.h), started after
 * boot; user programs reach it through the socket system calls (kernel/net/sockets.c). */
#ifndef KOV_NET_H
#define KOV_NET_H

#include <stdbool.h>
#include <stdint.h>
#include "../abi/km_abi.h"
#include "kernel/proc/syscall.h"

/* If a NIC driver's probe registered its device (kernel/drivers/nic.h), starts lwIP (DHCP on
 * it, or the static address of the `ip=` boot argument) and returns true. */
bool net_start(void);
/* Fills the interface's description and counters; false if there is no network. */
bool net_info(struct km_netinfo *out);
/* The socket system calls and net_sockets_open are declared with the other system calls
 * (kernel/proc/syscall.h), net_process_exit with the processes (kernel/proc/process.h). */

#endif

/* The kernel's network stack: lwIP over the registered NIC (netdev.h), started after
 * boot; user programs reach it through the socket system calls (kernel/net/sockets.c). */
#ifndef KOV_NET_H
#define KOV_NET_H

#include <stdbool.h>
#include <stdint.h>
#include "../abi/km_abi.h"

struct process;

/* If a NIC driver's probe registered its device (kernel/drivers/nic.h), starts lwIP (DHCP on
 * it, or the static address of the `ip=` boot argument) and returns true. */
bool net_start(void);
/* Fills the interface's description and counters; false if there is no network. */
bool net_info(struct km_netinfo *out);
/* The socket system calls (SYS_SOCKET..SYS_GETSOCKNAME): a[] are the call's arguments. */
long net_syscall(uint64_t nr, const uint64_t *a);
/* Sockets open in all processes. */
uint32_t net_sockets_open(void);
/* Closes every socket of a process that is going away. */
void net_process_exit(struct process *p);

#endif

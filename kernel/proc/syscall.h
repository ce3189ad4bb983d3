/* System call dispatch (vector 0xC00 from user mode). */
#ifndef KOV_SYSCALL_H
#define KOV_SYSCALL_H

#include "../arch/trap.h"

void syscall_dispatch(struct trap_frame *tf);
/* The KM's information calls (SYS_KM_INFO.. SYS_KM_PROCESSES, SYS_NETINFO): kov/km_info.c. */
long km_info_syscall(uint64_t nr, const uint64_t *a);
/* The socket calls (SYS_SOCKET..SYS_GETSOCKNAME; a[] are the call's arguments), -KOV_ENODEV
 * without a network, and the sockets open in all processes: kernel/net/sockets.c. */
long net_syscall(uint64_t nr, const uint64_t *a);
uint32_t net_sockets_open(void);

#endif

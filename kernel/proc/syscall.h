/* System call dispatch (vector 0xC00 from user mode). */
#ifndef KOV_SYSCALL_H
#define KOV_SYSCALL_H

#include "../arch/trap.h"

void syscall_dispatch(struct trap_frame *tf);
/* The KM's information calls (SYS_KM_INFO.. SYS_KM_PROCESSES, SYS_NETINFO): kov/km_info.c. */
long km_info_syscall(uint64_t nr, const uint64_t *a);

#endif

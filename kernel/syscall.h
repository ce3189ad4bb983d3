/* System call dispatch (vector 0xC00 from user mode). */
#ifndef KOV_SYSCALL_H
#define KOV_SYSCALL_H

#include "trap.h"

void syscall_dispatch(struct trap_frame *tf);

#endif

/* User-level clustered objects: each process has its own Global and Local Translation Tables
 * (the LTT at USER_LTT_BASE, the same address on every CPU, each CPU's own memory). The API,
 * the structures and the calling convention are the kernel's (common/co/cobj.h and
 * kernel/abi/co_abi.h); this runtime implements them for one process.
 *
 * Quiescence: a thread passes a quiescent point (holds no rep pointers) at co_quiescent(),
 * yield(), when it sleeps in the kernel and when it exits; a destroyed object is reclaimed by
 * co_reclaim() once every live thread of the process has passed one. */
#ifndef KOV_USER_COBJ_H
#define KOV_USER_COBJ_H

#include "common/co/cobj.h"

/* Reps of an object installed so far (one per CPU that used a per-CPU object). */
unsigned int co_rep_count(coid_t coid);

#endif

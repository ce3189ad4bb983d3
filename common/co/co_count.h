/* Invocation counting for clustered objects — the DREF hook of the thesis, built so that it
 * costs nothing while off: a counted rep's method table pointer is swapped for a table of its
 * own whose slots count the call and go on to the real method (a CO_METHOD's counting
 * prologue, four instructions; co_count_fast for other functions, seven). Uncounted objects run exactly the code they would without the hook. Shared
 * by the kernel and the user runtime (libc-instr). */
#ifndef KOV_CO_COUNT_H
#define KOV_CO_COUNT_H

#include <stdint.h>
#include <stdbool.h>
#include "kernel/abi/kov_instr.h"

#if KOV_CALL_INSTR
/* Starts or stops counting one rep of a class with nmethods methods; enable returns false
 * when out of memory. */
bool co_count_enable_rep(void *rep, unsigned nmethods);
void co_count_disable_rep(void *rep);
/* Calls counted on a rep so far (0 if it is not counted). */
uint64_t co_count_of_rep(const void *rep);
#else
/* Compiled out (kernel/abi/kov_instr.h): co_count.c, co_count_fast and CO_METHOD's prologue
 * are gone, no rep is ever counted, and co_count_enable says so (false). */
static inline bool co_count_enable_rep(void *rep, unsigned nmethods)
{
	(void)rep, (void)nmethods;
	return false;
}
static inline void co_count_disable_rep(void *rep)
{
	(void)rep;
}
static inline uint64_t co_count_of_rep(const void *rep)
{
	(void)rep;
	return 0;
}
#endif

#endif

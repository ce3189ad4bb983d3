/* Invocation counting for clustered objects — the DREF hook of the thesis, built so that it
 * costs nothing while off: a counted rep's method table pointer is swapped for co_count_ops,
 * whose slots count the call and forward it through the rep's real table (kept here, keyed by
 * the rep). Uncounted objects run exactly the code they would without the hook. Shared by the
 * kernel and the user runtime (libc-instr). */
#ifndef KOV_CO_COUNT_H
#define KOV_CO_COUNT_H

#include <stdint.h>
#include <stdbool.h>

#define CO_COUNT_SLOTS 4096

/* Starts or stops counting one rep; enable returns false if the table is full. */
bool co_count_enable_rep(void *rep);
void co_count_disable_rep(void *rep);
/* Calls counted on a rep so far (0 if it is not counted). */
uint64_t co_count_of_rep(const void *rep);
/* The trampoline's C half: counts the call and returns the rep's real method table. */
const void *co_count_call(void *rep, unsigned long method);

#endif

/* A distributed counter, K42's multi-rep pattern in user space: one rep per CPU, made on the
 * CPU's first add, so threads on different CPUs never share the count's cache line or a lock;
 * the total is a root-level operation that visits every rep. The class shows in scans as
 * "DCounter", one rep per CPU that used it. */
#ifndef KOV_DCOUNTER_H
#define KOV_DCOUNTER_H

#include "cobj.h"

/* A new counter at 0; 0 if out of memory or the object tables are full. */
coid_t dcounter_new(void);
/* A new shared counter ("Counter": one rep, one atomic count) at 0. Either kind can be
 * hot-swapped to the other (co_swap with co_swappable_named("DCounter" or "Counter")): the
 * functions below work on both. */
coid_t counter_new(void);
/* Adds n on this CPU's rep. */
void dcounter_add(coid_t c, long n);
/* The sum over every rep (exact once the adders have finished; a moment's view otherwise). */
long dcounter_total(coid_t c);
/* Reps visited by the last total, for tests: one per CPU that added. */
unsigned dcounter_reps(coid_t c);

#endif

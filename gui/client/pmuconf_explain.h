/* Explaining PMU configurations to people: which counters an event can go on, in words, and
 * why a group of hardware events does not fit a processor's counters, named as the pair of
 * events that collide when there is one. The planner (common/monitor/km_plan.c) and the
 * backend's constraint checker stay the authorities: every sentence here is theirs; this only
 * asks them the questions a person building a group has (does it fit with this one? with
 * which one does it not?). */
#ifndef KOV_CLIENT_PMUCONF_EXPLAIN_H
#define KOV_CLIENT_PMUCONF_EXPLAIN_H

#include <stddef.h>
#include <stdint.h>
#include "common/monitor/pmu_backend.h"

/* "PMC 1,2,5,6", "PMC 3", "any PMC" (every counter of an 8-counter PMU); "" for none. */
void kov_pmcs_text(uint8_t pmcs, char *buf, size_t n);

/* The backend's placement of n events (its own codes) on its counters: 0 with pmc_of[i] the
 * counter of codes[i], or the checker's negative PMU_E* with its sentence in why. */
int kov_pmu_fit(const struct pmu_backend *b, const uint32_t *codes, int n, int *pmc_of,
		char *why, size_t why_size);

/* Why the n events do not fit together, narrowed to the fewest that collide: the first pair
 * the checker refuses on its own (*a, *b set, its sentence in why), else the first refused
 * triple (*a, *b, *c), else the whole group's sentence (*a = -1). Returns how many events the
 * reason names (2, 3 or n), or 0 when they fit. */
int kov_pmu_conflict(const struct pmu_backend *b, const uint32_t *codes, int n, int *a, int *b2,
		     int *c, char *why, size_t why_size);

#endif

/* The PMU backends, and the one place one is chosen for a processor (common/monitor/pmu_backend.h).
 *
 * One line per backend, most specific first: a processor gets the first backend whose
 * matches() accepts its PVR. The architected backend matches every processor and stays last,
 * so a processor no other backend describes still counts what the architected selects count
 * (and the boot probe says whether they do). */
#include "pmu_backend.h"

#define PMU_BACKENDS(X) \
	X(ppc970_pmu)       /* PowerPC 970, 970FX, 970MP, 970GX (common/monitor/ppc970_pmu.c) */ \
	X(isa207_pmu)       /* architected fallback: QEMU's ISA 2.07 counters (common/monitor/isa207_pmu.c) */

#define DECLARE(b) extern const struct pmu_backend b;
PMU_BACKENDS(DECLARE)
#define LIST(b) &b,
static const struct pmu_backend *const backends[] = { PMU_BACKENDS(LIST) };

size_t pmu_backend_count(void)
{
	return sizeof backends / sizeof backends[0];
}

const struct pmu_backend *pmu_backend_at(size_t i)
{
	return i < pmu_backend_count() ? backends[i] : NULL;
}

const struct pmu_backend *pmu_backend_for_pvr(uint32_t pvr)
{
	for (size_t i = 0; i < pmu_backend_count(); i++)
		if (backends[i]->matches(pvr))
			return backends[i];
	return NULL;
}

const struct pmu_backend *pmu_backend_architected(void)
{
	for (size_t i = 0; i < pmu_backend_count(); i++)
		if (backends[i]->architected)
			return backends[i];
	return NULL;
}

const struct pmu_backend *pmu_backend_of_events(const struct event_desc *events)
{
	for (size_t i = 0; i < pmu_backend_count(); i++)
		if (backends[i]->events == events)
			return backends[i];
	return NULL;
}

const struct event_desc *pmu_generic_event(const struct pmu_backend *b, uint32_t generic_flag)
{
	for (size_t i = 0; b && i < b->n_events; i++)
		if (b->events[i].flags & generic_flag)
			return &b->events[i];
	return NULL;
}

/* Turning a monitoring configuration (named groups of catalogue events with shares and
 * sampling thresholds, kernel/abi/km_abi.h) into what the KM programs at each slice: per group the
 * counter of every event and the MMCR values, or a refusal that names the event and the
 * reason. Portable: the KM uses it, the host unit tests pin it.
 *
 * Rules: every event must count on this machine (the catalogue says so after the boot probe);
 * a sampled hardware event must land on a counter whose overflow interrupts here; a group's
 * hardware events must use one kind of encoding (the processor's own selects, or the
 * architected ones QEMU counts) and pass that backend's constraint checker
 * (common/monitor/pmu_backend.h). Instructions and cycles are added to
 * every group that has room for them (threshold 0), so IPC and the slice clock are known in
 * every slice. */
#ifndef KOV_KM_PLAN_H
#define KOV_KM_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include "pmu_event.h"
#include "kernel/abi/km_abi.h"

struct km_plan_event {
	uint16_t event;         /* catalogue index */
	uint8_t pmc;            /* 1..8; 0 for a software event */
	uint8_t added;          /* added by the plan, not asked for */
	uint64_t threshold;
};

struct km_plan_group {
	uint32_t n;
	struct km_plan_event ev[KM_MAX_GROUP_EVENTS];
	const struct pmu_backend *pmu;  /* programs the group; NULL when nothing counts here */
	uint64_t mmcr0, mmcr1, mmcra;   /* selects only: pmu->program() adds freeze and overflow */
	uint8_t used_pmcs;              /* bit p-1: PMCp counts an event of this group */
	uint8_t sample_pmcs;            /* ... and samples (threshold > 0) */
	int8_t ev_of_pmc[8];            /* index in ev of PMCp's event, -1 */
	int8_t ev_of_sw[SW_EVENT_COUNT];/* index in ev of each software event, -1 */
	int8_t inst_pmc, cyc_pmc;       /* counters counting instructions / cycles, 0 if none */
	uint8_t chain_depth;            /* call-chain frames its samples carry, 0: none */
};

struct km_plan {
	uint32_t n_groups;
	struct km_plan_group group[KM_MAX_GROUPS];
};

/* Checks cfg against the catalogue and fills plan; on success also fills `applied` (cfg with
 * the added events; may be cfg itself). Returns 0, or -1 with a sentence in why. */
int km_plan_build(const struct catalogue *cat, const struct km_config *cfg,
	struct km_plan *plan, struct km_config *applied, char *why, size_t why_size);

#endif

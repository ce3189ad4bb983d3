/* The KM's event catalogue for this machine: the processor's PMU backend's events and the
 * kernel's software events, judged by what the boot probe measured. */
#ifndef KOV_KM_CATALOGUE_H
#define KOV_KM_CATALOGUE_H

#include "common/monitor/pmu_event.h"

extern struct catalogue km_catalogue;

/* Builds the catalogue from the probe results and prints a summary. */
void km_catalogue_init(void);

/* The PMU backend counting here, as reported to clients: "ppc970", "isa207-arch" or "none". */
const char *km_pmu_name(void);

#endif

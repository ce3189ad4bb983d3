/* Names for numbers a user sees (processor, role, process state, COID) and the clock. */
#include <stdio.h>
#include <time.h>
#include "client/client.h"

uint64_t kov_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The PVR's upper half is the processor version; the lower half its revision. */
const char *kov_pvr_name(uint32_t pvr)
{
	switch (pvr >> 16) {
	case 0x0039: return "PowerPC 970";
	case 0x003C: return "PowerPC 970FX";
	case 0x0044: return "PowerPC 970MP";
	case 0x0045: return "PowerPC 970GX";
	default: return "unknown";
	}
}

const char *kov_role_name(enum proto_role role)
{
	switch (role) {
	case PROTO_ROLE_OBSERVER: return "observer";
	case PROTO_ROLE_CONTROLLER: return "controller";
	default: return "none";
	}
}

const char *kov_state_name(uint16_t state)
{
	switch (state) {
	case PROTO_PS_RUNNING: return "running";
	case PROTO_PS_READY: return "ready";
	case PROTO_PS_BLOCKED: return "blocked";
	case PROTO_PS_EXITING: return "exiting";
	default: return "unknown";
	}
}

const char *kov_coid_str(uint64_t coid, char buf[KOV_COID_CHARS])
{
	snprintf(buf, KOV_COID_CHARS, "0x%llx", (unsigned long long)coid);
	return buf;
}

const char *kov_event_basis(const struct kov_target *t, const struct kov_event *e)
{
	if (!(e->flags & PROTO_EV_COUNTS_HERE))
		return "not counted";
	if (e->source == PROTO_SRC_SW)
		return "software";
	if (t->minor < 3)
		return "not reported";
	return e->flags & PROTO_EV_ASSUMED ? "assumed" : "measured";
}

int kov_event_modes_filtered(const struct kov_target *t, const struct kov_event *e)
{
	if (t->minor < 3)
		return -1;
	return (e->flags & PROTO_EV_MODES_FILTERED) != 0;
}

bool kov_target_reports_machine(const struct kov_target *t)
{
	return t->minor >= 5;
}

const char *kov_cpus_run(const struct kov_target *t)
{
	return kov_target_reports_machine(t) ? proto_cpus_run_name(t->cpus_run) : NULL;
}

const char *kov_serial_note(const struct kov_target *t)
{
	if (!kov_target_reports_machine(t) || t->cpus_run != PROTO_CPUS_TAKE_TURNS)
		return NULL;
	return "serial machine: CPUs take turns, waits are round-robin slices";
}

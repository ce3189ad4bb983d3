/* The daemon is where the KM's records (kernel/abi/km_abi.h) meet the wire protocol's
 * (proto/proto_msg.h): it passes flags from one to the other unchanged and copies records
 * field by field. These assertions make the compiler hold the two sides equal, so that a
 * change to either one stops the build instead of corrupting what clients see. No code. */
#include <stddef.h>
#include "kernel/abi/km_abi.h"
#include "proto/proto.h"
#include "proto/proto_platform.h"

#define PIN(a, b) _Static_assert((a) == (b), #a " must equal " #b)
#define SAME_FIELD(ks, kf, ps, pf) \
	_Static_assert(sizeof(((struct ks *)0)->kf) == sizeof(((struct ps *)0)->pf), \
		       "struct " #ks "." #kf " and struct " #ps "." #pf " differ in size")

/* Event catalogue flags (dci/answers.c sends km_event_info.flags as they are). */
PIN(KM_EV_COUNTS_HERE, PROTO_EV_COUNTS_HERE);
PIN(KM_EV_CAN_SAMPLE, PROTO_EV_CAN_SAMPLE);
PIN(KM_EV_SAMPLES_HERE, PROTO_EV_SAMPLES_HERE);
PIN(KM_EV_ASSUMED, PROTO_EV_ASSUMED);
PIN(KM_EV_MODES_FILTERED, PROTO_EV_MODES_FILTERED);
SAME_FIELD(km_event_info, flags, proto_event, flags);
SAME_FIELD(km_event_info, source, proto_event, source);
SAME_FIELD(km_event_info, code, proto_event, code);

/* Configuration (dci/monitor.c: monitor_pmu_config in, encode_applied out). The KM's two bits
 * of its own must not be protocol bits. */
PIN(KM_CFG_KERNEL, PROTO_CFG_KERNEL);
PIN(KM_CFG_USER, PROTO_CFG_USER);
PIN(KM_CFG_CALLCHAIN, PROTO_CFG_CALLCHAIN);
PIN((KM_CFG_FIXED_PERIOD | KM_CFG_GENERAL_PATH) &
    (PROTO_CFG_KERNEL | PROTO_CFG_USER | PROTO_CFG_CALLCHAIN), 0);
PIN(KM_UNIT_CYCLES, PROTO_UNIT_CYCLES);
PIN(KM_UNIT_INSTRUCTIONS, PROTO_UNIT_INSTRUCTIONS);
PIN(KM_UNIT_MICROSECONDS, PROTO_UNIT_MICROSECONDS);
PIN(KM_MAX_GROUPS, PROTO_MAX_GROUPS);
PIN(KM_MAX_GROUP_EVENTS, PROTO_MAX_GROUP_EVENTS);
SAME_FIELD(km_config, unit, proto_pmu_config, unit);
SAME_FIELD(km_config, flags, proto_pmu_config, flags);
SAME_FIELD(km_config, slice, proto_pmu_config, slice);
SAME_FIELD(km_group_config, threshold[0], proto_group_event, threshold);

/* Samples and their chains (dci/monitor.c: push_samples, chain_of). */
PIN(KM_SMP_KERNEL, PROTO_SMP_KERNEL);
PIN(KM_SMP_USER, PROTO_SMP_USER);
PIN(KM_SMP_TRUNCATED, PROTO_SMP_TRUNCATED);
PIN(KM_SMP_UNCERTAIN, PROTO_SMP_UNCERTAIN);
PIN(KM_SMP_NO_OBJECT, PROTO_SMP_NO_OBJECT);
PIN(KM_MAX_CHAIN, PROTO_MAX_CHAIN_DEPTH);
SAME_FIELD(km_sample, timebase, proto_sample, timebase);
SAME_FIELD(km_sample, pc, proto_sample, pc);
SAME_FIELD(km_sample, pid, proto_sample, pid);
SAME_FIELD(km_sample, tid, proto_sample, tid);
SAME_FIELD(km_sample, cpu, proto_sample, cpu);
SAME_FIELD(km_sample, event, proto_sample, event);
SAME_FIELD(km_sample, flags, proto_sample, flags);
SAME_FIELD(km_sample, period, proto_sample, period);
SAME_FIELD(km_frame, pc, proto_chain_frame, pc);

/* Interval counts and lost samples (dci/monitor.c: push_counts, push_lost). */
SAME_FIELD(km_count, cpu, proto_count, cpu);
SAME_FIELD(km_count, group, proto_count, group);
SAME_FIELD(km_count, event, proto_count, event);
SAME_FIELD(km_count, raw, proto_count, raw);
SAME_FIELD(km_count, enabled, proto_count, enabled);
SAME_FIELD(km_count, running, proto_count, running);
SAME_FIELD(km_lost, cpu, proto_lost, cpu);
SAME_FIELD(km_lost, pmc, proto_lost, pmc);
SAME_FIELD(km_lost, event, proto_lost, event);
SAME_FIELD(km_lost, lost, proto_lost, lost);

/* Lock statistics (dci/monitor.c: lock_interval). */
PIN(KM_LOCK_SPIN, PROTO_LOCK_SPIN);
PIN(KM_LOCK_SLEEP, PROTO_LOCK_SLEEP);
PIN(KM_LOCK_FULL, PROTO_LOCK_FULL);
PIN(KM_LOCK_OWNER_SET, PROTO_LOCK_OWNER_SET);
PIN(KM_LOCK_SITES, PROTO_LOCK_SITES);
SAME_FIELD(km_lock_stats, lock, proto_lock, lock);
SAME_FIELD(km_lock_stats, kind, proto_lock, kind);
SAME_FIELD(km_lock_stats, flags, proto_lock, flags);
SAME_FIELD(km_lock_stats, acquisitions, proto_lock, acquisitions);
SAME_FIELD(km_lock_stats, contentions, proto_lock, contentions);
SAME_FIELD(km_lock_stats, wait_total, proto_lock, wait_total);
SAME_FIELD(km_lock_stats, wait_max, proto_lock, wait_max);
SAME_FIELD(km_lock_stats, wait_min, proto_lock, wait_min);
SAME_FIELD(km_lock_stats, holds, proto_lock, holds);
SAME_FIELD(km_lock_stats, hold_total, proto_lock, hold_total);
SAME_FIELD(km_lock_stats, hold_max, proto_lock, hold_max);
SAME_FIELD(km_lock_stats, bounces, proto_lock, bounces);
SAME_FIELD(km_lock_stats, trylock_failures, proto_lock, trylock_failures);
SAME_FIELD(km_lock_stats, qlen_samples, proto_lock, qlen_samples);
SAME_FIELD(km_lock_stats, qlen_sum, proto_lock, qlen_sum);
SAME_FIELD(km_lock_stats, qlen_max, proto_lock, qlen_max);
SAME_FIELD(km_lock_stats, other_sites, proto_lock, other_sites);
SAME_FIELD(km_lock_site, pc, proto_lock_site, pc);
SAME_FIELD(km_lock_site, count, proto_lock_site, count);

/* The platform's self-report (dci/platform.c sends km_platform_path.state as it is). */
PIN((int)KM_PATH_EXERCISED, (int)PROTO_PATH_EXERCISED);
PIN((int)KM_PATH_NEW, (int)PROTO_PATH_NEW);
PIN((int)KM_PATH_UNEXERCISED, (int)PROTO_PATH_UNEXERCISED);
PIN((int)KM_PATH_UNCHECKABLE, (int)PROTO_PATH_UNCHECKABLE);
_Static_assert(sizeof(((struct km_platform_path *)0)->name) <= PROTO_PLATFORM_NAME_MAX + 1,
	       "a path's name must fit PLATFORM's");
_Static_assert(sizeof(((struct km_platform_path *)0)->detail) <= PROTO_PLATFORM_DETAIL_MAX + 1,
	       "a path's detail must fit PLATFORM's");

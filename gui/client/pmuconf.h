/* PMU configuration files: named groups of events with time shares and sampling thresholds,
 * as kovctl configure and the viewer's configuration utility read and write them.
 *
 *   # comments run to the end of the line
 *   slice 10000 us              slice length: N us | N instructions | N cycles (default 10000 us)
 *   count kernel user           whose events count: kernel, user or both (default both)
 *   chains 16                   samples carry call chains of up to N frames (1-32; default
 *                               none)
 *   group spin 50               a group: its name (1-31 characters) and share in percent
 *     PM_INST_CMPL 100000       an event of the group and its sampling threshold
 *     PM_CYC                    (no threshold, or 0: counted, not sampled)
 *
 * Shares must add up to 100. Whether the events exist and fit the counters together is the
 * target's decision (it answers with the reason). */
#ifndef KOV_CLIENT_PMUCONF_H
#define KOV_CLIENT_PMUCONF_H

#include <stddef.h>
#include "proto/proto.h"

struct kov_pmuconf {
	struct proto_pmu_config cfg;     /* strings point into names[] */
	char names[PROTO_MAX_GROUPS * (1 + PROTO_MAX_GROUP_EVENTS)][PROTO_NAME_MAX + 1];
};

/* Parses text (len bytes): JSON when it starts with '{' (kov_pmuconf_parse_json), else the
 * text format above. 0, or -1 with "line N: what is wrong" in err. */
int kov_pmuconf_parse(const char *text, size_t len, struct kov_pmuconf *out, char *err, size_t n);
/* The same contents as JSON:
 *   { "slice": { "length": 10000, "unit": "us" }, "count": ["kernel", "user"], "chains": 16,
 *     "groups": [ { "name": "spin", "share": 100,
 *                   "events": [ { "name": "PM_INST_CMPL", "threshold": 100003 }, "PM_CYC" ] } ] } */
int kov_pmuconf_parse_json(const char *text, size_t len, struct kov_pmuconf *out, char *err,
                           size_t n);
/* Writes cfg in the same format; snprintf return semantics. */
int kov_pmuconf_format(const struct proto_pmu_config *cfg, char *buf, size_t n);

#endif

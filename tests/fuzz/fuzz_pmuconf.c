/* libFuzzer target: PMU configuration files, text and JSON (gui/client/pmuconf*.c). A file
 * that parses must encode as a PMU_CONFIG frame the daemon would accept, and what
 * kov_pmuconf_format writes of it must parse again to the same configuration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "client/pmuconf.h"

static bool same(const struct proto_pmu_config *a, const struct proto_pmu_config *b)
{
	if (a->unit != b->unit || a->flags != b->flags || a->slice != b->slice ||
	    a->chain_depth != b->chain_depth || a->n_groups != b->n_groups)
		return false;
	for (uint16_t g = 0; g < a->n_groups; g++) {
		const struct proto_group *x = &a->groups[g], *y = &b->groups[g];
		if (x->share != y->share || x->n_events != y->n_events || x->name.len != y->name.len ||
		    memcmp(x->name.s, y->name.s, x->name.len) != 0)
			return false;
		for (uint16_t e = 0; e < x->n_events; e++)
			if (x->events[e].threshold != y->events[e].threshold ||
			    x->events[e].name.len != y->events[e].name.len ||
			    memcmp(x->events[e].name.s, y->events[e].name.s, x->events[e].name.len) != 0)
				return false;
	}
	return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct kov_pmuconf a, b;
	static char text[64 * 1024];
	static uint8_t frame[PROTO_MAX_FRAME];
	char err[256];
	if (kov_pmuconf_parse((const char *)data, size, &a, err, sizeof err) != 0) {
		if (!memchr(err, 0, sizeof err) || !err[0])
			abort();   /* a refusal always says why */
		return 0;
	}
	int n = proto_encode_pmu_config(frame, sizeof frame, 1, 0, &a.cfg);
	if (n < 0) {
		fprintf(stderr, "a parsed configuration does not encode: %s\n", proto_strerror(n));
		abort();
	}
	int len = kov_pmuconf_format(&a.cfg, text, sizeof text);
	if (len < 0 || (size_t)len >= sizeof text)
		abort();
	if (kov_pmuconf_parse(text, (size_t)len, &b, err, sizeof err) != 0) {
		fprintf(stderr, "formatted configuration does not parse: %s\n%s", err, text);
		abort();
	}
	if (!same(&a.cfg, &b.cfg)) {
		fprintf(stderr, "formatted configuration parses to another one:\n%s", text);
		abort();
	}
	return 0;
}

/* kovctl throttle: the monitor's bound on its own cost (THROTTLE_GET), or with --limit a new
 * limit (THROTTLE_SET, controller only; off turns throttling off). */
#include <stdio.h>
#include "kovctl/kovctl.h"

int cmd_throttle(struct kovctl *k)
{
	if (k->o->has_limit) {
		int rc = kovctl_need_controller(k);
		if (rc)
			return rc;
	}
	struct proto_throttle t;
	if (kov_client_throttle(k->c, k->o->has_limit, k->o->limit_bp, &t))
		return kovctl_client_error(k);
	if (k->o->json) {
		struct json *j = &k->j;
		json_begin_object(j);
		json_kv_u64(j, "limit_bp", t.limit_bp);
		json_kv_bool(j, "on", t.limit_bp != 0);
		json_kv_u64(j, "factor", t.factor);
		json_kv_u64(j, "last_cost_bp", t.cost_bp);
		json_kv_u64(j, "changes", t.seq);
		json_kv_u64(j, "windows", t.windows);
		json_end_object(j);
		json_end(j);
		return EXIT_OK;
	}
	if (t.limit_bp)
		printf("limit %u.%02u%% of the CPUs' time; ", (unsigned)(t.limit_bp / 100),
		       (unsigned)(t.limit_bp % 100));
	else
		printf("throttling off; ");
	printf("sampling periods x%u%s; last window's cost %u.%02u%%; %llu changes in %llu windows\n",
	       (unsigned)t.factor, t.factor == 1 ? " (as asked)" : "", (unsigned)(t.cost_bp / 100),
	       (unsigned)(t.cost_bp % 100), (unsigned long long)t.seq, (unsigned long long)t.windows);
	return EXIT_OK;
}

/* kovctl status: the daemon's STATUS. */
#include <stdio.h>
#include "kovctl/kovctl.h"
#include "client/metrics.h"

int cmd_status(struct kovctl *k)
{
	struct proto_status s;
	if (kov_client_status(k->c, &s))
		return kovctl_client_error(k);
	if (k->o->json) {
		struct json *j = &k->j;
		json_begin_object(j);
		json_kv_u64(j, "timebase", s.timebase);
		json_kv_u64(j, "clients", s.clients);
		json_kv_u64(j, "controller", s.controller);
		json_kv_u64(j, "config_id", s.config_id);
		json_kv_hex(j, "streams", s.streams);
		json_kv_u64(j, "clients_cut_off", s.clients_cut_off);
		json_kv_u64(j, "frames_dropped", s.frames_dropped);
		json_kv_u64(j, "samples_lost", s.samples_lost);
		json_key(j, "samples_discarded");   /* null: a target before 1.3 does not say */
		kov_client_target(k->c)->minor >= 3 ? json_u64(j, s.samples_discarded) : json_null(j);
		json_kv_u64(j, "client_id", kov_client_target(k->c)->client_id);
		json_end_object(j);
		json_end(j);
		return EXIT_OK;
	}
	const struct kov_target *t = kov_client_target(k->c);
	printf("timebase         0x%llx (%.3f s)\n", (unsigned long long)s.timebase,
	       kov_ticks_to_s(s.timebase, t->timebase_hz));
	printf("clients          %u (this one is %u)\n", (unsigned)s.clients, (unsigned)t->client_id);
	if (s.controller)
		printf("controller       client %u\n", (unsigned)s.controller);
	else
		printf("controller       none\n");
	printf("config_id        %u\n", (unsigned)s.config_id);
	printf("streams          0x%x%s%s%s%s%s\n", (unsigned)s.streams, s.streams ? "" : " (stopped)",
	       s.streams & PROTO_STREAM_SAMPLES ? " samples" : "",
	       s.streams & PROTO_STREAM_COUNTS ? " counts" : "",
	       s.streams & PROTO_STREAM_LOCKS ? " locks" : "",
	       s.streams & PROTO_STREAM_INVOCATIONS ? " invocations" : "");
	printf("clients_cut_off  %u\n", (unsigned)s.clients_cut_off);
	printf("frames_dropped   %llu\n", (unsigned long long)s.frames_dropped);
	printf("samples_lost     %llu\n", (unsigned long long)s.samples_lost);
	if (t->minor >= 3)
		printf("samples_discarded %llu (drained while no client took the samples stream)\n",
		       (unsigned long long)s.samples_discarded);
	else
		printf("samples_discarded not reported (a protocol 1.%u target)\n", (unsigned)t->minor);
	return EXIT_OK;
}

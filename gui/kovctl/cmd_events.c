/* kovctl events: the target's event catalogue in the manner of `perf list`: grouped by what
 * holds for the events here (count and sample; count only; do not count), each group's
 * reason said once as its heading, each event with the counters it can go on (from its PMU
 * backend's table, found through the registry by the target's processor) and what it counts.
 * --json gives one object per event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/pmuconf_explain.h"
#include "common/monitor/pmu_backend.h"

/* The counters event `name` can go on, from the backend of the target's processor: "any PMC",
 * "PMC 1,2,5,6"; "kernel" for software events; "" when the table does not list it. */
static void counters_of(const struct pmu_backend *b, const struct kov_event *e, char *buf,
			size_t n)
{
	snprintf(buf, n, e->source == PROTO_SRC_HW ? "" : "kernel");
	for (size_t i = 0; b && e->source == PROTO_SRC_HW && i < b->n_events; i++)
		if (!strcmp(b->events[i].name, e->name))
			kov_pmcs_text(b->events[i].pmcs, buf, n);
}

static void events_json(struct kovctl *k, const struct kov_event *ev, size_t n,
			const struct pmu_backend *b)
{
	const struct kov_target *t = kov_client_target(k->c);
	json_begin_array(&k->j);
	for (size_t i = 0; i < n; i++) {
		char pmcs[32];
		counters_of(b, &ev[i], pmcs, sizeof pmcs);
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "index", i);
		json_kv_str(&k->j, "name", ev[i].name);
		json_kv_str(&k->j, "source", ev[i].source == PROTO_SRC_HW ? "hardware" : "software");
		json_kv_str(&k->j, "description", ev[i].description);
		json_kv_str(&k->j, "counters", pmcs);
		json_kv_bool(&k->j, "counts_here", ev[i].flags & PROTO_EV_COUNTS_HERE);
		json_kv_bool(&k->j, "samples_here", ev[i].flags & PROTO_EV_SAMPLES_HERE);
		json_kv_str(&k->j, "basis", kov_event_basis(t, &ev[i]));
		int modes = kov_event_modes_filtered(t, &ev[i]);
		json_key(&k->j, "privilege_filter");   /* null: not reported (before 1.3) */
		modes < 0 ? json_null(&k->j) : json_bool(&k->j, modes);
		json_kv_str(&k->j, "why_not", ev[i].why_not);
		json_end_object(&k->j);
	}
	json_end_array(&k->j);
	json_end(&k->j);
}

/* The events whose why_not is `why`, under its heading. */
static void events_section(const struct kovctl *k, const struct kov_event *ev, size_t n,
			   const struct pmu_backend *b, const char *why, bool counts)
{
	const struct kov_target *t = kov_client_target(k->c);
	if (!why[0])
		printf("Count and sample here:\n");
	else
		printf("%s here: %s\n", counts ? "Count, but do not sample" : "Do not count", why);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(ev[i].why_not, why))
			continue;
		char pmcs[32], tags[96];
		counters_of(b, &ev[i], pmcs, sizeof pmcs);
		int modes = kov_event_modes_filtered(t, &ev[i]);
		int at = snprintf(tags, sizeof tags, "%s%s%s", ev[i].source == PROTO_SRC_HW ? "hardware" :
				  "software", pmcs[0] && ev[i].source == PROTO_SRC_HW ? ", " : "",
				  ev[i].source == PROTO_SRC_HW ? pmcs : "");
		const char *basis = kov_event_basis(t, &ev[i]);
		if (ev[i].flags & PROTO_EV_COUNTS_HERE)   /* a software event's basis is its source */
			snprintf(tags + at, sizeof tags - (size_t)at, "%s%s%s",
				 strcmp(basis, "software") ? ", " : "", strcmp(basis, "software") ? basis : "",
				 modes < 0 ? "" : modes ? ", one mode" : ", both modes");
		printf("  %-30s [%s]\n", ev[i].name, tags);
		if (ev[i].description[0])
			printf("       %s\n", ev[i].description);
	}
	printf("\n");
}

int cmd_events(struct kovctl *k)
{
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n);
	const struct pmu_backend *b = pmu_backend_for_pvr(kov_client_target(k->c)->pvr);
	if (k->o->json) {
		events_json(k, ev, n, b);
		return EXIT_OK;
	}
	/* Sections in the order their reasons first appear, those that count first. */
	for (int pass = 0; pass < 3; pass++)
		for (size_t i = 0; i < n; i++) {
			bool counts = ev[i].flags & PROTO_EV_COUNTS_HERE, first = true;
			for (size_t j = 0; j < i; j++)
				first &= !!strcmp(ev[j].why_not, ev[i].why_not);
			int kind = !ev[i].why_not[0] ? 0 : counts ? 1 : 2;
			if (first && kind == pass)
				events_section(k, ev, n, b, ev[i].why_not, counts);
		}
	printf("[counters the event can go on on this processor; the basis of its counts here "
	       "(measured by the boot probe, assumed, software: the kernel counts it); whether "
	       "counting only the kernel or only user mode is honoured (one mode) or its counts "
	       "include both whatever the configuration asks (both modes)]\n");
	return EXIT_OK;
}

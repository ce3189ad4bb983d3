/* kovctl configure, start, stop and counts: the monitor's control, and the scaled interval
 * counts it pushes (events, the catalogue, is cmd_events.c). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/pmuconf.h"
#include "common/monitor/mux.h"
#include "client/metrics.h"

static uint8_t frame[PROTO_MAX_FRAME];

int kovctl_need_controller(struct kovctl *k)
{
	if (kov_client_target(k->c)->role == PROTO_ROLE_CONTROLLER)
		return EXIT_OK;
	fprintf(stderr, "kovctl: %s needs the controller role: pass --token (%s)\n", k->o->cmd_name,
		kov_client_target(k->c)->reason[0] ? kov_client_target(k->c)->reason : "observing");
	return EXIT_NOT_CONTROLLER;
}

static void print_config(struct kovctl *k, const struct proto_pmu_config *cfg)
{
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "config_id", cfg->config_id);
		json_kv_u64(&k->j, "slice", cfg->slice);
		json_kv_str(&k->j, "unit", cfg->unit == PROTO_UNIT_CYCLES ? "cycles" :
			    cfg->unit == PROTO_UNIT_INSTRUCTIONS ? "instructions" : "us");
		json_kv_bool(&k->j, "kernel", cfg->flags & PROTO_CFG_KERNEL);
		json_kv_bool(&k->j, "user", cfg->flags & PROTO_CFG_USER);
		json_key(&k->j, "groups");
		json_begin_array(&k->j);
		for (unsigned g = 0; g < cfg->n_groups; g++) {
			const struct proto_group *pg = &cfg->groups[g];
			json_begin_object(&k->j);
			json_key(&k->j, "name");
			json_strn(&k->j, pg->name.s, pg->name.len);
			json_kv_u64(&k->j, "share", pg->share);
			json_key(&k->j, "events");
			json_begin_array(&k->j);
			for (unsigned e = 0; e < pg->n_events; e++) {
				json_begin_object(&k->j);
				json_key(&k->j, "name");
				json_strn(&k->j, pg->events[e].name.s, pg->events[e].name.len);
				json_kv_u64(&k->j, "threshold", pg->events[e].threshold);
				json_end_object(&k->j);
			}
			json_end_array(&k->j);
			json_end_object(&k->j);
		}
		json_end_array(&k->j);
		json_end_object(&k->j);
		json_end(&k->j);
		return;
	}
	char text[8192];
	kov_pmuconf_format(cfg, text, sizeof text);
	printf("configuration %u applied:\n%s", (unsigned)cfg->config_id, text);
}

/* Sends a configuration and prints what the target applied. */
int kovctl_configure(struct kovctl *k, const struct proto_pmu_config *cfg, bool quiet)
{
	struct kov_answer a;
	int n = proto_encode_pmu_config(frame, sizeof frame, 0, 0, cfg);
	if (n < 0) {
		fprintf(stderr, "kovctl: the configuration cannot be sent: %s\n", proto_strerror(n));
		return EXIT_USAGE;
	}
	if (kov_client_call(k->c, frame, (size_t)n, &a) < 0)
		return kovctl_client_error(k);
	struct proto_pmu_config applied;
	int rc = proto_decode_pmu_config(&a.frames[a.count - 1].f, &applied);
	if (rc == 0 && !quiet)
		print_config(k, &applied);
	kov_answer_free(&a);
	return rc == 0 ? EXIT_OK : EXIT_TARGET;
}

int kovctl_load_conf(const char *file, const struct kov_pmuconf **conf)
{
	static char text[256 * 1024];
	static struct kov_pmuconf parsed;
	FILE *f = fopen(file, "rb");
	if (!f) {
		fprintf(stderr, "kovctl: cannot open %s\n", file);
		return EXIT_USAGE;
	}
	size_t len = fread(text, 1, sizeof text, f);
	bool too_big = !feof(f);
	fclose(f);
	if (too_big) {
		fprintf(stderr, "kovctl: %s is larger than 256 KiB\n", file);
		return EXIT_USAGE;
	}
	char err[300];
	if (kov_pmuconf_parse(text, len, &parsed, err, sizeof err) < 0) {
		fprintf(stderr, "kovctl: %s: %s\n", file, err);
		return EXIT_USAGE;
	}
	*conf = &parsed;
	return EXIT_OK;
}

int cmd_configure(struct kovctl *k)
{
	int rc = kovctl_need_controller(k);
	return rc ? rc : kovctl_configure(k, &k->conf->cfg, false);
}

int kovctl_start(struct kovctl *k, uint32_t streams, uint32_t interval_us)
{
	struct proto_start s = { streams, interval_us };
	struct kov_answer a;
	int n = proto_encode_start(frame, sizeof frame, 0, 0, &s);
	if (n < 0 || kov_client_call(k->c, frame, (size_t)n, &a) < 0)
		return kovctl_client_error(k);
	kov_answer_free(&a);
	return EXIT_OK;
}

int kovctl_stop(struct kovctl *k)
{
	struct kov_answer a;
	int n = proto_encode_empty(frame, sizeof frame, PROTO_STOP, 0, 0);
	if (kov_client_call(k->c, frame, (size_t)n, &a) < 0)
		return kovctl_client_error(k);
	kov_answer_free(&a);
	return EXIT_OK;
}

int cmd_start(struct kovctl *k)
{
	int rc = kovctl_need_controller(k);
	if (rc)
		return rc;
	uint32_t streams = k->o->streams ? k->o->streams : PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS;
	rc = kovctl_start(k, streams, k->o->interval_ms * 1000);
	if (rc == EXIT_OK && !k->o->json)
		printf("monitoring started\n");
	return rc;
}

int cmd_stop(struct kovctl *k)
{
	int rc = kovctl_need_controller(k);
	if (rc)
		return rc;
	rc = kovctl_stop(k);
	if (rc == EXIT_OK && !k->o->json)
		printf("monitoring stopped\n");
	return rc;
}

/* ---- counts ------------------------------------------------------------------------------ */

struct counts {
	struct kov_counts sum;       /* per group and event over CPUs and intervals */
	uint64_t intervals, first, last;
	uint32_t config_id;
};

static void on_counts(void *arg, const struct proto_frame *f)
{
	struct counts *s = arg;
	struct proto_counts_head h;
	if (!kov_counts_add_frame(&s->sum, f, &h))
		return;
	if (!s->intervals++)
		s->first = h.start;
	s->last = h.end;
	s->config_id = h.config_id;
}

/* The metrics derived from the counts (gui/client/metrics.h's pairing rule), where every
 * event they need was counted; IPC says when its cycles are emulated. */
static void print_derived(struct kovctl *k, const struct kov_counts *sum)
{
	size_t n_ev;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n_ev);
	bool emulated = kov_cycles_emulated(kov_client_target(k->c), ev, n_ev);
	struct kov_metric_set set;
	kov_metric_set_init(&set, ev, n_ev);
	if (k->o->json) {
		json_kv_bool(&k->j, "cycles_emulated", emulated);
		json_key(&k->j, "derived");
		json_begin_array(&k->j);
	}
	bool header = false;
	for (int m = 0; m < KOV_METRICS; m++) {
		struct kov_ratio r = kov_metric_compute(&set, (enum kov_metric)m, sum);
		if (r.how == KOV_NOT_COUNTED)
			continue;
		const struct kov_metric_def *d = kov_metric_def((enum kov_metric)m);
		const char *label = m == KOV_METRIC_IPC ? kov_ipc_label(emulated) : d->method;
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_str(&k->j, "metric", d->key);
			json_kv_str(&k->j, "title", kov_metric_title((enum kov_metric)m, emulated));
			json_kv_double(&k->j, "value", r.value);
			json_kv_str(&k->j, "unit", d->unit);
			json_kv_str(&k->j, "pairing", kov_pairing_name(r.how));
			json_kv_str(&k->j, "label", label);
			json_end_object(&k->j);
			continue;
		}
		if (!header)
			printf("derived (counts of one group paired, else each scaled by enabled/running):\n");
		header = true;
		printf("  %-31s %12.4g%-9s %-10s %s\n", kov_metric_title((enum kov_metric)m, emulated), r.value, d->unit, kov_pairing_name(r.how),
		       label);
	}
	if (k->o->json)
		json_end_array(&k->j);
}

/* Waits S seconds collecting pushed frames (handler set by the caller). */
int kovctl_collect(struct kovctl *k, double seconds)
{
	uint64_t end = kov_now_ns() + (uint64_t)(seconds * 1e9);
	for (uint64_t now; (now = kov_now_ns()) < end;) {
		int ms = (int)((end - now) / 1000000) + 1;
		if (kov_client_pump(k->c, ms > 200 ? 200 : ms) < 0)
			return kovctl_client_error(k);
	}
	return EXIT_OK;
}

int kovctl_running(struct kovctl *k, struct proto_status *st)
{
	if (kov_client_status(k->c, st) < 0)
		return kovctl_client_error(k);
	return EXIT_OK;
}

int cmd_counts(struct kovctl *k)
{
	struct proto_status st;
	int rc = kovctl_running(k, &st);
	if (rc)
		return rc;
	if (!(st.streams & PROTO_STREAM_COUNTS)) {
		fprintf(stderr, "kovctl: the target is not streaming interval counts: "
			"configure and start monitoring first (kovctl configure FILE; kovctl start)\n");
		return EXIT_TARGET;
	}
	static struct counts s;
	memset(&s, 0, sizeof s);
	kov_client_on_push(k->c, on_counts, &s);
	struct kovctl_period period;
	struct kov_losses losses;
	kovctl_period_begin(k, &period);
	rc = kovctl_collect(k, k->o->seconds > 0 ? k->o->seconds : 2);
	if (!rc)
		rc = kovctl_period_end(k, &period, &losses);
	struct kovctl_modes modes;
	if (!rc)
		rc = kovctl_modes_check(k, &modes);
	if (rc)
		return rc;
	size_t n_ev;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n_ev);
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "config_id", s.config_id);
		json_kv_u64(&k->j, "intervals", s.intervals);
		kovctl_losses_report(k, &losses, true);
		kovctl_modes_report(k, &modes);
		json_key(&k->j, "counts");
		json_begin_array(&k->j);
	} else {
		printf("configuration %u, %llu intervals\n", (unsigned)s.config_id,
		       (unsigned long long)s.intervals);
		kovctl_losses_report(k, &losses, false);
		kovctl_modes_report(k, &modes);
		if (losses.dropped[KOV_DROP_COUNTS])
			printf("the sums miss %llu interval counts the daemon dropped: RAW, ENABLED and "
			       "RUNNING are low (the ratios below are of what arrived)\n",
			       (unsigned long long)losses.dropped[KOV_DROP_COUNTS]);
		printf("%-5s %-22s %14s %14s %14s %14s %8s\n", "GROUP", "EVENT", "RAW", "ENABLED",
		       "RUNNING", "SCALED", "+/-");
	}
	for (size_t i = 0; i < s.sum.n; i++) {
		const struct kov_count_cell *cell = &s.sum.cell[i];
		struct mux_count mc = { cell->raw, cell->enabled, cell->running };
		struct mux_estimate e = mux_estimate(&mc);
		const char *name = cell->event < n_ev ? ev[cell->event].name : "?";
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_u64(&k->j, "group", cell->group);
			json_kv_str(&k->j, "event", name);
			json_kv_u64(&k->j, "raw", cell->raw);
			json_kv_u64(&k->j, "enabled", cell->enabled);
			json_kv_u64(&k->j, "running", cell->running);
			json_kv_bool(&k->j, "counted", e.counted);
			json_kv_u64(&k->j, "scaled", e.value);
			json_kv_u64(&k->j, "stddev", e.stddev);
			json_end_object(&k->j);
		} else if (!e.counted) {
			printf("%-5u %-22s %14llu %14llu %14llu %14s %8s\n", cell->group, name,
			       (unsigned long long)cell->raw, (unsigned long long)cell->enabled,
			       (unsigned long long)cell->running, "not counted", "");
		} else {
			printf("%-5u %-22s %14llu %14llu %14llu %14llu %8llu\n", cell->group, name,
			       (unsigned long long)cell->raw, (unsigned long long)cell->enabled,
			       (unsigned long long)cell->running, (unsigned long long)e.value,
			       (unsigned long long)e.stddev);
		}
	}
	if (k->o->json)
		json_end_array(&k->j);
	print_derived(k, &s.sum);
	kovctl_json_end(k, false);
	if (s.sum.not_kept && !k->o->json)
		printf("%llu records of (group, event) pairs beyond the first %d were not summed\n",
		       (unsigned long long)s.sum.not_kept, KOV_COUNT_CELLS);
	if (!s.intervals) {
		fprintf(stderr, "kovctl: no interval counts arrived\n");
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

int cmd_instrument(struct kovctl *k)
{
	int rc = kovctl_need_controller(k);
	if (rc)
		return rc;
	uint16_t what = k->o->what ? k->o->what : PROTO_INSTR_INVOCATIONS;
	struct proto_instrument m = { k->o->pid, k->o->coid, what, k->o->on };
	struct kov_answer a;
	int n = proto_encode_instrument(frame, sizeof frame, 0, 0, &m);
	if (n < 0 || kov_client_call(k->c, frame, (size_t)n, &a) < 0)
		return kovctl_client_error(k);
	kov_answer_free(&a);
	if (!k->o->json)
		printf("%s %s for %s of pid %u\n", what == PROTO_INSTR_SLEEPLOCKS ? "sleep-lock figures" :
		       what == PROTO_INSTR_LOCKS_FULL ? "full lock counting" : "invocation counting", m.on ? "on" : "off", m.coid ? "one object" : "every object",
		       (unsigned)m.pid);
	return EXIT_OK;
}

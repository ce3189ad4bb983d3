/* kovctl events, configure, start, stop and counts: the monitor's catalogue and control, and
 * the scaled interval counts it pushes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/pmuconf.h"
#include "kov/mux.h"

static uint8_t frame[PROTO_MAX_FRAME];

int cmd_events(struct kovctl *k)
{
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n);
	if (k->o->json) {
		json_begin_array(&k->j);
		for (size_t i = 0; i < n; i++) {
			json_begin_object(&k->j);
			json_kv_u64(&k->j, "index", i);
			json_kv_str(&k->j, "name", ev[i].name);
			json_kv_str(&k->j, "source", ev[i].source == PROTO_SRC_HW ? "hardware" : "software");
			json_kv_bool(&k->j, "counts_here", ev[i].flags & PROTO_EV_COUNTS_HERE);
			json_kv_bool(&k->j, "samples_here", ev[i].flags & PROTO_EV_SAMPLES_HERE);
			json_kv_str(&k->j, "why_not", ev[i].why_not);
			json_end_object(&k->j);
		}
		json_end_array(&k->j);
		json_end(&k->j);
		return EXIT_OK;
	}
	printf("%-4s %-26s %-8s %-6s %-7s %s\n", "#", "EVENT", "SOURCE", "COUNTS", "SAMPLES",
	       "WHY NOT");
	for (size_t i = 0; i < n; i++)
		printf("%-4zu %-26s %-8s %-6s %-7s %s\n", i, ev[i].name,
		       ev[i].source == PROTO_SRC_HW ? "hardware" : "software",
		       ev[i].flags & PROTO_EV_COUNTS_HERE ? "yes" : "no",
		       ev[i].flags & PROTO_EV_SAMPLES_HERE ? "yes" : "no", ev[i].why_not);
	return EXIT_OK;
}

/* EXIT_OK, or EXIT_NOT_CONTROLLER with the reason. */
static int need_controller(struct kovctl *k)
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
	int rc = need_controller(k);
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
	int rc = need_controller(k);
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
	int rc = need_controller(k);
	if (rc)
		return rc;
	rc = kovctl_stop(k);
	if (rc == EXIT_OK && !k->o->json)
		printf("monitoring stopped\n");
	return rc;
}

/* ---- counts ------------------------------------------------------------------------------ */

struct count_key { uint16_t group, event; struct mux_count c; };
struct counts {
	struct count_key k[1024];
	size_t n;
	uint64_t intervals, first, last;
	uint32_t config_id;
};

static void on_counts(void *arg, const struct proto_frame *f)
{
	struct counts *s = arg;
	if (f->type != PROTO_INTERVAL_COUNTS)
		return;
	struct proto_counts_head h;
	struct proto_iter it;
	struct proto_count c;
	if (proto_decode_interval_counts(f, &h, &it) < 0)
		return;
	if (!s->intervals++)
		s->first = h.start;
	s->last = h.end;
	s->config_id = h.config_id;
	while (proto_next_count(&it, &c)) {
		size_t i = 0;
		while (i < s->n && (s->k[i].group != c.group || s->k[i].event != c.event))
			i++;
		if (i == s->n) {
			if (s->n == 1024)
				continue;
			s->k[s->n++] = (struct count_key){ c.group, c.event, { 0, 0, 0 } };
		}
		/* Summed over CPUs: each CPU's enabled/running time is its own. */
		s->k[i].c.raw += c.raw;
		s->k[i].c.enabled += c.enabled;
		s->k[i].c.running += c.running;
	}
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
	kov_client_on_push(k->c, on_counts, &s);
	rc = kovctl_collect(k, k->o->seconds > 0 ? k->o->seconds : 2);
	if (rc)
		return rc;
	size_t n_ev;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n_ev);
	if (k->o->json) {
		json_begin_object(&k->j);
		json_kv_u64(&k->j, "config_id", s.config_id);
		json_kv_u64(&k->j, "intervals", s.intervals);
		json_key(&k->j, "counts");
		json_begin_array(&k->j);
	} else {
		printf("configuration %u, %llu intervals\n", (unsigned)s.config_id,
		       (unsigned long long)s.intervals);
		printf("%-5s %-22s %14s %14s %14s %14s %8s\n", "GROUP", "EVENT", "RAW", "ENABLED",
		       "RUNNING", "SCALED", "+/-");
	}
	for (size_t i = 0; i < s.n; i++) {
		const struct count_key *c = &s.k[i];
		struct mux_estimate e = mux_estimate(&c->c);
		const char *name = c->event < n_ev ? ev[c->event].name : "?";
		if (k->o->json) {
			json_begin_object(&k->j);
			json_kv_u64(&k->j, "group", c->group);
			json_kv_str(&k->j, "event", name);
			json_kv_u64(&k->j, "raw", c->c.raw);
			json_kv_u64(&k->j, "enabled", c->c.enabled);
			json_kv_u64(&k->j, "running", c->c.running);
			json_kv_bool(&k->j, "counted", e.counted);
			json_kv_u64(&k->j, "scaled", e.value);
			json_kv_u64(&k->j, "stddev", e.stddev);
			json_end_object(&k->j);
		} else if (!e.counted) {
			printf("%-5u %-22s %14llu %14llu %14llu %14s %8s\n", c->group, name,
			       (unsigned long long)c->c.raw, (unsigned long long)c->c.enabled,
			       (unsigned long long)c->c.running, "not counted", "");
		} else {
			printf("%-5u %-22s %14llu %14llu %14llu %14llu %8llu\n", c->group, name,
			       (unsigned long long)c->c.raw, (unsigned long long)c->c.enabled,
			       (unsigned long long)c->c.running, (unsigned long long)e.value,
			       (unsigned long long)e.stddev);
		}
	}
	if (k->o->json) {
		json_end_array(&k->j);
		json_end_object(&k->j);
		json_end(&k->j);
	}
	if (!s.intervals) {
		fprintf(stderr, "kovctl: no interval counts arrived\n");
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

int cmd_instrument(struct kovctl *k)
{
	int rc = need_controller(k);
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

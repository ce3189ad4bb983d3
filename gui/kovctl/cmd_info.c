/* kovctl info: the target's description from the handshake (how its CPUs ran included), its
 * kernel's wake-up counters (WAKEUPS_GET, read now), its platform's self-report (PLATFORM_GET)
 * and its event catalogue. */
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "kovctl/kovctl.h"

static const char *yes_no(bool b) { return b ? "yes" : "no"; }
static const char *source_name(uint8_t s) { return s == PROTO_SRC_HW ? "hw" : "sw"; }

/* The wake-up counters as an object, or null from a target before 1.5. */
static void wakeups_json(struct json *j, const struct proto_wakeups *w)
{
	json_key(j, "wake_ups");
	if (!w) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_u64(j, "rescues", w->rescues);
	json_kv_u64(j, "watchdog_resets", w->resets);
	json_kv_u64(j, "prods", w->prods);
	json_kv_u64(j, "late_max_us", w->late_max_us);
	json_kv_u64(j, "ticks_pending", w->ticks_pending);
	json_end_object(j);
}

/* The clock at boot as "YYYY-MM-DD HH:MM:SS UTC". */
static const char *utc(uint64_t seconds, char *buf, size_t size)
{
	time_t tt = (time_t)seconds;
	struct tm tm;
	if (!gmtime_r(&tt, &tm) || !strftime(buf, size, "%Y-%m-%d %H:%M:%S UTC", &tm))
		snprintf(buf, size, "%llu s since 1970", (unsigned long long)seconds);
	return buf;
}

/* The self-report as an object, or null from a target before 1.8. */
static void platform_json(struct json *j, const struct kov_platform *p)
{
	json_key(j, "platform");
	if (!p) {
		json_null(j);
		return;
	}
	json_begin_object(j);
	json_kv_str(j, "name", p->platform);
	json_kv_str(j, "controller", p->power_ctl);
	json_kv_bool(j, "emulated", p->emulated);
	json_key(j, "rtc_boot");
	p->rtc_ok ? json_u64(j, p->rtc_boot) : json_null(j);
	json_key(j, "paths");
	json_begin_array(j);
	for (size_t i = 0; i < p->n_paths; i++) {
		json_begin_object(j);
		json_kv_str(j, "path", p->paths[i].name);
		json_kv_str(j, "state", proto_path_state_name(p->paths[i].state));
		json_kv_str(j, "detail", p->paths[i].detail);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
}

static void print_platform(const struct kov_target *t, const struct kov_platform *p)
{
	char when[48];
	if (!p) {
		printf("platform   not reported (protocol %u.%u target)\n", (unsigned)t->major,
		       (unsigned)t->minor);
		return;
	}
	printf("platform   %s, %s; clock at boot %s; %s\n", p->platform, p->power_ctl,
	       p->rtc_ok ? utc(p->rtc_boot, when, sizeof when) : "not read",
	       p->emulated ? "emulated by QEMU" : "not QEMU: paths exercised only under QEMU are new");
	for (size_t i = 0; i < p->n_paths; i++)
		printf("path       %s: %s; %s\n", p->paths[i].name,
		       proto_path_state_name(p->paths[i].state), p->paths[i].detail);
}

static void info_json(struct kovctl *k, const struct kov_target *t, const struct proto_wakeups *w,
                      const struct kov_platform *p, const struct kov_event *ev, size_t n)
{
	struct json *j = &k->j;
	json_begin_object(j);
	json_kv_str(j, "target", k->target);
	json_kv_str(j, "profile", t->profile);
	json_kv_str(j, "model", t->model);
	json_kv_u64(j, "cpus", t->cpus);
	kovctl_machine_report(k);
	wakeups_json(j, w);
	platform_json(j, p);
	json_kv_hex(j, "pvr", t->pvr);
	json_kv_str(j, "processor", kov_pvr_name(t->pvr));
	json_kv_u64(j, "memory", t->memory);
	json_kv_u64(j, "timebase_hz", t->timebase_hz);
	json_kv_u64(j, "timebase_now", t->timebase_now);
	json_kv_str(j, "pmu", t->pmu);
	json_kv_str(j, "build_id", t->build_id);
	json_kv_str(j, "server", t->server);
	char ver[16];
	snprintf(ver, sizeof ver, "%u.%u", (unsigned)t->major, (unsigned)t->minor);
	json_kv_str(j, "protocol", ver);
	json_kv_str(j, "role", kov_role_name(t->role));
	json_kv_u64(j, "client_id", t->client_id);
	json_kv_str(j, "reason", t->reason);
	json_kv_u64(j, "events", n);
	json_key(j, "catalogue");
	json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		json_begin_object(j);
		json_kv_u64(j, "index", i);
		json_kv_str(j, "name", ev[i].name);
		json_kv_str(j, "source", source_name(ev[i].source));
		json_kv_hex(j, "code", ev[i].code);
		json_kv_bool(j, "counts_here", ev[i].flags & PROTO_EV_COUNTS_HERE);
		json_kv_bool(j, "can_sample", ev[i].flags & PROTO_EV_CAN_SAMPLE);
		json_kv_bool(j, "samples_here", ev[i].flags & PROTO_EV_SAMPLES_HERE);
		json_kv_str(j, "description", ev[i].description);
		json_kv_str(j, "why_not", ev[i].why_not);
		json_end_object(j);
	}
	json_end_array(j);
	json_end_object(j);
	json_end(j);
}

static void print_memory(uint64_t bytes)
{
	if (bytes && bytes % (1u << 20) == 0)
		printf("%llu MiB\n", (unsigned long long)(bytes >> 20));
	else
		printf("%llu bytes\n", (unsigned long long)bytes);
}

/* What the CPUs' concurrency means for the figures, after their count. */
static const char *cpus_how(const struct kov_target *t)
{
	if (!kov_target_reports_machine(t))
		return "how they run is not reported by this target's protocol version";
	switch (t->cpus_run) {
	case PROTO_CPUS_PARALLEL: return "run in parallel";
	case PROTO_CPUS_TAKE_TURNS: return "take turns on one host thread: lock waits are round-robin "
	                                   "artefacts";
	default: return "how they run is unknown: one CPU, or not measured";
	}
}

static void print_wakeups(const struct kov_target *t, const struct proto_wakeups *w)
{
	if (!w) {
		printf("wake-ups   not reported (protocol %u.%u target)\n", (unsigned)t->major,
		       (unsigned)t->minor);
		return;
	}
	char late[32];
	if (w->late_max_us < 1000)
		snprintf(late, sizeof late, "%llu us", (unsigned long long)w->late_max_us);
	else
		snprintf(late, sizeof late, "%.1f ms", (double)w->late_max_us / 1000);
	printf("wake-ups   %llu rescued, %llu watchdog resets, %llu prods, longest late %s, "
	       "%llu ticks found pending\n", (unsigned long long)w->rescues,
	       (unsigned long long)w->resets, (unsigned long long)w->prods, late,
	       (unsigned long long)w->ticks_pending);
}

int cmd_info(struct kovctl *k)
{
	const struct kov_target *t = kov_client_target(k->c);
	size_t n;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n);
	/* Live counters: asked for now, where the target has them. */
	struct proto_wakeups wake, *wakeups = NULL;
	if (kov_target_reports_machine(t)) {
		if (kov_client_wakeups(k->c, &wake))
			return kovctl_client_error(k);
		wakeups = &wake;
	}
	static struct kov_platform plat;
	const struct kov_platform *platform = NULL;
	if (t->major == 1 && t->minor >= 8) {
		if (kov_client_platform(k->c, &plat))
			return kovctl_client_error(k);
		platform = &plat;
	}
	if (k->o->json) {
		info_json(k, t, wakeups, platform, ev, n);
		return EXIT_OK;
	}
	printf("target     %s\n", k->target);
	printf("profile    %s\n", t->profile);
	printf("model      %s\n", t->model[0] ? t->model : "-");
	printf("cpus       %u (%s)\n", (unsigned)t->cpus, cpus_how(t));
	print_wakeups(t, wakeups);
	print_platform(t, platform);
	printf("pvr        0x%08x (%s)\n", (unsigned)t->pvr, kov_pvr_name(t->pvr));
	printf("memory     ");
	print_memory(t->memory);
	printf("timebase   %llu Hz\n", (unsigned long long)t->timebase_hz);
	printf("pmu        %s\n", t->pmu[0] ? t->pmu : "-");
	printf("build      %s\n", t->build_id[0] ? t->build_id : "-");
	printf("server     %s (protocol %u.%u)\n", t->server[0] ? t->server : "-",
	       (unsigned)t->major, (unsigned)t->minor);
	printf("role       %s (client id %u)%s%s\n", kov_role_name(t->role), (unsigned)t->client_id,
	       t->reason[0] ? ": " : "", t->reason);
	printf("events     %zu\n", n);
	if (n == 0)
		return EXIT_OK;

	int w = (int)strlen("EVENT");
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(ev[i].name) > w)
			w = (int)strlen(ev[i].name);
	printf("\n%-*s  SOURCE  COUNTS  SAMPLES  WHY NOT\n", w, "EVENT");
	for (size_t i = 0; i < n; i++)
		printf("%-*s  %-6s  %-6s  %-*s%s%s\n", w, ev[i].name, source_name(ev[i].source),
		       yes_no(ev[i].flags & PROTO_EV_COUNTS_HERE), ev[i].why_not[0] ? 7 : 0,
		       yes_no(ev[i].flags & PROTO_EV_SAMPLES_HERE), ev[i].why_not[0] ? "  " : "",
		       ev[i].why_not);
	return EXIT_OK;
}

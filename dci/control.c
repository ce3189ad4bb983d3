/* The monitoring requests: PMU_CONFIG, CONFIG_GET, START, STOP and INSTRUMENT turned into
 * the KM's calls. A configuration applied is pushed to every other client, and STATUS to all
 * when what runs changes. The handlers are registered in dispatch.c. */
#include "monitor.h"
#include <km.h>
#include "subscribers.h"
#include "dispatch.h"
#include "status.h"
#include "kernel/abi/kov_instr.h"

static void encode_applied(const struct km_config *k, struct proto_pmu_config *p)
{
	/* KM_CFG_FIXED_PERIOD and KM_CFG_GENERAL_PATH (set only by kmcheck) have no protocol bit:
	 * clients see the rest. */
	uint16_t flags = k->flags & (KM_CFG_KERNEL | KM_CFG_USER | KM_CFG_CALLCHAIN);
	*p = (struct proto_pmu_config){ .config_id = k->id, .unit = k->unit, .flags = flags,
					.slice = k->slice, .n_groups = (uint16_t)k->n_groups,
					.chain_depth = flags & KM_CFG_CALLCHAIN ? (uint16_t)k->chain_depth : 0 };
	for (uint32_t g = 0; g < k->n_groups; g++) {
		const struct km_group_config *kg = &k->group[g];
		struct proto_group *pg = &p->groups[g];
		pg->name = (struct proto_str){ kg->name, (uint16_t)strlen(kg->name) };
		pg->share = (uint16_t)kg->share;
		pg->n_events = (uint16_t)kg->n_events;
		for (uint32_t e = 0; e < kg->n_events; e++) {
			const char *name = kg->event[e] < target.n_events ? target.events[kg->event[e]].name : "?";
			pg->events[e] = (struct proto_group_event){ { name, (uint16_t)strlen(name) },
								    kg->threshold[e] };
		}
	}
}

static struct km_config kcfg;

void monitor_config_get(struct client *c, const struct proto_frame *f)
{
	struct proto_pmu_config p;
	/* Until the first PMU_CONFIG the KM's configuration is all zeros, a unit and slice of 0
	 * that no PMU_CONFIG may carry: that is "none", said the protocol's way. (Cleared later,
	 * it keeps the unit, modes and slice it was cleared with, which are valid.) */
	if (km_config_get(&kcfg) < 0 || kcfg.unit == 0)
		proto_pmu_config_none(&p);
	else
		encode_applied(&kcfg, &p);
	int n = proto_encode_pmu_config(monitor_out, sizeof monitor_out, f->req, 0, &p);
	if (n > 0)
		client_queue(c, monitor_out, (size_t)n);
	else    /* the KM applied what the protocol cannot say: the daemon's fault, not the client's */
		client_error(c, f->req, PROTO_CONFIG_GET, PROTO_E_INTERNAL, "cannot encode the configuration");
}

void monitor_pmu_config(struct client *c, const struct proto_frame *f)
{
	static struct proto_pmu_config p;
	proto_decode_pmu_config(f, &p);
	if (p.config_id != 0) {
		/* The server numbers configurations; a client's number would pose as one of them. */
		char why[120];
		snprintf(why, sizeof why, "config_id must be 0 from a client (got %u): the server numbers "
			 "the configurations it applies", (unsigned)p.config_id);
		client_error(c, f->req, f->type, PROTO_E_CONFIG, why);
		return;
	}
	memset(&kcfg, 0, sizeof kcfg);
	kcfg.n_groups = p.n_groups;
	kcfg.unit = p.unit;
	kcfg.flags = p.flags;
	kcfg.slice = p.slice;
	kcfg.chain_depth = p.chain_depth;
	char why[300];
	for (uint32_t g = 0; g < p.n_groups; g++) {
		const struct proto_group *pg = &p.groups[g];
		struct km_group_config *kg = &kcfg.group[g];
		if (pg->n_events > KM_MAX_GROUP_EVENTS || pg->name.len >= KM_GROUP_NAME) {
			client_error(c, f->req, f->type, PROTO_E_CONFIG, "group name or event count too large");
			return;
		}
		memcpy(kg->name, pg->name.s, pg->name.len);
		kg->share = pg->share;
		kg->n_events = pg->n_events;
		for (uint32_t e = 0; e < pg->n_events; e++) {
			const struct proto_str *name = &pg->events[e].name;
			int found = -1;
			for (uint32_t i = 0; i < target.n_events && found < 0; i++)
				if (strlen(target.events[i].name) == name->len &&
				    strncmp(target.events[i].name, name->s, name->len) == 0)
					found = (int)i;
			if (found < 0) {
				snprintf(why, sizeof why, "group %.*s: no event named %.*s in the catalogue",
					 (int)pg->name.len, pg->name.s, (int)name->len, name->s);
				client_error(c, f->req, f->type, PROTO_E_CONFIG, why);
				return;
			}
			kg->event[e] = (uint16_t)found;
			kg->threshold[e] = pg->events[e].threshold;
		}
	}
	why[0] = 0;
	long id = km_configure(&kcfg, why, sizeof why);
	if (id < 0) {
		client_error(c, f->req, f->type, PROTO_E_CONFIG, why[0] ? why : "the KM refused it");
		return;
	}
	monitor.config_id = (uint32_t)id;
	if (!p.n_groups)
		monitor.streams = 0;   /* cleared: nothing runs */
	km_config_get(&kcfg);
	struct proto_pmu_config applied;
	encode_applied(&kcfg, &applied);
	int n = proto_encode_pmu_config(monitor_out, sizeof monitor_out, f->req, 0, &applied);
	if (n <= 0) {   /* the KM's answer to a valid configuration, so the fault is ours */
		client_error(c, f->req, f->type, PROTO_E_INTERNAL, "cannot encode the configuration");
		return;
	}
	client_queue(c, monitor_out, (size_t)n);
	proto_frame_set_flags(monitor_out, 0);
	/* Request id 0: pushed to the others. */
	monitor_out[8] = monitor_out[9] = monitor_out[10] = monitor_out[11] = 0;
	subscribers_send(monitor_out, (size_t)n, c);
	printf("dcid: configuration %ld applied (%u groups) by client %u\n", id,
	       (unsigned)p.n_groups, c->id);
	clients_push_status();
}

#define SUPPORTED_STREAMS PROTO_STREAM_ALL

/* Asked for figures this image was built without (kernel/abi/kov_instr.h): the error's text,
 * else 0. Never an empty stream in their place. */
static const char *not_built(bool locks, bool calls)
{
	if (locks && !KOV_LOCK_INSTR)
		return KOV_NO_LOCK_INSTR_TEXT;
	if (calls && !KOV_CALL_INSTR)
		return KOV_NO_CALL_INSTR_TEXT;
	return 0;
}

void monitor_start(struct client *c, const struct proto_frame *f)
{
	struct proto_start s;
	proto_decode_start(f, &s);
	const char *missing = not_built(s.streams & PROTO_STREAM_LOCKS, s.streams & PROTO_STREAM_INVOCATIONS);
	if (missing) {
		client_error(c, f->req, f->type, PROTO_E_UNAVAILABLE, missing);
		return;
	}
	/* Lock statistics alone need no PMU configuration. */
	bool pmu = s.streams & (PROTO_STREAM_SAMPLES | PROTO_STREAM_COUNTS);
	if (pmu && km_control(KM_CTL_START) < 0) {
		client_error(c, f->req, f->type, PROTO_E_CONFIG, "no configuration: send PMU_CONFIG first");
		return;
	}
	monitor.streams = s.streams & SUPPORTED_STREAMS;
	monitor.interval_us = s.interval_us ? s.interval_us : 100000;
	monitor.interval_tb = timebase_now();
	locks_baseline();
	if (monitor.streams & PROTO_STREAM_INVOCATIONS)
		invocations_begin(monitor.interval_tb);
	monitor.next_interval_ns = clock_ns() + (uint64_t)monitor.interval_us * 1000;
	int n = proto_encode_empty(monitor_out, sizeof monitor_out, PROTO_OK, f->req, 0);
	client_queue(c, monitor_out, (size_t)n);
	printf("dcid: monitoring started (streams 0x%x, interval %u us) by client %u\n",
	       (unsigned)monitor.streams, (unsigned)monitor.interval_us, c->id);
	clients_push_status();
}

void monitor_stop(struct client *c, const struct proto_frame *f)
{
	if (monitor.streams) {
		km_control(KM_CTL_STOP);
		monitor.next_interval_ns = 0;
		monitor_poll(clock_ns());   /* what the last interval counted */
		monitor.streams = 0;
		printf("dcid: monitoring stopped by client %u\n", c->id);
	}
	int n = proto_encode_empty(monitor_out, sizeof monitor_out, PROTO_OK, f->req, 0);
	client_queue(c, monitor_out, (size_t)n);
	clients_push_status();
}

bool index_of_coid(uint32_t pid, uint64_t coid, uint32_t *index)
{
	uint64_t base = coid_of(pid, 0);
	if (coid < base + 16 || (coid - base) % 16 || (coid - base) / 16 > 0xFFFFFFFEull)
		return false;
	*index = (uint32_t)((coid - base) / 16);
	return true;
}

void monitor_instrument(struct client *c, const struct proto_frame *f)
{
	struct proto_instrument m;
	proto_decode_instrument(f, &m);
	const char *missing = not_built(m.what != PROTO_INSTR_INVOCATIONS, m.what == PROTO_INSTR_INVOCATIONS);
	if (missing) {
		client_error(c, f->req, f->type, PROTO_E_UNAVAILABLE, missing);
		return;
	}
	uint32_t index = 0xFFFFFFFFu;
	if (m.coid && !index_of_coid(m.pid, m.coid, &index)) {
		client_error(c, f->req, f->type, PROTO_E_NOT_FOUND, "no such object in that process's space");
		return;
	}
	long rc = km_instrument(m.pid, index, m.on, m.what);
	if (rc < 0) {
		char why[160];
		snprintf(why, sizeof why, "%s", rc == -KOV_ESRCH ? "no such process" :
			 rc == -KOV_ENOENT ? "no such live object" :
			 rc == -KOV_ENODEV ? "that process has no clustered-object runtime" :
			 rc == -KOV_ETIMEDOUT ? "that process's runtime did not answer in time" :
			 rc == -KOV_ENOSYS ? "the kernel has no monitored mutexes: use full lock counting (what 3)" :
			 "the KM refused it");
		client_error(c, f->req, f->type,
			     rc == -KOV_ESRCH || rc == -KOV_ENOENT ? PROTO_E_NOT_FOUND : PROTO_E_UNAVAILABLE, why);
		return;
	}
	if (m.what == PROTO_INSTR_INVOCATIONS)
		invocations_instrumented(m.pid, index, m.on);
	printf("dcid: %s %s for pid %u %s by client %u\n",
	       m.what == PROTO_INSTR_SLEEPLOCKS ? "sleep-lock figures" :
	       m.what == PROTO_INSTR_LOCKS_FULL ? "full lock counting" : "invocation counting",
	       m.on ? "on" : "off", (unsigned)m.pid, m.coid ? "(one object)" : "(all objects)", c->id);
	int n = proto_encode_empty(monitor_out, sizeof monitor_out, PROTO_OK, f->req, 0);
	client_queue(c, monitor_out, (size_t)n);
}

/* What the monitoring commands (top, lockstat, record, replay) share around their runs and
 * reports: a stream started only where it does not run and this client holds control, the
 * label of figures measured on a serial machine, the end of a --json document, and the scan
 * that names objects and the owners of locks. */
#include <stdio.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "client/losses.h"
#include "client/metrics.h"

void kovctl_machine_report(struct kovctl *k)
{
	const struct kov_target *t = kov_client_target(k->c);
	if (k->o->json) {
		const char *run = kov_cpus_run(t);
		json_key(&k->j, "cpus_run");
		run ? json_str(&k->j, run) : json_null(&k->j);
		return;
	}
	const char *note = kov_serial_note(t);
	if (note)
		printf("%s\n", note);
}

int kovctl_need_stream(struct kovctl *k, const struct proto_status *st, uint32_t need,
		       uint32_t add, const char *what, bool *stop_after)
{
	*stop_after = false;
	if (st->streams & need)
		return EXIT_OK;
	if (kov_client_target(k->c)->role != PROTO_ROLE_CONTROLLER) {
		fprintf(stderr, "kovctl: the target is not streaming %s, and starting them needs the "
			"controller token (--token)\n", what);
		return EXIT_NOT_CONTROLLER;
	}
	int rc = kovctl_start(k, st->streams | need | add, 0);
	*stop_after = rc == EXIT_OK && !st->streams;   /* nothing ran before: nothing runs after */
	return rc;
}

/* CONFIG_GET into *cfg, which borrows from *a (kov_answer_free it after). */
static int config_get(struct kovctl *k, struct proto_pmu_config *cfg, struct kov_answer *a)
{
	static uint8_t frame[64];
	int len = proto_encode_empty(frame, sizeof frame, PROTO_CONFIG_GET, 0, 0);
	if (len < 0 || kov_client_call(k->c, frame, (size_t)len, a) < 0)
		return kovctl_client_error(k);
	int rc = proto_decode_pmu_config(&a->frames[a->count - 1].f, cfg);
	if (rc) {
		kov_answer_free(a);
		fprintf(stderr, "kovctl: the target's configuration cannot be read: %s\n", proto_strerror(rc));
		return EXIT_TARGET;
	}
	return EXIT_OK;
}

int kovctl_config_samples(struct kovctl *k, const char *const *events, int n, uint32_t *config_id,
			  int *sampled)
{
	static struct proto_pmu_config cfg;
	struct kov_answer a;
	*config_id = 0;
	*sampled = 0;
	int rc = config_get(k, &cfg, &a);
	if (rc)
		return rc;
	*config_id = cfg.config_id;
	for (int i = 0; i < n; i++) {
		bool found = false;
		for (unsigned g = 0; g < cfg.n_groups && !found; g++)
			for (unsigned e = 0; e < cfg.groups[g].n_events && !found; e++) {
				const struct proto_group_event *ge = &cfg.groups[g].events[e];
				found = ge->threshold && ge->name.len == strlen(events[i]) &&
					!memcmp(ge->name.s, events[i], ge->name.len);
			}
		*sampled += found;
	}
	kov_answer_free(&a);
	return EXIT_OK;
}

int kovctl_modes_check(struct kovctl *k, struct kovctl_modes *m)
{
	static struct proto_pmu_config cfg;
	struct kov_answer a;
	*m = (struct kovctl_modes){ 0 };
	int rc = config_get(k, &cfg, &a);
	if (rc)
		return rc;
	m->modes = cfg.n_groups ? cfg.flags & (PROTO_CFG_KERNEL | PROTO_CFG_USER) : 0;
	m->config_id = cfg.config_id;
	bool one = m->modes && m->modes != (PROTO_CFG_KERNEL | PROTO_CFG_USER);
	size_t n_ev, used = 0;
	const struct kov_event *ev = kov_client_catalogue(k->c, &n_ev);
	const struct kov_target *t = kov_client_target(k->c);
	for (unsigned g = 0; one && g < cfg.n_groups; g++)
		for (unsigned e = 0; e < cfg.groups[g].n_events; e++) {
			const struct proto_str *name = &cfg.groups[g].events[e].name;
			char nm[PROTO_NAME_MAX + 1];
			snprintf(nm, sizeof nm, "%.*s", (int)name->len, name->s);
			int i = kov_find_event(ev, n_ev, nm);
			if (i >= 0 && kov_event_modes_filtered(t, &ev[i]) == 1)
				continue;
			if (i >= 0 && kov_event_modes_filtered(t, &ev[i]) < 0)
				m->unknown = true;
			else
				m->ignored++;
			if (used < sizeof m->names - 1 && !strstr(m->names, nm)) {
				int w = snprintf(m->names + used, sizeof m->names - used, "%s%s",
						 used ? ", " : "", nm);
				used += w > 0 ? (size_t)w : 0;
			}
		}
	kov_answer_free(&a);
	return EXIT_OK;
}

void kovctl_modes_report(struct kovctl *k, const struct kovctl_modes *m)
{
	bool one = m->modes && m->modes != (PROTO_CFG_KERNEL | PROTO_CFG_USER);
	const char *asked = !m->modes ? "none" : !one ? "both" :
			    m->modes & PROTO_CFG_KERNEL ? "kernel" : "user";
	if (k->o->json) {
		json_kv_str(&k->j, "modes_asked", asked);
		json_key(&k->j, "privilege_filter_honoured");   /* null: not reported (before 1.3) */
		if (!one)
			json_bool(&k->j, true);
		else if (m->ignored)
			json_bool(&k->j, false);
		else if (m->unknown)
			json_null(&k->j);
		else
			json_bool(&k->j, true);
		json_kv_str(&k->j, "privilege_filter_not_honoured_by", one ? m->names : "");
		return;
	}
	if (one && (m->ignored || m->unknown))
		printf("privilege filter %s here: configuration %u asks for %s mode only, but %s %s "
		       "both modes (QEMU ignores MMCR0[FCS]/[FCP]; the kernel counts software events in "
		       "every mode)%s\n", m->ignored ? "not honoured" : "perhaps not honoured",
		       (unsigned)m->config_id, asked, m->names, m->ignored ? "count" : "may count",
		       m->ignored ? "" : " (the target, before protocol 1.3, does not say)");
}

void kovctl_json_end(struct kovctl *k, bool in_list)
{
	if (!k->o->json)
		return;
	if (in_list)
		json_end_array(&k->j);
	json_end_object(&k->j);
	json_end(&k->j);
}

void kovctl_names_begin(struct kovctl *k, struct kovctl_names *n)
{
	n->first_ok = kov_scan_collect(k->c, PROTO_PID_ALL, &n->first) == 0;
}

void kovctl_names_get(struct kovctl *k, struct kovctl_names *n)
{
	n->ok = kov_scan_collect(k->c, PROTO_PID_ALL, &n->scan) == 0;
}

void kovctl_names_free(struct kovctl_names *n)
{
	if (n->ok)
		kov_scan_free(&n->scan);
	if (n->first_ok)
		kov_scan_free(&n->first);
	n->ok = n->first_ok = false;
}

/* Names from one scan; false when it lists neither the object nor the process. */
static void names_from(const struct kov_scan *s, uint32_t pid, uint64_t coid, uint32_t gen,
		       const char **cls, const char **proc, bool *found_cls, bool *found_proc)
{
	for (size_t p = 0; !*found_proc && pid && p < s->n_procs; p++)
		if (s->procs[p].pid == pid) {
			*proc = s->procs[p].name;
			*found_proc = true;
		}
	size_t i = !*found_cls && coid ? kov_scan_find_any(s, pid, coid, gen) : KOV_NOT_IN_SCAN;
	if (i != KOV_NOT_IN_SCAN) {
		*cls = s->objects[i].class_name;
		*found_cls = true;
	}
}

void kovctl_owner(const struct kovctl_names *n, uint32_t pid, uint64_t coid, uint32_t gen,
		  const char *no_object, const char **cls, const char **proc)
{
	*cls = coid ? "(gone)" : no_object;
	*proc = pid ? "?" : "kernel";
	bool found_cls = !coid, found_proc = !pid;
	if (n->ok)
		names_from(&n->scan, pid, coid, gen, cls, proc, &found_cls, &found_proc);
	if (n->first_ok)   /* gone by the end: as the scan before the collection saw it */
		names_from(&n->first, pid, coid, gen, cls, proc, &found_cls, &found_proc);
}

int kovctl_owner_rep(const struct kovctl_names *n, uint32_t pid, uint64_t coid, uint32_t gen,
		     uint64_t addr)
{
	for (int i = 0; i < 2; i++) {
		const struct kov_scan *s = i == 0 ? (n->ok ? &n->scan : 0) : (n->first_ok ? &n->first : 0);
		size_t o = s && coid ? kov_scan_find_any(s, pid, coid, gen) : KOV_NOT_IN_SCAN;
		if (o != KOV_NOT_IN_SCAN)
			return kov_scan_rep_cpu(&s->objects[o], addr);
	}
	return -1;
}

void kovctl_period_begin(struct kovctl *k, struct kovctl_period *p)
{
	p->start = *kov_client_losses(k->c);
}

int kovctl_period_end(struct kovctl *k, const struct kovctl_period *p, struct kov_losses *out)
{
	/* A STATUS round trip: the daemon reports this connection's dropped frames before it
	 * answers, and the answer carries the discards up to now. */
	struct proto_status st;
	int rc = kovctl_running(k, &st);
	*out = kov_losses_since(kov_client_losses(k->c), &p->start);
	return rc;
}

void kovctl_losses_report(struct kovctl *k, const struct kov_losses *l, bool samples_key)
{
	if (k->o->json) {
		if (samples_key)
			json_kv_u64(&k->j, "samples", l->samples);
		json_kv_u64(&k->j, "lost", l->lost);
		json_kv_u64(&k->j, "dropped", l->dropped_records);
		json_kv_u64(&k->j, "dropped_frames", l->dropped_frames);
		json_kv_u64(&k->j, "dropped_samples", l->dropped[KOV_DROP_SAMPLES]);
		json_kv_u64(&k->j, "dropped_counts", l->dropped[KOV_DROP_COUNTS]);
		json_kv_u64(&k->j, "dropped_lock_reports", l->dropped[KOV_DROP_LOCKS]);
		json_key(&k->j, "discarded");   /* null: the target does not report discards */
		l->discarded_known ? json_u64(&k->j, l->discarded) : json_null(&k->j);
		return;
	}
	char text[400];
	kov_losses_text(l, text, sizeof text);
	printf("losses in this period: %s\n", text);
}

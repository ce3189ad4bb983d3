/* A target: its state from init to free, what its panes can show (judged from its catalogue
 * and description), and how it is named in the title. Its connection is target_conn.c's, the
 * model of what it sends target_model.c's and target_locks.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "viewer/viewer.h"

const char *conn_name(enum conn_state s)
{
	switch (s) {
	case CONN_UP: return "connected";
	case CONN_DOWN: return "disconnected";
	case CONN_REFUSED: return "refused";
	case CONN_REPLAY: return "replay";
	default: return "connecting";
	}
}

static const struct { const char *title, *unit; } pane_names[PANES] = {
	[PANE_IPC] = { "Instructions per cycle", "" },
	[PANE_SPIN] = { "Spin-lock wait", "%" },
	[PANE_MMU] = { "MMU misses", "/1k insn" },
	[PANE_BRANCH] = { "Branch mispredictions", "%" },
	[PANE_LOCKACQ] = { "Lock acquisition success", "%" },
};

void target_init(struct target *t, const char *host, const char *port, const char *token)
{
	memset(t, 0, sizeof *t);
	snprintf(t->host, sizeof t->host, "%s", host);
	snprintf(t->port, sizeof t->port, "%s", port);
	t->token = token;
	t->ev_inst = -1;
	t->locks = calloc(1, sizeof *t->locks);
	if (!kov_live_init(&t->stacks, FLAME_MAX_STACKS))
		t->stacks.oom = true;   /* the flame view says so; everything else works */
	snprintf(t->status, sizeof t->status, "connecting to %s:%s", host, port);
	for (int p = 0; p < PANES; p++) {
		t->pane[p].title = pane_names[p].title;
		t->pane[p].unit = pane_names[p].unit;
		snprintf(t->pane[p].why, sizeof t->pane[p].why, "not connected");
		series_init(&t->pane[p].s);
	}
	series_init(&t->pane[PANE_SPIN].s2);
}


static void pane_says(struct pane *p, bool available, const char *subtitle, const char *no_data,
		      const char *why)
{
	p->available = available;
	snprintf(p->subtitle, sizeof p->subtitle, "%s", subtitle);
	snprintf(p->no_data, sizeof p->no_data, "%s", no_data);
	if (available)
		snprintf(p->why, sizeof p->why, "%s", subtitle);
	else
		snprintf(p->why, sizeof p->why, "not available on this target: %s", why);
}

/* What each pane can show on this target, from its catalogue and description: never a fake
 * zero. The figures themselves come from client/metrics.h. */
void judge_panes(struct target *t)
{
	size_t n = t->n_cat;
	const struct kov_event *ev = t->cat;
	char why[300];
	t->ev_inst = kov_find_event(ev, n, "PM_INST_CMPL");
	kov_metric_set_init(&t->metrics, ev, n);
	t->cycles_emulated = kov_cycles_emulated(t->have_desc ? &t->desc : NULL, ev, n);
	/* Lock statistics of spin locks came with protocol 1.2; a replay without the target's
	 * description shows what its frames carry. */
	bool locks = !t->have_desc || t->desc.minor >= 2;
	unsigned cpus = t->have_desc ? t->desc.cpus : 0;
	const char *no_counts = "no data yet: monitoring not started, or its events are not configured";

	struct pane *p = &t->pane[PANE_IPC];
	p->title = kov_metric_title(KOV_METRIC_IPC, t->cycles_emulated);
	bool ok = kov_metric_countable(&t->metrics, KOV_METRIC_IPC, ev, n, why, sizeof why);
	pane_says(p, ok, t->cycles_emulated ?
		  "PM_INST_CMPL / PM_CYC; QEMU's cycles are virtual time at 1 GHz: instructions per "
		  "virtual ns (1 under -icount), not the 970's IPC" :
		  "PM_INST_CMPL / PM_CYC of one group (else each scaled by enabled/running)",
		  no_counts, why);

	p = &t->pane[PANE_SPIN];
	char sub[240];
	/* On a serial machine the label comes first, so a narrow pane still shows it. */
	const char *serial = target_serial_note(t);
	int at = serial ? snprintf(sub, sizeof sub, "%s · ", serial) : 0;
	if (cpus)
		snprintf(sub + at, sizeof sub - (size_t)at, "measured wait of contended spin-lock "
			 "acquisitions over %u %s time (waiters descheduled while they wait count "
			 "too)%s", cpus, cpus == 1 ? "CPU's" : "CPUs'",
			 t->ev_inst >= 0 ? "; dashed: instruction samples in the wait loop" : "");
	else
		snprintf(sub + at, sizeof sub - (size_t)at, "measured wait of contended spin-lock "
			 "acquisitions in ms per second (the recording does not say how many CPUs)");
	p->unit = cpus ? "%" : " ms/s";
	pane_says(p, locks && !t->locks_refused[0], sub, "no lock reports yet: the lock stream is not running",
		  t->locks_refused[0] ? t->locks_refused : "its protocol (1.1) has no spin-lock statistics");

	p = &t->pane[PANE_MMU];
	ok = kov_metric_countable(&t->metrics, KOV_METRIC_MMU, ev, n, why, sizeof why);
	pane_says(p, ok, "software-handled page-table and SLB misses per 1000 instructions counted "
		  "over the same time", no_counts, why);

	p = &t->pane[PANE_BRANCH];
	ok = kov_metric_countable(&t->metrics, KOV_METRIC_BRANCH, ev, n, why, sizeof why);
	pane_says(p, ok, kov_metric_def(KOV_METRIC_BRANCH)->method,
		  "no data yet: configure PM_BR_ISSUED, PM_BR_MPRED_CR and PM_BR_MPRED_TA in one group",
		  why);

	p = &t->pane[PANE_LOCKACQ];
	t->stcx_counted = kov_metric_countable(&t->metrics, KOV_METRIC_STCX, ev, n, why, sizeof why);
	if (t->stcx_counted) {
		p->title = "Lock acquisition success";
		pane_says(p, true, kov_metric_def(KOV_METRIC_STCX)->method,
			  "no data yet: configure PM_STCX_PASS and PM_STCX_FAIL in one group", "");
	} else {
		char whynot[600];   /* why (300) and the lock reason (200) */
		snprintf(whynot, sizeof whynot, "%s; and %s", why,
			 t->locks_refused[0] ? t->locks_refused : "its protocol (1.1) has no lock counts");
		p->title = "Lock acquisition success (software counts)";
		pane_says(p, locks && !t->locks_refused[0], "first-try acquisitions / all acquisitions of the fully counted "
			  "locks (lock statistics; PM_STCX_PASS/FAIL do not count here)",
			  "no fully counted lock yet: F counts every acquisition of the selected "
			  "object's or process's locks", whynot);
	}
}

void target_cpus_text(const struct kov_target *d, char *buf, size_t n)
{
	const char *how = !kov_target_reports_machine(d) ? "" :
			  d->cpus_run == PROTO_CPUS_PARALLEL ? ", parallel" :
			  d->cpus_run == PROTO_CPUS_TAKE_TURNS ? ", taking turns" : "";
	snprintf(buf, n, "%u CPU%s%s", (unsigned)d->cpus, d->cpus == 1 ? "" : "s", how);
}

const char *target_serial_note(const struct target *t)
{
	return t->have_desc ? kov_serial_note(&t->desc) : NULL;
}

void target_window_title(const struct target *t, char *buf, size_t n)
{
	char cpus[48];
	if (!t->have_desc) {
		snprintf(buf, n, "KOV viewer — %s%s%s", t->host, t->port[0] ? ":" : "", t->port);
		return;
	}
	target_cpus_text(&t->desc, cpus, sizeof cpus);
	/* The monitor's cost bound lengthening the periods is said here, where it stays in view
	 * while it lasts (target_throttle.c). */
	const struct throttle_mark *m = t->n_throttles ? &t->throttles[t->n_throttles - 1] : NULL;
	char bound[96] = "";
	if (m && m->factor > 1)
		snprintf(bound, sizeof bound, " · sampling periods x%u: the monitor's cost passed its "
			 "%u.%02u%% limit", (unsigned)m->factor, (unsigned)(m->limit_bp / 100),
			 (unsigned)(m->limit_bp % 100));
	snprintf(buf, n, "KOV viewer — %s%s%s · %s · %s%s", t->host, t->port[0] ? ":" : "", t->port,
		 t->desc.profile, cpus, bound);
}

void target_free(struct target *t)
{
	if (t->c)
		kov_client_free(t->c);
	if (t->have_scan)
		kov_scan_free(&t->scan);
	for (int p = 0; p < PANES; p++) {
		series_free(&t->pane[p].s);
		series_free(&t->pane[p].s2);
		if (t->pane[p].chart)
			cairo_surface_destroy(t->pane[p].chart);
	}
	free(t->objs);
	free(t->locks);
	kov_live_free(&t->stacks);
	for (size_t i = 0; i < t->rp_n; i++)
		free(t->rp_frames[i].bytes);
	free(t->rp_frames);
	free(t->rp_times);
	for (size_t i = 0; t->rp_cat && i < t->n_cat; i++) {
		free(t->rp_cat[i].description);
		free(t->rp_cat[i].why_not);
	}
	free(t->rp_cat);
	if (t->rec)
		fclose(t->rec);
}

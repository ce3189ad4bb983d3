/* What /metrics shows: the target, its CPUs' wake-ups, the daemon's own counters, the losses,
 * the NIC, the sample periods, and the live processes and objects from a fresh snapshot.
 * Names are OpenMetrics family names; expo.c gives each format its sample names. */
#include "client.h"
#include "monitor.h"
#include "expo.h"
#include <km.h>

/* One series per event sampled since the daemon started. The samples' periods are drawn
 * around the threshold; sampled_events / samples is their mean. */
static void sample_periods(struct expo *t)
{
	static const struct { const char *name; enum expo_type type; const char *help; } fam[] = {
		{ "kov_samples", EXPO_COUNTER, "Samples drained from the KM, per event." },
		{ "kov_sampled_events", EXPO_COUNTER, "Events the samples stood for: their periods summed." },
		{ "kov_sample_period_min", EXPO_GAUGE, "Shortest sampling period seen, in events." },
		{ "kov_sample_period_max", EXPO_GAUGE, "Longest sampling period seen, in events." },
	};
	for (int f = 0; f < 4; f++) {
		expo_family(t, fam[f].name, fam[f].type, 0, fam[f].help);
		for (uint32_t e = 0; e < target.n_events && e < DCID_PERIOD_EVENTS; e++) {
			const struct sample_periods *p = &monitor.periods[e];
			if (!p->samples)
				continue;
			expo_sample(t);
			expo_label(t, "event", target.events[e].name);
			expo_value(t, f == 0 ? p->samples : f == 1 ? p->events : f == 2 ? p->min : p->max);
		}
	}
}

static void counter(struct expo *t, const char *name, const char *help, uint64_t v)
{
	expo_family(t, name, EXPO_COUNTER, 0, help);
	expo_simple(t, v);
}

static void per_direction(struct expo *t, const char *name, const char *help, uint64_t rx, uint64_t tx)
{
	expo_family(t, name, EXPO_COUNTER, 0, help);
	expo_sample(t);
	expo_label(t, "direction", "rx");
	expo_value(t, rx);
	expo_sample(t);
	expo_label(t, "direction", "tx");
	expo_value(t, tx);
}

/* The kernel's own figures, against which the daemon's can be checked (the soak test): what
 * the monitor took and handed out since boot, and the kernel's memory, where a leak shows as
 * drift. */
static void kernel_counters(struct expo *t)
{
	struct km_state s;
	if (km_state(&s) == 0) {
		counter(t, "kov_monitor_samples_taken", "Samples the monitor's rings accepted since "
			"boot (the kernel's count).", s.samples_taken);
		counter(t, "kov_monitor_samples_delivered", "Samples the monitor handed to the daemon "
			"since boot (the kernel's count).", s.samples_delivered);
	}
	expo_family(t, "kov_free_pages", EXPO_GAUGE, 0, "Physical pages free (the kernel's count).");
	expo_simple(t, (uint64_t)meminfo(MEMINFO_FREE_PAGES));
	expo_family(t, "kov_heap_blocks", EXPO_GAUGE, 0, "Kernel heap blocks in use.");
	expo_simple(t, (uint64_t)meminfo(MEMINFO_HEAP_BLOCKS));
	/* The figure to watch for leaks: kov_heap_blocks rises and falls with the processes and
	 * connections alive at the scrape, this one does not. */
	expo_family(t, "kov_heap_blocks_kernel", EXPO_GAUGE, 0, "Kernel heap blocks charged to no "
		    "live process: the kernel's own and those that outlived their process.");
	expo_simple(t, (uint64_t)meminfo(MEMINFO_HEAP_UNOWNED));
}

/* How the kernel's CPUs woke from their idle H_CEDE (kernel/abi/km_abi.h): a normal run
 * shows no rescues and no resets; growing ones mean QEMU lost wake-ups the watchdog repaired. */
static void wake_counters(struct expo *t, const struct km_info *i)
{
	counter(t, "kov_wake_rescues", "CPUs found halted after H_CEDE (QEMU's lost wake-up) and "
		"resumed by the hypervisor watchdog's reset, since boot.", i->wake_rescues);
	counter(t, "kov_wake_resets", "Hypervisor watchdog system resets taken by any CPU, since "
		"boot.", i->wake_resets);
	counter(t, "kov_wake_prods", "Ceded CPUs a neighbour found asleep past their tick and woke "
		"with H_PROD, since boot.", i->wake_prods);
	expo_family(t, "kov_wake_late_max_seconds", EXPO_GAUGE, "seconds", "The longest any CPU "
		    "slept past its due tick, since boot.");
	expo_sample(t);
	expo_value_fixed(t, i->wake_late_max_us / 1000000, i->wake_late_max_us % 1000000, 6);
	counter(t, "kov_ticks_pending", "Timer ticks found due but still pending behind another "
		"interrupt, since boot.", i->ticks_pending);
	counter(t, "kov_ticks_skipped", "Timer ticks missed altogether (due a period or more before "
		"the CPU took one: on a machine whose CPUs take turns, a long wait for its turn), since "
		"boot.", i->ticks_skipped);
	counter(t, "kov_turns_handed_rx", "Turns CPUs handed on because the network's CPU had a "
		"received frame waiting (only where the CPUs take turns on one host thread), since "
		"boot.", i->turns_handed_rx);
}

static void daemon_counters(struct expo *t)
{
	expo_family(t, "kov_dci_clients", EXPO_GAUGE, 0, "Protocol clients past the handshake.");
	expo_simple(t, clients_connected());
	expo_family(t, "kov_dci_pending", EXPO_GAUGE, 0, "Protocol connections whose HELLO has not been answered.");
	expo_simple(t, clients_pending());
	counter(t, "kov_dci_sent_bytes", "Bytes the daemon sent to its clients.", dcid.bytes_out);
	counter(t, "kov_dci_frames_dropped", "Frames not delivered to slow clients.", dcid.frames_dropped);
	counter(t, "kov_dci_clients_cut_off", "Clients cut off for not reading.", dcid.clients_cut_off);
	counter(t, "kov_dci_handshakes_closed", "Connections closed before their handshake: "
		"no HELLO in time, or the oldest pending one when the pending slots were full.",
		dcid.handshakes_closed);
	counter(t, "kov_metrics_connections_closed", "Metrics connections closed before they were "
		"answered: request or answer not done in time, or room needed for a new one.",
		metrics_stats.closed);
	counter(t, "kov_samples_lost", "Samples the monitor's rings refused (full).", monitor.samples_lost);
	counter(t, "kov_swaps", "Hot swaps of objects done at a client's request (SWAP).", monitor.swaps);
	counter(t, "kov_swaps_failed", "Hot swaps asked for that failed or were refused; the "
		"object was left as it was.", monitor.swaps_failed);
	counter(t, "kov_samples_discarded", "Samples drained while no client took the samples "
		"stream: never sent.", monitor.samples_discarded);
	counter(t, "kov_samples_unresolved", "Samples sent without an object: their rep was in no scan.",
		monitor.unresolved);
	counter(t, "kov_chains_cut", "Samples whose call chain was cut before a frame the protocol "
		"cannot carry (a kernel frame after a user one): flagged truncated.", monitor.chains_cut);
	counter(t, "kov_counts_late", "Interval counts that did not fit one read: carried into the "
		"next interval.", monitor.counts_late);
}

/* The monitor's cost bound (proto/proto_throttle.h), as the KM reports it now, and the
 * sampling periods in force under it. */
static void throttle_figures(struct expo *t)
{
	static struct km_throttle_io io;
	static struct km_config cfg;
	io = (struct km_throttle_io){ .set_limit = KM_THROTTLE_KEEP };
	if (km_throttle(&io) != 0 || km_config_get(&cfg) != 0)
		return;
	expo_family(t, "kov_throttle_limit_ratio", EXPO_GAUGE, 0, "The monitor's cost limit, a "
		    "share of the CPUs' time (0: throttling off).");
	expo_sample(t);
	expo_value_fixed(t, io.limit_bp / 10000, io.limit_bp % 10000, 4);
	expo_family(t, "kov_monitor_cost_ratio", EXPO_GAUGE, 0, "The monitor's cost in its last "
		    "100 ms window: the busiest CPU's PMU handler time, or handlers and the daemon "
		    "over all the CPUs' time, whichever is larger.");
	expo_sample(t);
	expo_value_fixed(t, io.cost_bp / 10000, io.cost_bp % 10000, 4);
	expo_family(t, "kov_throttle_factor", EXPO_GAUGE, 0, "Every sampling period is multiplied "
		    "by this to keep the monitor's cost under its limit (1: as configured).");
	expo_simple(t, io.factor);
	counter(t, "kov_throttle_changes", "Changes of the throttle's factor since boot.", io.seq);
	expo_family(t, "kov_sample_period_effective", EXPO_GAUGE, 0, "Each sampled event's period "
		    "in force: its configured threshold times the throttle's factor.");
	for (uint32_t g = 0; g < cfg.n_groups && g < KM_MAX_GROUPS; g++)
		for (uint32_t e = 0; e < cfg.group[g].n_events && e < KM_MAX_GROUP_EVENTS; e++) {
			uint16_t ev = cfg.group[g].event[e];
			if (!cfg.group[g].threshold[e] || ev >= target.n_events)
				continue;
			char group[KM_GROUP_NAME + 1] = { 0 };
			memcpy(group, cfg.group[g].name, KM_GROUP_NAME);
			expo_sample(t);
			expo_label(t, "group", group);
			expo_label(t, "event", target.events[ev].name);
			expo_value(t, cfg.group[g].threshold[e] * io.factor);
		}
}

static const char *const path_states[] = { "exercised", "new", "not-exercised", "uncheckable" };

/* What the kernel said of its platform at boot: the clock it read and each path's state. */
static void platform_figures(struct expo *t)
{
	const struct km_platform *p = &target.platform;
	if (!target.has_platform)
		return;
	if (p->rtc_ok) {
		expo_family(t, "kov_rtc_boot_seconds", EXPO_GAUGE, "seconds", "The real-time clock as "
			    "the kernel read it at boot, in seconds since 1970-01-01 UTC.");
		expo_simple(t, (uint64_t)p->rtc_boot);
	}
	expo_family(t, "kov_platform_path", EXPO_INFO, 0, "One series per platform path: whether "
		    "it was exercised under emulation, is new on this machine, was not exercised, or "
		    "cannot be checked here.");
	for (uint32_t k = 0; k < p->n_paths && k < KM_PLATFORM_PATHS; k++) {
		const struct km_platform_path *e = &p->paths[k];
		expo_sample(t);
		expo_label(t, "path", e->name);
		expo_label(t, "state", e->state < 4 ? path_states[e->state] : "unknown");
		expo_label(t, "detail", e->detail);
		expo_label(t, "controller", p->power_ctl);
		expo_value(t, 1);
	}
}

static void objects(struct expo *t, const struct snapshot *s)
{
	const struct km_info *i = &target.info;
	expo_family(t, "kov_processes", EXPO_GAUGE, 0, "Live processes.");
	expo_simple(t, s->n_procs);
	expo_family(t, "kov_process_threads", EXPO_GAUGE, 0, "Live threads per process.");
	for (uint32_t k = 0; k < s->n_procs; k++) {
		expo_sample(t);
		expo_labelf(t, "pid", "%u", s->procs[k].pid);
		expo_label(t, "process", s->procs[k].name);
		expo_value(t, s->procs[k].threads);
	}
	expo_family(t, "kov_objects", EXPO_GAUGE, 0, "Live clustered objects (kernel and user).");
	expo_simple(t, s->totals.objects);
	expo_family(t, "kov_scan_seconds", EXPO_GAUGE, "seconds", "Time the KM's last object scan took.");
	expo_sample(t);
	expo_value_fixed(t, s->totals.tb_ticks / i->timebase_hz,
			 s->totals.tb_ticks * 1000000 / i->timebase_hz % 1000000, 6);
	expo_family(t, "kov_object", EXPO_INFO, 0, "One series per live object: its class and owner.");
	for (uint32_t k = 0; k < s->n_objs; k++) {
		const struct scan_record *r = &s->objs[k];
		bool user = r->flags & SCAN_USER;
		expo_sample(t);
		expo_labelf(t, "pid", "%u", r->pid);
		expo_label(t, "process", r->pid ? r->process_name : "kernel");
		expo_label(t, "class", r->class_name);
		expo_labelf(t, "coid", "0x%lx", (unsigned long)coid_of(user ? r->pid : 0, r->index));
		expo_labelf(t, "gen", "%u", r->generation);
		expo_label(t, "space", user ? "user" : "kernel");
		expo_value(t, 1);
	}
	expo_family(t, "kov_object_children", EXPO_GAUGE, 0, "Children of each live object.");
	for (uint32_t k = 0; k < s->n_objs; k++) {
		const struct scan_record *r = &s->objs[k];
		expo_sample(t);
		expo_labelf(t, "pid", "%u", r->pid);
		expo_labelf(t, "coid", "0x%lx",
			    (unsigned long)coid_of(r->flags & SCAN_USER ? r->pid : 0, r->index));
		expo_value(t, r->nchildren);
	}
}

bool metrics_render(struct expo *t)
{
	target_refresh();
	const struct km_info *i = &target.info;
	expo_family(t, "kov", EXPO_INFO, 0, "The target: profile, model, PMU backend, kernel build "
		    "and how its CPUs ran (parallel, take-turns on one host thread, or unknown).");
	expo_sample(t);
	expo_label(t, "profile", i->profile);
	expo_label(t, "model", i->model);
	expo_label(t, "pmu", i->pmu);
	expo_label(t, "build", i->build_id);
	expo_labelf(t, "pvr", "0x%08x", i->pvr);
	expo_label(t, "cpus_run", proto_cpus_run_name(target_cpus_run()));
	expo_value(t, 1);
	expo_family(t, "kov_cpus", EXPO_GAUGE, 0, "Online CPUs.");
	expo_simple(t, i->cpus);
	expo_family(t, "kov_memory_bytes", EXPO_GAUGE, "bytes", "Installed memory.");
	expo_simple(t, i->memory);
	expo_family(t, "kov_uptime_seconds", EXPO_GAUGE, "seconds", "Time since boot.");
	expo_sample(t);
	expo_value_fixed(t, i->uptime_ns / 1000000000, i->uptime_ns / 1000000 % 1000, 3);
	wake_counters(t, i);
	daemon_counters(t);
	throttle_figures(t);
	kernel_counters(t);
	platform_figures(t);

	struct km_netinfo ni;
	if (netinfo(&ni) == 0) {
		per_direction(t, "kov_net_packets", "Frames through the NIC.", ni.rx_packets, ni.tx_packets);
		per_direction(t, "kov_net_bytes", "Bytes through the NIC.", ni.rx_bytes, ni.tx_bytes);
		per_direction(t, "kov_net_dropped", "Frames dropped by the driver or the stack.",
			      ni.rx_dropped, ni.tx_dropped);
		counter(t, "kov_net_interrupts", "Receive interrupts taken.", ni.interrupts);
	}

	sample_periods(t);
	struct snapshot s;
	if (!snapshot_take(&s))
		return false;
	objects(t, &s);
	snapshot_free(&s);
	expo_end(t);
	return !t->failed;
}

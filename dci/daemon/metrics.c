/* The OpenMetrics endpoint: GET /metrics on the metrics port answers with the target-level
 * and per-object series (text exposition format 1.0.0). One request per connection, read and
 * answered with bounded waits, so a slow scraper delays the daemon by at most a few seconds. */
#include "dcid.h"
#include "kernel/lib/format.h"

#define REQUEST_MAX 2048
#define WAIT_MS 2000
#define BODY_MAX (512 * 1024)

struct text {
	char *buf;
	size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = format_buf_v(t->buf + t->len, t->cap - t->len, fmt, ap);
	va_end(ap);
	if (n > 0)
		t->len = t->len + (size_t)n < t->cap ? t->len + (size_t)n : t->cap - 1;
}

/* A label value: backslash, double quote and newline escaped. */
static void add_label(struct text *t, const char *s)
{
	for (; *s && t->len + 3 < t->cap; s++) {
		if (*s == '\\' || *s == '"')
			t->buf[t->len++] = '\\';
		if (*s == '\n') {
			t->buf[t->len++] = '\\';
			t->buf[t->len++] = 'n';
			continue;
		}
		t->buf[t->len++] = *s;
	}
	t->buf[t->len] = 0;
}

static void family(struct text *t, const char *name, const char *type, const char *help)
{
	add(t, "# TYPE %s %s\n# HELP %s %s\n", name, type, name, help);
}

/* One series per event sampled since the daemon started. The samples' periods are drawn
 * around the threshold; sampled_events / samples is their mean. */
static void sample_periods(struct text *t)
{
	static const struct { const char *name, *type, *help; } fam[] = {
		{ "kov_samples", "counter", "Samples drained from the KM, per event." },
		{ "kov_sampled_events", "counter", "Events the samples stood for: their periods summed." },
		{ "kov_sample_period_min", "gauge", "Shortest sampling period seen, in events." },
		{ "kov_sample_period_max", "gauge", "Longest sampling period seen, in events." },
	};
	for (int f = 0; f < 4; f++) {
		family(t, fam[f].name, fam[f].type, fam[f].help);
		for (uint32_t e = 0; e < target.n_events && e < DCID_PERIOD_EVENTS; e++) {
			const struct sample_periods *p = &monitor.periods[e];
			if (!p->samples)
				continue;
			uint64_t v = f == 0 ? p->samples : f == 1 ? p->events : f == 2 ? p->min : p->max;
			add(t, "%s%s{event=\"", fam[f].name, f < 2 ? "_total" : "");
			add_label(t, target.events[e].name);
			add(t, "\"} %lu\n", (unsigned long)v);
		}
	}
}

static void render(struct text *t)
{
	target_refresh();
	const struct km_info *i = &target.info;
	family(t, "kov_info", "info", "The target: profile, model, PMU backend and kernel build.");
	add(t, "kov_info{profile=\"");
	add_label(t, i->profile);
	add(t, "\",model=\"");
	add_label(t, i->model);
	add(t, "\",pmu=\"");
	add_label(t, i->pmu);
	add(t, "\",build=\"");
	add_label(t, i->build_id);
	add(t, "\",pvr=\"0x%08x\"} 1\n", i->pvr);
	family(t, "kov_cpus", "gauge", "Online CPUs.");
	add(t, "kov_cpus %u\n", i->cpus);
	family(t, "kov_memory_bytes", "gauge", "Installed memory.");
	add(t, "# UNIT kov_memory_bytes bytes\nkov_memory_bytes %lu\n", (unsigned long)i->memory);
	family(t, "kov_uptime_seconds", "gauge", "Time since boot.");
	add(t, "# UNIT kov_uptime_seconds seconds\nkov_uptime_seconds %lu.%03lu\n",
	    (unsigned long)(i->uptime_ns / 1000000000), (unsigned long)(i->uptime_ns / 1000000 % 1000));
	family(t, "kov_dci_clients", "gauge", "Protocol clients past the handshake.");
	add(t, "kov_dci_clients %u\n", clients_connected());
	family(t, "kov_dci_sent_bytes", "counter", "Bytes the daemon sent to its clients.");
	add(t, "kov_dci_sent_bytes_total %lu\n", (unsigned long)dcid.bytes_out);
	family(t, "kov_dci_frames_dropped", "counter", "Frames not delivered to slow clients.");
	add(t, "kov_dci_frames_dropped_total %lu\n", (unsigned long)dcid.frames_dropped);
	family(t, "kov_dci_clients_cut_off", "counter", "Clients cut off for not reading.");
	add(t, "kov_dci_clients_cut_off_total %u\n", dcid.clients_cut_off);
	family(t, "kov_samples_lost", "counter", "Samples the monitor's rings refused (full).");
	add(t, "kov_samples_lost_total %lu\n", (unsigned long)monitor.samples_lost);
	family(t, "kov_samples_discarded", "counter",
	       "Samples drained while no client took the samples stream: never sent.");
	add(t, "kov_samples_discarded_total %lu\n", (unsigned long)monitor.samples_discarded);
	family(t, "kov_samples_unresolved", "counter", "Samples sent without an object: their rep was in no scan.");
	add(t, "kov_samples_unresolved_total %lu\n", (unsigned long)monitor.unresolved);
	family(t, "kov_counts_late", "counter",
	       "Interval counts that did not fit one read: carried into the next interval.");
	add(t, "kov_counts_late_total %lu\n", (unsigned long)monitor.counts_late);

	struct km_netinfo ni;
	if (netinfo(&ni) == 0) {
		family(t, "kov_net_packets", "counter", "Frames through the NIC.");
		add(t, "kov_net_packets_total{direction=\"rx\"} %lu\nkov_net_packets_total{direction=\"tx\"} %lu\n",
		    (unsigned long)ni.rx_packets, (unsigned long)ni.tx_packets);
		family(t, "kov_net_bytes", "counter", "Bytes through the NIC.");
		add(t, "kov_net_bytes_total{direction=\"rx\"} %lu\nkov_net_bytes_total{direction=\"tx\"} %lu\n",
		    (unsigned long)ni.rx_bytes, (unsigned long)ni.tx_bytes);
		family(t, "kov_net_dropped", "counter", "Frames dropped by the driver or the stack.");
		add(t, "kov_net_dropped_total{direction=\"rx\"} %lu\nkov_net_dropped_total{direction=\"tx\"} %lu\n",
		    (unsigned long)ni.rx_dropped, (unsigned long)ni.tx_dropped);
		family(t, "kov_net_interrupts", "counter", "Receive interrupts taken.");
		add(t, "kov_net_interrupts_total %lu\n", (unsigned long)ni.interrupts);
	}

	sample_periods(t);
	struct snapshot s;
	if (!snapshot_take(&s))
		return;
	family(t, "kov_processes", "gauge", "Live processes.");
	add(t, "kov_processes %u\n", s.n_procs);
	family(t, "kov_process_threads", "gauge", "Live threads per process.");
	for (uint32_t k = 0; k < s.n_procs; k++) {
		add(t, "kov_process_threads{pid=\"%u\",process=\"", s.procs[k].pid);
		add_label(t, s.procs[k].name);
		add(t, "\"} %u\n", s.procs[k].threads);
	}
	family(t, "kov_objects", "gauge", "Live clustered objects (kernel and user).");
	add(t, "kov_objects %u\n", s.totals.objects);
	family(t, "kov_scan_seconds", "gauge", "Time the KM's last object scan took.");
	add(t, "kov_scan_seconds %lu.%06lu\n",
	    (unsigned long)(s.totals.tb_ticks / i->timebase_hz),
	    (unsigned long)(s.totals.tb_ticks * 1000000 / i->timebase_hz % 1000000));
	family(t, "kov_object_info", "info", "One series per live object: its class and owner.");
	for (uint32_t k = 0; k < s.n_objs; k++) {
		const struct scan_record *r = &s.objs[k];
		bool user = r->flags & SCAN_USER;
		add(t, "kov_object_info{pid=\"%u\",process=\"", r->pid);
		add_label(t, r->pid ? r->process_name : "kernel");
		add(t, "\",class=\"");
		add_label(t, r->class_name);
		add(t, "\",coid=\"0x%lx\",gen=\"%u\",space=\"%s\"} 1\n",
		    (unsigned long)coid_of(user ? r->pid : 0, r->index), r->generation,
		    user ? "user" : "kernel");
	}
	family(t, "kov_object_children", "gauge", "Children of each live object.");
	for (uint32_t k = 0; k < s.n_objs; k++) {
		const struct scan_record *r = &s.objs[k];
		add(t, "kov_object_children{pid=\"%u\",coid=\"0x%lx\"} %u\n", r->pid,
		    (unsigned long)coid_of(r->flags & SCAN_USER ? r->pid : 0, r->index), r->nchildren);
	}
	snapshot_free(&s);
}

static void reply(int fd, const char *status, const char *type, const char *body, size_t len)
{
	char head[256];
	int n = format_buf(head, sizeof head, "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
			   "Content-Length: %lu\r\nConnection: close\r\n\r\n", status, type,
			   (unsigned long)len);
	send(fd, head, (size_t)n, 0);
	for (size_t done = 0; done < len;) {
		long m = send(fd, body + done, len - done, 0);
		if (m <= 0)
			break;
		done += (size_t)m;
	}
}

static const char *plain = "text/plain; charset=utf-8";

void metrics_serve(int fd)
{
	struct timeval tv = { WAIT_MS / 1000, 0 };
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
	char req[REQUEST_MAX + 1];
	size_t len = 0;
	bool complete = false;
	while (len < REQUEST_MAX && !complete) {
		long n = recv(fd, req + len, REQUEST_MAX - len, 0);
		if (n <= 0)
			break;
		len += (size_t)n;
		req[len] = 0;
		for (size_t k = 3; k < len && !complete; k++)
			complete = req[k - 3] == '\r' && req[k - 2] == '\n' && req[k - 1] == '\r' && req[k] == '\n';
	}
	if (!complete) {
		const char *m = len >= REQUEST_MAX ? "request too large\n" : "incomplete request\n";
		reply(fd, len >= REQUEST_MAX ? "431 Request Header Fields Too Large" : "400 Bad Request",
		      plain, m, strlen(m));
	} else if (strncmp(req, "GET ", 4) != 0) {
		reply(fd, "405 Method Not Allowed", plain, "only GET\n", 9);
	} else if (strncmp(req + 4, "/metrics ", 9) != 0 && strncmp(req + 4, "/metrics?", 9) != 0) {
		reply(fd, "404 Not Found", plain, "try /metrics\n", 13);
	} else {
		struct text t = { malloc(BODY_MAX), 0, BODY_MAX };
		if (!t.buf) {
			reply(fd, "503 Service Unavailable", plain, "out of memory\n", 14);
		} else {
			t.buf[0] = 0;
			render(&t);
			add(&t, "# EOF\n");
			reply(fd, "200 OK", "application/openmetrics-text; version=1.0.0; charset=utf-8",
			      t.buf, t.len);
			free(t.buf);
		}
	}
	shutdown(fd, SHUT_WR);
	close(fd);
}

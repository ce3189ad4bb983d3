/* httpd's start: options, the objects, the poller and the workers (usage in httpd.h). */
#include "httpd.h"

struct httpd_config cfg = { 80, 4, 128, 10, 5, 0, 0, false };

/* KEY=N options; false (and a message) for anything else. */
static bool options(int argc, char **argv)
{
	static const struct { const char *key; int *v; int lo, hi; } num[] = {
		{ "port", &cfg.port, 1, 65535 }, { "workers", &cfg.workers, 1, WORKERS_MAX },
		{ "conns", &cfg.conns, 1, CONNS_MAX }, { "timeout", &cfg.timeout_s, 1, 3600 },
		{ "keepalive", &cfg.keepalive_s, 1, 3600 }, { "seconds", &cfg.seconds, 0, 1000000 },
		{ "surge", &cfg.surge, 0, SURGE_FILES_MAX },
	};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "views=shared") || !strcmp(a, "views=percpu")) {
			cfg.views_percpu = a[6] == 'p';
			continue;
		}
		bool known = false;
		for (size_t k = 0; k < sizeof num / sizeof num[0] && !known; k++) {
			size_t n = strlen(num[k].key);
			if (strncmp(a, num[k].key, n) || a[n] != '=')
				continue;
			known = true;
			long v = 0;
			const char *s = a + n + 1;
			for (; *s >= '0' && *s <= '9' && v <= 10000000; s++)
				v = v * 10 + (*s - '0');
			if (*s || s == a + n + 1 || v < num[k].lo || v > num[k].hi) {
				printf("httpd: %s must be a number from %d to %d\n", num[k].key, num[k].lo,
				       num[k].hi);
				return false;
			}
			*num[k].v = (int)v;
		}
		if (!known) {
			printf("httpd: unknown option '%s' (port= workers= conns= timeout= keepalive= "
			       "seconds= views=shared|percpu surge=)\n", a);
			return false;
		}
	}
	return true;
}

static void print_stats(void)
{
	uint64_t req = 0, st[6] = { 0 };
	for (int i = 0; i < cfg.workers; i++) {
		req += workers[i].requests;
		for (int k = 0; k < 6; k++)
			st[k] += workers[i].status[k];
	}
	printf("httpd: served %lu requests (2xx %lu, 4xx %lu, 5xx %lu) on %lu connections; "
	       "%lu page views\n", (unsigned long)req, (unsigned long)st[2], (unsigned long)st[4],
	       (unsigned long)st[5], (unsigned long)accepted_total, (unsigned long)pageviews_total());
}

int main(int argc, char **argv)
{
	if (!options(argc, argv))
		return 2;
	if (!conns_init() || !workqueue_init() || !filecache_init() || !pageviews_init() ||
	    !kvstore_init() || !listener_init() || (cfg.surge && !surge_init(cfg.surge))) {
		printf("httpd: cannot set up (out of memory, object tables or sockets)\n");
		return 1;
	}
	if (!workers_start() || thread_create(listener_thread, 0, -1) < 0) {
		printf("httpd: cannot start its threads\n");
		return 1;
	}
	printf("httpd: listening on port %d: %d workers on %ld CPUs, %d connections, timeout %d s, "
	       "keep-alive %d s, page views %s\n", cfg.port, cfg.workers, meminfo(MEMINFO_CPUS),
	       cfg.conns, cfg.timeout_s, cfg.keepalive_s, cfg.views_percpu ? "per CPU" : "shared");
	if (!cfg.seconds) {
		static volatile uint32_t never;
		for (;;)
			futex_wait(&never, 0);
	}
	uint64_t end = now_ns() + (uint64_t)cfg.seconds * 1000000000ull;
	while (now_ns() < end)
		poll(0, 0, 200);
	print_stats();
	return 0;
}

/* jbb's start and its throughput reports (usage in jbb.h). */
#include "jbb.h"
#include "../../../kernel/abi/syscall_nr.h"

struct jbb_config cfg = { .warehouses = 4, .hot = 50 };
static struct terminal terminals[TERMINALS_MAX];

static bool number(const char *a, const char *key, long lo, long hi, long *out)
{
	size_t n = strlen(key);
	if (strncmp(a, key, n) || a[n] != '=')
		return false;
	long v = 0;
	const char *s = a + n + 1;
	for (; *s >= '0' && *s <= '9' && v <= 100000000000L; s++)
		v = v * 10 + (*s - '0');
	if (*s || s == a + n + 1 || v < lo || v > hi) {
		printf("jbb: %s must be a number from %ld to %ld\n", key, lo, hi);
		exit(2);
	}
	*out = v;
	return true;
}

static void options(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		long v;
		const char *a = argv[i];
		if (number(a, "warehouses", 1, WAREHOUSES_MAX, &v))
			cfg.warehouses = (int)v;
		else if (number(a, "terminals", 1, TERMINALS_MAX, &v))
			cfg.terminals = (int)v;
		else if (number(a, "hot", 0, 100, &v))
			cfg.hot = (int)v;
		else if (number(a, "seconds", 0, 1000000, &v))
			cfg.seconds = (int)v;
		else if (number(a, "transactions", 0, 1000000000000L, &v))
			cfg.transactions = v;
		else if (number(a, "delay", 0, 3600, &v))
			cfg.delay = (int)v;
		else if (number(a, "phase", 0, 1000000, &v))
			cfg.phase = (int)v;
		else if (number(a, "hot2", 0, 100, &v))
			cfg.hot2 = (int)v;
		else if (number(a, "think2", 0, 1000, &v))
			cfg.think2 = (int)v;
		else if (!strcmp(a, "locks=coarse") || !strcmp(a, "locks=fine"))
			cfg.fine = a[6] == 'f';
		else if (!strcmp(a, "brand=scan") || !strcmp(a, "brand=flag"))
			cfg.brand_flag = a[6] == 'f';
		else {
			printf("jbb: unknown option '%s' (warehouses= terminals= hot= seconds= "
			       "transactions= delay= locks=coarse|fine brand=scan|flag phase= hot2= think2=)\n", a);
			exit(2);
		}
	}
}

/* Waits s seconds of the timebase, yielding (the machine may have no network for poll). */
static void wait_seconds(int s)
{
	static uint64_t hz;
	if (!hz)
		hz = wl_tb_hz();
	for (uint64_t end = wl_tb() + (uint64_t)s * hz; wl_tb() < end;)
		yield();
}

static void totals(uint64_t k[TXN_KINDS])
{
	k[0] = k[1] = k[2] = 0;
	for (int t = 0; t < cfg.terminals; t++)
		for (int i = 0; i < TXN_KINDS; i++)
			k[i] += terminals[t].done[i];
}

volatile bool jbb_stop;
static uint64_t start, tick, last;

/* From terminal 0: a line per second of the machine's clock (virtual under -icount) with the
 * transactions per second since the last, and the decision to stop. */
void jbb_report(void)
{
	uint64_t k[TXN_KINDS], t = clock_ns();
	totals(k);
	uint64_t all = k[0] + k[1] + k[2];
	bool done = (cfg.transactions && (long)all >= cfg.transactions) ||
		    (cfg.seconds && t - start >= (uint64_t)cfg.seconds * 1000000000ull);
	static bool phase2;
	if (cfg.phase && !phase2 && t - start >= (uint64_t)cfg.phase * 1000000000ull) {
		phase2 = true;
		cfg.hot = cfg.hot2;
		cfg.think = cfg.think2;
		printf("jbb: phase 2 at t=%lu ms: %d%% to warehouse 0, %d ms between a terminal's "
		       "transactions\n", (unsigned long)((t - start) / 1000000), cfg.hot, cfg.think);
	}
	if (t - tick >= 1000000000ull || (done && t > tick)) {
		printf("jbb: t=%lu ms tps=%lu\n", (unsigned long)((t - start) / 1000000),
		       (unsigned long)((all - last) * 1000000000ull / (t - tick)));
		last = all, tick = t;
	}
	if (done)
		jbb_stop = true;
}

int main(int argc, char **argv)
{
	options(argc, argv);
	int cpus = (int)meminfo(MEMINFO_CPUS);
	if (!cfg.terminals)
		cfg.terminals = cpus > 0 && cpus <= TERMINALS_MAX ? cpus : 1;
	if (!objects_init()) {
		printf("jbb: cannot make the objects (out of memory or object tables)\n");
		return 1;
	}
	for (int w = 0; w < cfg.warehouses; w++)
		printf("jbb: warehouse %d%s is object 0x%lx\n", w, w == 0 && cfg.hot ? " (hot)" : "",
		       (unsigned long)warehouse_coid[w]);
	wh_truth_init();
	if (cfg.delay) {
		printf("jbb: starting in %d s\n", cfg.delay);
		wait_seconds(cfg.delay);
	}
	printf("jbb: running: %d warehouses, %d terminals on %d CPUs, %d%% to warehouse 0, locks %s, "
	       "brand %s\n", cfg.warehouses, cfg.terminals, cpus, cfg.hot, cfg.fine ? "fine" : "coarse",
	       cfg.brand_flag ? "flag" : "scan");
	int tids[TERMINALS_MAX];
	start = tick = clock_ns();
	for (int t = 0; t < cfg.terminals; t++) {
		terminals[t].id = t;
		terminals[t].rng = 0x9E3779B97F4A7C15ull * (uint64_t)(t + 1) + 1;
		tids[t] = thread_create(terminal_run, &terminals[t], cpus > 0 ? t % cpus : -1);
		if (tids[t] < 0) {
			printf("jbb: cannot start terminal %d\n", t);
			return 1;
		}
	}
	for (int t = 0; t < cfg.terminals; t++)
		thread_join(tids[t]);
	uint64_t now[TXN_KINDS];
	uint64_t ns = clock_ns() - start;
	totals(now);
	uint64_t all = now[0] + now[1] + now[2];
	printf("jbb: %lu transactions in %lu ms: %lu tps (new-order %lu, payment %lu, order-status %lu); "
	       "warehouse 0 payments %lu\n", (unsigned long)all, (unsigned long)(ns / 1000000),
	       (unsigned long)(all * 1000000000ull / ns), (unsigned long)now[0], (unsigned long)now[1],
	       (unsigned long)now[2], (unsigned long)wh_ytd(0));
	bool paid_ok = true;
	for (int w = 0; w < cfg.warehouses; w++)
		paid_ok &= wh_ytd(w) == wh_paid(w);
	printf("jbb: payments: every warehouse's year-to-date %s what its payers paid\n",
	       paid_ok ? "equals" : "DIFFERS FROM");
	for (int w = 0; w < cfg.warehouses; w++) {
		uint64_t waits, wait = wh_truth_wait(w, &waits);
		printf("jbb: warehouse %d object 0x%lx truth_wait=%lu waited=%lu\n", w,
		       (unsigned long)warehouse_coid[w], (unsigned long)wait, (unsigned long)waits);
	}
	printf("jbb: done\n");
	if (cfg.delay)
		wait_seconds(cfg.delay);
	return 0;
}

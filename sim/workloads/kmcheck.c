/* Exercises the KM's monitoring calls directly (no network): configures groups, runs a
 * benchmark program while monitoring, drains samples, counts and losses, and prints the
 * figures the QEMU tests check. Privileged (started by the kernel with sim/run --run).
 *   kmcheck spin ITER THR [THREADS]  spinbench under instruction sampling
 *   kmcheck ipc THOUSANDS            ipcbench with instructions and cycles counted (their
 *                                    pairing; QEMU's cycles are emulated)
 *   kmcheck pmc5 PROGRAM [ARGS...]   PM_INST_CMPL / PM_CYC over PROGRAM run with ARGS:
 *                                    under -icount, the share of executed instructions counted
 *   kmcheck mux THOUSANDS            ipcbench with one group, then two groups at 50/50
 *   kmcheck overload THOUSANDS THR   sampling faster than the rings hold, drained late
 *   kmcheck cost THOUSANDS THR DEPTH [CHAIN [general]]  instructions per sample (handler,
 *                                    walk of DEPTH+1 frames; with CHAIN, call chains of up to
 *                                    CHAIN frames kept; general: through the sampler's general
 *                                    path), from -icount time with and without sampling
 *   kmcheck paths THOUSANDS THR DEPTH [CHAIN]  the sampler's leaf and general paths record
 *                                    the same samples of ipcbench (fixed periods, user mode)
 *   kmcheck overhead ITER [nosw]     spinbench at the thesis's thresholds vs unmonitored
 *   kmcheck overhead-rates ITER      spinbench sampled at 100, 1,000 and 10,000 per second
 *                                    (nosw: without the software MMU-miss events)
 *   kmcheck locks THREADS ITER       sleepbench's monitored mutex: acquisitions, waiters seen
 *   kmcheck refuse                   configurations the KM must refuse, with their reasons
 *   kmcheck walkfault THOUSANDS      a stack walk into unmapped user memory ends there (badframe)
 *   kmcheck sw CALLS                 software events: its own system calls, sampled
 *   kmcheck insyscall CALLS TICK_US  long system calls are preempted: a thread on the same
 *                                    CPU runs during them, and the decrementer's samples
 *                                    taken during them land in the kernel
 *   kmcheck alias THR A B ROUNDS     beatbench's two objects' shares of the samples with
 *                                    fixed, then randomized periods of THR instructions
 *   kmcheck catalogue [EVENT...]     each event's status in the catalogue: counts and samples
 *                                    here, basis, and the reason when it does not
 *   kmcheck clock MS                 PM_CYC and PM_INST_CMPL over MS ms of a dependent chain of
 *                                    adds, against the elapsed time of the timebase clock
 *   kmcheck pages N                  SW_HPT_MISS over a first touch of N new 4 KiB pages, then
 *                                    a second touch of the same pages (user-mode misses sampled)
 *   kmcheck throttle THOUSANDS THR LIMIT_BP [DRAIN_MS]  ipcbench sampled every THR instructions
 *                                    (drained every DRAIN_MS, 5), past
 *                                    the cost limit: the throttle's events, its cost under the
 *                                    limit once it acts, and the periods still adding up to
 *                                    the counted instructions and to ipcbench's own
 * Every mode but throttle runs with the throttle off: they measure the sampler itself. */
#include <stdbool.h>
#include <kov.h>
#include <km.h>
#include <socket.h>

#define MAX_EVENTS 64
#define SAMPLE_BUF 8192

static struct km_event_info events[MAX_EVENTS];
static long n_events;
static struct km_sample samples[SAMPLE_BUF];
static struct km_count counts[512];
static int failures;

static long number(const char *s)
{
	long v = 0;
	for (; s && *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (*s - '0');
	return v;
}

static int event(const char *name)
{
	for (long i = 0; i < n_events; i++)
		if (strcmp(events[i].name, name) == 0)
			return (int)i;
	printf("kmcheck: no event %s\n", name);
	exit(1);
}

static void group(struct km_config *c, const char *name, uint32_t share)
{
	struct km_group_config *g = &c->group[c->n_groups++];
	size_t n = strlen(name);
	memcpy(g->name, name, n + 1);
	g->share = share;
}

static void add(struct km_config *c, const char *ev, uint64_t threshold)
{
	struct km_group_config *g = &c->group[c->n_groups - 1];
	g->event[g->n_events] = (uint16_t)event(ev);
	g->threshold[g->n_events++] = threshold;
}

static struct km_config config(uint16_t unit, uint64_t slice)
{
	struct km_config c;
	memset(&c, 0, sizeof c);
	c.unit = unit;
	c.slice = slice;
	c.flags = KM_CFG_KERNEL | KM_CFG_USER;
	return c;
}

static void apply(const struct km_config *c)
{
	char why[256];
	long id = km_configure(c, why, sizeof why);
	if (id < 0) {
		printf("kmcheck: configuration refused: %s\n", why);
		exit(1);
	}
}

/* Totals of one run: counts per (group, event) summed over CPUs and intervals. */
struct totals {
	uint64_t raw[KM_MAX_GROUPS][MAX_EVENTS], enabled[KM_MAX_GROUPS][MAX_EVENTS],
		running[KM_MAX_GROUPS][MAX_EVENTS];
	uint64_t samples[MAX_EVENTS];
	uint64_t period_sum[MAX_EVENTS], period_min[MAX_EVENTS], period_max[MAX_EVENTS];
	uint64_t delivered;
};
static struct totals tot;

static void collect_counts(void)
{
	struct km_counts_head h;
	long n = km_counts(&h, counts, 512);
	for (long i = 0; i < n; i++) {
		struct km_count *k = &counts[i];
		tot.raw[k->group][k->event] += k->raw;
		tot.enabled[k->group][k->event] += k->enabled;
		tot.running[k->group][k->event] += k->running;
	}
}

/* Per-object tally of the samples of one pid. */
struct tally { uint64_t object; uint64_t n, periods; };
static struct tally tallies[64];
static int n_tallies;
static uint64_t pid_user_samples, no_object, truncated;
static int watch_pid;

static void collect_samples(void)
{
	long n;
	while ((n = km_samples(samples, SAMPLE_BUF)) > 0) {
		tot.delivered += (uint64_t)n;
		for (long i = 0; i < n; i++) {
			struct km_sample *s = &samples[i];
			tot.samples[s->event]++;
			tot.period_sum[s->event] += s->period;
			if (!tot.period_min[s->event] || s->period < tot.period_min[s->event])
				tot.period_min[s->event] = s->period;
			if (s->period > tot.period_max[s->event])
				tot.period_max[s->event] = s->period;
			if ((int)s->pid != watch_pid || !(s->flags & KM_SMP_USER))
				continue;
			pid_user_samples++;
			no_object += !!(s->flags & KM_SMP_NO_OBJECT);
			if ((s->flags & KM_SMP_NO_OBJECT) && no_object <= 8)
				printf("kmcheck: no object: pc 0x%lx flags 0x%x\n", (unsigned long)s->pc,
				       s->flags);
			truncated += !!(s->flags & KM_SMP_TRUNCATED);
			int t = 0;
			while (t < n_tallies && tallies[t].object != s->object)
				t++;
			if (t == n_tallies && n_tallies < 64)
				tallies[n_tallies++] = (struct tally){ s->object, 0, 0 };
			if (t < 64) {
				tallies[t].n++;
				tallies[t].periods += s->period;
			}
		}
	}
}

static uint64_t object_period_sum(uint64_t object)
{
	for (int t = 0; t < n_tallies; t++)
		if (tallies[t].object == object)
			return tallies[t].periods;
	return 0;
}

static int last_status;   /* the exit status of run_monitored()'s program */

static void run_monitored(const char *program, const char *args)
{
	memset(&tot, 0, sizeof tot);
	if (km_control(KM_CTL_START) != 0) {
		printf("kmcheck: start refused\n");
		exit(1);
	}
	int pid = spawn(program, args);
	watch_pid = pid;
	int status = -1;
	/* Drain while it runs, as the daemon would. */
	while (wait_pid(pid, &status) < 0) {
		collect_samples();
		collect_counts();
	}
	km_control(KM_CTL_STOP);
	collect_samples();
	collect_counts();
	last_status = status;
}

static void check(int ok, const char *what)
{
	printf("kmcheck: %s %s\n", ok ? "ok" : "FAIL", what);
	failures += !ok;
}

static void spin(long iterations, long threshold, long threads)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "spin", 100);
	add(&c, "PM_INST_CMPL", (uint64_t)threshold);
	apply(&c);
	char args[48];
	snprintf(args, sizeof args, "%ld,%ld,1", iterations, threads);
	run_monitored("spinbench", args);
	int inst = event("PM_INST_CMPL");
	uint64_t raw = tot.raw[0][inst], taken = tot.samples[inst];
	uint64_t sum = tot.period_sum[inst], thr = (uint64_t)threshold;
	printf("kmcheck: spin instructions=%lu threshold=%ld samples=%lu expected=%lu "
	       "period_sum=%lu period_min=%lu period_max=%lu\n",
	       (unsigned long)raw, threshold, (unsigned long)taken,
	       (unsigned long)(raw / thr), (unsigned long)sum, (unsigned long)tot.period_min[inst],
	       (unsigned long)tot.period_max[inst]);
	uint64_t best = 0, best_obj = 0;
	for (int t = 0; t < n_tallies; t++)
		if (tallies[t].n > best) {
			best = tallies[t].n;
			best_obj = tallies[t].object;
		}
	printf("kmcheck: spin pid=%d user_samples=%lu top_object=0x%lx top_samples=%lu "
	       "no_object=%lu truncated=%lu\n", watch_pid, (unsigned long)pid_user_samples,
	       (unsigned long)best_obj, (unsigned long)best, (unsigned long)no_object,
	       (unsigned long)truncated);
	/* Every counted instruction belongs to a sample's period but those of each CPU's
	 * unfinished period (no samples are lost here). */
	struct km_info info;
	km_info(&info);
	check(sum <= raw && raw - sum < info.cpus * (thr + thr / 8),
	      "the samples' periods add up to the instructions counted (within a period per CPU)");
	check(tot.period_min[inst] >= thr - thr / 8 && tot.period_max[inst] <= thr + thr / 8 &&
	      tot.period_min[inst] < tot.period_max[inst], "periods randomized within T +- T/8");
	/* n draws of mean T: the count is within 4 standard deviations (T/sqrt(48) each). */
	long d = (long)taken - (long)(raw / thr), n = (long)taken, sd = 1;
	while (sd * sd * 48 < n)
		sd++;
	check(d >= -4 * sd - 1 && d <= 4 * sd + 1, "samples = instructions / threshold (within 4 sd)");
}

static void ipc(long thousands)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	c.flags = KM_CFG_USER;
	group(&c, "ipc", 100);
	add(&c, "PM_INST_CMPL", 0);
	add(&c, "PM_CYC", 0);
	apply(&c);
	char args[32];
	snprintf(args, sizeof args, "%ld,1", thousands);
	run_monitored("ipcbench", args);
	uint64_t i = tot.raw[0][event("PM_INST_CMPL")], y = tot.raw[0][event("PM_CYC")];
	uint64_t milli = y ? i * 1000 / y : 0;
	printf("kmcheck: ipc instructions=%lu cycles=%lu ipc=%lu.%03lu\n", (unsigned long)i,
	       (unsigned long)y, (unsigned long)(milli / 1000), (unsigned long)(milli % 1000));
	/* Under -icount QEMU's cycle counter is virtual time advancing one ns per instruction, so
	 * every program gives 1: this checks that instructions and cycles of one group are read
	 * and paired over the same slices, not any processor's IPC. */
	check(milli >= 990 && milli <= 1010, "PM_INST_CMPL / PM_CYC of one group is 1 under -icount "
	      "(emulated cycles: one virtual ns per instruction; within 1%)");
}

/* QEMU's instruction counter against the instructions it executed: under -icount (shift 0)
 * its cycle counter is virtual time, one ns per instruction executed, kernel and user (QEMU
 * ignores the mode filters), so PM_INST_CMPL / PM_CYC over a program on one CPU is the share
 * of the executed instructions the counter saw. The program must keep its CPU busy: idle time
 * is cycles without instructions. */
static void pmc5(const char *program, const char *args)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "pmc5", 100);
	add(&c, "PM_INST_CMPL", 0);
	add(&c, "PM_CYC", 0);
	apply(&c);
	run_monitored(program, args);
	uint64_t i = tot.raw[0][event("PM_INST_CMPL")], y = tot.raw[0][event("PM_CYC")];
	uint64_t per_mille = y ? i * 1000 / y : 0;
	printf("kmcheck: pmc5 %s %s counted=%lu executed=%lu ratio=%lu.%03lu exit=%d\n", program, args,
	       (unsigned long)i, (unsigned long)y, (unsigned long)(per_mille / 1000),
	       (unsigned long)(per_mille % 1000), last_status);
	check(y > 0 && last_status == 0, "the program ran to its end with both counters counting");
}

/* scaled = raw * enabled / running, as the protocol defines it */
static uint64_t scaled(int g, int e)
{
	if (!tot.running[g][e])
		return 0;
	return (uint64_t)((unsigned __int128)tot.raw[g][e] * tot.enabled[g][e] / tot.running[g][e]);
}

static void mux(long thousands)
{
	char args[32];
	snprintf(args, sizeof args, "%ld,1", thousands);
	int inst = event("PM_INST_CMPL"), cyc = event("PM_CYC");
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "all", 100);
	add(&c, "PM_INST_CMPL", 0);
	apply(&c);
	run_monitored("ipcbench", args);
	uint64_t single = tot.raw[0][inst];

	c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "a", 50);
	add(&c, "PM_INST_CMPL", 0);
	group(&c, "b", 50);
	add(&c, "PM_CYC", 0);
	add(&c, "SW_CONTEXT_SWITCH", 0);
	apply(&c);
	run_monitored("ipcbench", args);
	uint64_t a = scaled(0, inst), b = scaled(1, cyc);
	printf("kmcheck: mux single=%lu a_raw=%lu a_enabled=%lu a_running=%lu a_scaled=%lu "
	       "b_cycles_scaled=%lu\n", (unsigned long)single, (unsigned long)tot.raw[0][inst],
	       (unsigned long)tot.enabled[0][inst], (unsigned long)tot.running[0][inst],
	       (unsigned long)a, (unsigned long)b);
	uint64_t diff = a > single ? a - single : single - a;
	check(tot.running[0][inst] < tot.enabled[0][inst], "group a was multiplexed (running < enabled)");
	check(diff * 50 <= single, "50/50 scaled instructions agree with one group (within 2%)");
}

static void overload(long thousands, long threshold)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "flood", 100);
	add(&c, "PM_INST_CMPL", (uint64_t)threshold);
	apply(&c);
	struct km_state before, after;
	km_state(&before);
	km_control(KM_CTL_START);
	char args[32];
	snprintf(args, sizeof args, "%ld,1", thousands);
	int pid = spawn("ipcbench", args), status;
	wait_pid(pid, &status);   /* nothing drained meanwhile: the rings overflow */
	km_control(KM_CTL_STOP);
	memset(&tot, 0, sizeof tot);
	collect_samples();
	static struct km_lost lost[256];
	long n = km_lost(lost, 256);
	uint64_t lost_total = 0;
	for (long i = 0; i < n; i++)
		lost_total += lost[i].lost;
	km_state(&after);
	uint64_t produced = (after.samples_taken - before.samples_taken) +
			    (after.samples_lost - before.samples_lost);
	printf("kmcheck: overload produced=%lu delivered=%lu lost=%lu\n", (unsigned long)produced,
	       (unsigned long)tot.delivered, (unsigned long)lost_total);
	check(lost_total > 0, "the rings overflowed");
	check(lost_total == produced - tot.delivered, "lost = produced - delivered");
	/* The ring that lost grew: a second run loses less. */
	km_control(KM_CTL_START);
	pid = spawn("ipcbench", args);
	wait_pid(pid, &status);
	km_control(KM_CTL_STOP);
	memset(&tot, 0, sizeof tot);
	collect_samples();
	n = km_lost(lost, 256);
	uint64_t lost2 = 0;
	for (long i = 0; i < n; i++)
		lost2 += lost[i].lost;
	printf("kmcheck: overload second run delivered=%lu lost=%lu\n", (unsigned long)tot.delivered,
	       (unsigned long)lost2);
	check(lost2 < lost_total, "the grown ring lost fewer samples");
}

/* Runs ipcbench once monitored with `threshold` (0: counting only); returns the -icount time
 * (= instructions) from spawn to exit and the samples it produced. */
static uint64_t handler_ticks, handler_samples;

/* Runs `program` monitored under c (or unmonitored when c is 0); returns the -icount time
 * (= instructions) from spawn to exit and the samples it produced. */
static uint64_t timed_program(const char *program, const char *args, const struct km_config *c,
			      uint64_t *produced)
{
	struct km_state a, b;
	km_state(&a);
	if (c) {
		apply(c);
		km_control(KM_CTL_START);
	}
	uint64_t t0 = clock_ns();
	int pid = spawn(program, args), status;
	wait_pid(pid, &status);
	uint64_t t = clock_ns() - t0;
	if (c)
		km_control(KM_CTL_STOP);
	km_state(&b);
	memset(&tot, 0, sizeof tot);
	collect_samples();
	*produced = (b.samples_taken - a.samples_taken) + (b.samples_lost - a.samples_lost);
	handler_ticks = b.handler_ticks - a.handler_ticks;
	handler_samples = b.handler_samples - a.handler_samples;
	return t;
}

static uint64_t timed_run(const char *args, long threshold, long chain, bool general,
	uint64_t *produced)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	if (general)
		c.flags |= KM_CFG_GENERAL_PATH;
	if (chain) {
		c.flags |= KM_CFG_CALLCHAIN;
		c.chain_depth = (uint32_t)chain;
	}
	group(&c, "cost", 100);
	add(&c, "PM_INST_CMPL", (uint64_t)threshold);
	return timed_program("ipcbench", args, &c, produced);
}

/* The thesis's thresholds (instructions 10M, cycles 100M, TLB and lock events 100k) on
 * spinbench, against the same run unmonitored; events that cannot sample here are counted. */
static void overhead(long iterations, bool software)
{
	char args[48];
	snprintf(args, sizeof args, "%ld,1,1", iterations);   /* one thread: a deterministic run */
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "thesis", 100);
	add(&c, "PM_INST_CMPL", 10000000);
	add(&c, "PM_CYC", 0);
	if (software) {   /* the TLB events, as the software MMU misses that count here */
		add(&c, "SW_HPT_MISS", 100000);
		add(&c, "SW_SLB_MISS", 100000);
	}
	uint64_t n, n0;
	uint64_t off = timed_program("spinbench", args, 0, &n0);
	uint64_t on = timed_program("spinbench", args, &c, &n);
	uint64_t again = timed_program("spinbench", args, 0, &n0);
	uint64_t base = off < again ? off : again;
	uint64_t ppm = on > base ? (on - base) * 1000000 / base : 0;
	uint64_t noise = off > again ? off - again : again - off;
	printf("kmcheck: overhead unmonitored=%lu,%lu monitored=%lu samples=%lu overhead=%lu.%04lu%% "
	       "noise=%lu\n", (unsigned long)off, (unsigned long)again, (unsigned long)on,
	       (unsigned long)n, (unsigned long)(ppm / 10000), (unsigned long)(ppm % 10000),
	       (unsigned long)noise);
	check(on >= base, "monitoring costs something");
}

/* Overhead against the sampling rate: spinbench (one thread) unmonitored, then sampled at 100,
 * 1,000 and 10,000 samples per second of its (virtual) time. The thresholds come from a first
 * sampled run that measures how many counted instructions a second of the run holds (not one
 * per nanosecond: QEMU's counter and its -icount clock differ). */
static void overhead_rates(long iterations)
{
	char args[48];
	snprintf(args, sizeof args, "%ld,1,1", iterations);
	uint64_t n0, off = timed_program("spinbench", args, 0, &n0);
	uint64_t again = timed_program("spinbench", args, 0, &n0);
	uint64_t base = off < again ? off : again, noise = off > again ? off - again : again - off;
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "rate", 100);
	add(&c, "PM_INST_CMPL", 1000000);
	uint64_t n, on = timed_program("spinbench", args, &c, &n);
	uint64_t per_second = on ? n * 1000000 * 1000000000 / on : 0;   /* counted per second */
	static const long rates[] = { 100, 1000, 10000 };
	for (int i = 0; i < 3; i++) {
		long threshold = (long)(per_second / (uint64_t)rates[i]);
		if (threshold < 1000)
			threshold = 1000;
		c = config(KM_UNIT_MICROSECONDS, 10000);
		group(&c, "rate", 100);
		add(&c, "PM_INST_CMPL", (uint64_t)threshold);
		on = timed_program("spinbench", args, &c, &n);
		uint64_t extra = on > base ? on - base : 0, ppm = extra * 1000000 / base;
		/* The rate achieved: samples per second of the monitored run's (virtual) time. */
		printf("kmcheck: overhead nominal=%ld/s rate=%lu/s threshold=%ld time_ns=%lu samples=%lu "
		       "overhead=%lu.%04lu%% per_sample=%lu noise_ns=%lu%s\n", rates[i],
		       (unsigned long)(on ? n * 1000000000 / on : 0), threshold, (unsigned long)base,
		       (unsigned long)n, (unsigned long)(ppm / 10000), (unsigned long)(ppm % 10000),
		       (unsigned long)(n ? extra / n : 0), (unsigned long)noise,
		       extra <= noise ? " (within the noise of two unmonitored runs)" : "");
		check(n > 0, "the run produced samples at this rate");
	}
}

static void cost(long thousands, long threshold, long depth, long chain, bool general)
{
	char args[48];
	snprintf(args, sizeof args, "%ld,1,%ld", thousands, depth);
	uint64_t n0, n1;
	/* A first run reads the program in and warms the caches the others then find ready:
	 * measured as the base, it made sampling look about 400 instructions a sample cheaper. */
	timed_run(args, 0, 0, false, &n0);
	uint64_t base = timed_run(args, 0, 0, false, &n0),
		 sampled = timed_run(args, threshold, chain, general, &n1);
	uint64_t per = n1 ? (sampled - base) / n1 : 0;
	struct km_info info;
	km_info(&info);
	/* -icount shift=0: one instruction per nanosecond of virtual time. */
	uint64_t handler = handler_samples ?
		handler_ticks * 1000000000ull / info.timebase_hz / handler_samples : 0;
	printf("kmcheck: cost depth=%ld chain=%ld path=%s samples=%lu base=%lu sampled=%lu "
	       "per_sample=%lu handler_per_sample=%lu\n", depth, chain, general ? "general" : "leaf",
	       (unsigned long)n1, (unsigned long)base, (unsigned long)sampled, (unsigned long)per,
	       (unsigned long)handler);
	check(n1 > 0 && sampled > base, "sampling took samples and cost instructions");
}

/* badframe's method runs on a made frame whose back chain points past the heap's end, where no
 * region maps anything: every user sample's walk must end there with TRUNCATED, through a
 * fault-safe load (without one the kernel would fault in the interrupt and panic), and the
 * program must run to its end. */
static void walkfault(long thousands)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "walkfault", 100);
	add(&c, "PM_INST_CMPL", 20000);
	apply(&c);
	char args[24];
	snprintf(args, sizeof args, "%ld", thousands);
	run_monitored("badframe", args);
	printf("kmcheck: walkfault user_samples=%lu truncated=%lu no_object=%lu\n",
	       (unsigned long)pid_user_samples, (unsigned long)truncated, (unsigned long)no_object);
	check(pid_user_samples > 0, "samples in the method on a made frame");
	/* A few samples land in the program's start and end, outside the method: ~100 in it. */
	check(truncated >= 50 && truncated * 10 >= pid_user_samples * 9 && no_object >= truncated,
	      "the walks in the method ended at the unmapped address, truncated");
	check(last_status == 0, "the program ran to its end");
}

/* sleepbench runs one round and yields a while before it exits: its lock is read meanwhile. */
static void locks(long threads, long iterations)
{
	char args[48];
	snprintf(args, sizeof args, "%ld,%ld,1", threads, iterations);
	int pid = spawn("sleepbench", args), status;
	static struct km_lock_record recs[64];
	long n = 0;
	uint64_t expect = (uint64_t)(threads * iterations);
	struct km_lock_record *r = 0;
	for (int tries = 0; tries < 100000 && !r; tries++) {
		n = km_locks(recs, 64);
		for (long i = 0; i < n; i++)
			if ((int)recs[i].pid == pid && recs[i].s.acquisitions >= expect)
				r = &recs[i];
		if (!r)
			yield();
	}
	if (!r) {
		check(0, "sleepbench's lock seen with all its acquisitions");
		wait_pid(pid, &status);
		return;
	}
	const struct km_lock_stats *s = &r->s;
	printf("kmcheck: locks pid=%u lock=0x%lx owner=0x%lx acquisitions=%lu contentions=%lu "
	       "wait_total=%lu wait_max=%lu hold_total=%lu hold_max=%lu qlen_samples=%lu "
	       "qlen_sum=%lu qlen_max=%u\n", r->pid, (unsigned long)s->lock, (unsigned long)s->owner,
	       (unsigned long)s->acquisitions, (unsigned long)s->contentions,
	       (unsigned long)s->wait_total, (unsigned long)s->wait_max, (unsigned long)s->hold_total,
	       (unsigned long)s->hold_max, (unsigned long)s->qlen_samples, (unsigned long)s->qlen_sum,
	       s->qlen_max);
	check(s->acquisitions == expect, "every acquisition counted");
	check(s->contentions > 0 && s->contentions <= s->acquisitions, "contentions seen, at most one per acquisition");
	check(s->qlen_max == (uint32_t)(threads - 1), "waiters seen reach threads - 1");
	check(s->qlen_samples == s->contentions && s->qlen_sum >= s->qlen_samples, "one queue observation per wait");
	check(s->wait_max <= s->wait_total && s->hold_max <= s->hold_total && s->hold_total > 0,
	      "maxima within totals");
	wait_pid(pid, &status);
}

static void refuse(void)
{
	struct { const char *event; uint64_t thr; const char *expect; } cases[] = {
		{ "PM_LARX_LSU0", 0, "does not count on this machine" },
		{ "PM_CYC", 100000, "cannot raise samples here" },
		{ "SW_CPU_CLOCK", 10, "at most once per timer tick" },
	};
	for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
		struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
		group(&c, "g", 100);
		add(&c, cases[k].event, cases[k].thr);
		char why[256] = "";
		long rc = km_configure(&c, why, sizeof why);
		printf("kmcheck: refuse %s: %ld %s\n", cases[k].event, rc, why);
		int found = 0;
		for (const char *p = why; *p && !found; p++)
			found = strncmp(p, cases[k].expect, strlen(cases[k].expect)) == 0;
		check(rc < 0 && found, cases[k].expect);
	}
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	c.n_groups = 0;
	check(km_configure(&c, 0, 0) == 0, "an empty configuration clears");
	check(km_control(KM_CTL_START) < 0, "start refused without a configuration");
	check(km_samples((struct km_sample *)8, 1) <= 0, "a bad buffer is refused or empty");
	check(km_configure((struct km_config *)8, 0, 0) < 0, "a bad configuration pointer is refused");
}

static void sw(long calls)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "sys", 100);
	add(&c, "SW_SYSCALL", 100);
	add(&c, "SW_CONTEXT_SWITCH", 0);
	apply(&c);
	memset(&tot, 0, sizeof tot);
	watch_pid = getpid();
	km_control(KM_CTL_START);
	for (long i = 0; i < calls; i++)
		getpid();
	km_control(KM_CTL_STOP);
	collect_samples();
	collect_counts();
	int e = event("SW_SYSCALL");
	printf("kmcheck: sw calls=%ld syscalls=%lu samples=%lu switches=%lu\n", calls,
	       (unsigned long)tot.raw[0][e], (unsigned long)tot.samples[e],
	       (unsigned long)tot.raw[0][event("SW_CONTEXT_SWITCH")]);
	check(tot.raw[0][e] >= (uint64_t)calls, "every system call counted");
	long d = (long)tot.samples[e] - (long)(tot.raw[0][e] / 100);
	check(d >= -1 && d <= 1, "one sample per 100 system calls");
}

/* The preemption of system calls. This thread reads the biggest program of the RAM disk
 * (SYS_FILE_READ: a long copy in the kernel, first byte first, last byte last) CALLS times
 * while a second thread on the same CPU spins, watching the buffer: before each call the first
 * and last bytes are set to values the file does not have there, and `call` is odd during the
 * call. The spinner catching the first byte copied and the last one not yet, with `call` odd
 * and unchanged around its two loads, ran in the middle of a call: on the same CPU, only a
 * preempted system call allows that. SW_CPU_CLOCK samples (one per tick) of the reading
 * thread must land in the kernel (the pc of the most frequent one is printed for the test to
 * symbolize), not on its `sc`. */
#define READ_BUF (256 * 1024)
static char read_buf[READ_BUF];
static long read_size;
static volatile uint64_t call, mid_call, spins;
static volatile char mark_first, mark_last;
static volatile int stop_spinning;

static void spinner(void *arg)
{
	(void)arg;
	volatile char *b = read_buf;
	while (!stop_spinning) {
		uint64_t c1 = call;
		char first = b[0], last = b[read_size - 1];
		if ((c1 & 1) && call == c1 && first != mark_first && last == mark_last)
			mid_call++;
		spins++;
	}
}

static void insyscall(long calls, long tick_us)
{
	read_size = file_read("dcid", 0, read_buf, sizeof read_buf);
	check(read_size > 64 * 1024, "the file to read is there and big");
	char first = read_buf[0], last = read_buf[read_size - 1];
	struct km_config c = config(KM_UNIT_MICROSECONDS, 100000);
	group(&c, "clock", 100);
	add(&c, "SW_CPU_CLOCK", (uint64_t)tick_us);
	apply(&c);
	int cpu = getcpu();   /* both threads pinned there: idle CPUs would pull one away */
	check(sched_setaffinity(0, 1ull << cpu) == 0 && getcpu() == cpu, "pinned to this CPU");
	int spin_tid = thread_create(spinner, 0, cpu);
	check(spin_tid > 0, "the spinning thread started");
	while (spins == 0)   /* it has run once: it is on this CPU's run queue from now on */
		yield();
	int me = getpid();
	km_control(KM_CTL_START);
	long failed = 0;
	for (long i = 0; i < calls; i++) {
		read_buf[0] = mark_first = (char)~first;
		read_buf[read_size - 1] = mark_last = (char)~last;
		call++;
		failed += file_read("dcid", 0, read_buf, sizeof read_buf) != read_size;
		call++;
	}
	km_control(KM_CTL_STOP);
	stop_spinning = 1;
	thread_join(spin_tid);
	uint64_t kernel = 0, user = 0, top_pc = 0, top_n = 0;
	static struct { uint64_t pc, n; } pcs[64];
	int n_pcs = 0;
	long n;
	while ((n = km_samples(samples, SAMPLE_BUF)) > 0)
		for (long i = 0; i < n; i++) {
			struct km_sample *s = &samples[i];
			if ((int)s->pid != me || (int)s->tid == spin_tid)
				continue;
			if (!(s->flags & KM_SMP_KERNEL)) {
				user++;
				continue;
			}
			kernel++;
			int k = 0;
			while (k < n_pcs && pcs[k].pc != s->pc)
				k++;
			if (k == n_pcs && n_pcs < 64)
				pcs[n_pcs++].pc = s->pc;
			if (k < 64 && ++pcs[k].n > top_n) {
				top_n = pcs[k].n;
				top_pc = pcs[k].pc;
			}
		}
	printf("kmcheck: insyscall calls=%ld bytes=%ld seen_mid_call=%lu kernel_samples=%lu "
	       "user_samples=%lu top_kernel_pc=0x%lx top_kernel_samples=%lu\n", calls, read_size,
	       (unsigned long)mid_call, (unsigned long)kernel, (unsigned long)user, (unsigned long)top_pc,
	       (unsigned long)top_n);
	check(failed == 0, "every read returned the whole file");
	check(mid_call > 0, "a thread on the same CPU ran in the middle of a system call");
	check(kernel >= 10 && kernel >= 4 * user,
	      "the calling thread's clock samples land in the kernel (at least 80%)");
}

/* beatbench monitored with instruction samples every `thr` (fixed or randomized): the user
 * samples of each of its objects, for the test to compare with the objects' instructions. */
static void alias_run(long thr, bool fixed, const char *args)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	if (fixed)
		c.flags |= KM_CFG_FIXED_PERIOD;
	group(&c, "beat", 100);
	add(&c, "PM_INST_CMPL", (uint64_t)thr);
	apply(&c);
	n_tallies = 0;
	pid_user_samples = no_object = truncated = 0;
	run_monitored("beatbench", args);
	int inst = event("PM_INST_CMPL");
	printf("kmcheck: alias fixed=%d threshold=%ld user_samples=%lu no_object=%lu "
	       "period_min=%lu period_max=%lu objects", fixed, thr, (unsigned long)pid_user_samples,
	       (unsigned long)no_object, (unsigned long)tot.period_min[inst],
	       (unsigned long)tot.period_max[inst]);
	for (int t = 0; t < n_tallies; t++)
		printf(" 0x%lx:%lu", (unsigned long)tallies[t].object, (unsigned long)tallies[t].n);
	printf("\n");
	uint64_t t = (uint64_t)thr;
	if (fixed)
		check(tot.period_min[inst] == t && tot.period_max[inst] == t, "fixed periods are T");
	else
		check(tot.period_min[inst] >= t - t / 8 && tot.period_max[inst] <= t + t / 8 &&
		      tot.period_min[inst] < tot.period_max[inst], "periods randomized within T +- T/8");
	check(pid_user_samples >= 50, "beatbench sampled");
}

static void alias(long thr, long a, long b, long rounds, long count, long step)
{
	char args[64];
	snprintf(args, sizeof args, "%ld,%ld,%ld", a, b, rounds);
	for (long i = 0; i < count; i++) {
		alias_run(thr + i * step, true, args);
		alias_run(thr + i * step, false, args);
	}
}

/* The sampler's leaf path and its general path (KM_CFG_GENERAL_PATH) must record the same
 * samples of the same run: ipcbench, its methods walked from DEPTH frames below them, sampled
 * with fixed periods in user mode, once through each path. Sample by sample the runs cannot be
 * compared (the two handlers' lengths move the ticks, and with them which instructions of the
 * other programs share a CPU's counter), so their summaries are: how many samples, with which
 * flags, on which objects, with which chain depths and periods. */
struct path_summary {
	long samples, object, no_object, truncated, uncertain, period_bad;
	uint64_t interrupts_without_sample;   /* PMU interrupts less the samples they recorded */
	uint64_t rep;                /* the object the first sample with one named */
	long depth[KM_MAX_CHAIN + 1], frames_on_object;
};
static struct path_summary path_sum[2];
#define PATH_BATCH 256
static struct km_frame path_chains[PATH_BATCH * KM_MAX_CHAIN];

static void path_drain(struct path_summary *p, int pid, long threshold)
{
	long n;
	while ((n = km_samples_chains(samples, PATH_BATCH, path_chains)) > 0)
		for (long i = 0; i < n; i++) {
			const struct km_sample *s = &samples[i];
			if ((int)s->pid != pid)
				continue;
			for (unsigned f = 0; f < s->depth && f < KM_MAX_CHAIN; f++)
				p->frames_on_object += p->rep &&
						       path_chains[i * KM_MAX_CHAIN + f].object == p->rep;
			p->samples++;
			p->no_object += !!(s->flags & KM_SMP_NO_OBJECT);
			p->truncated += !!(s->flags & KM_SMP_TRUNCATED);
			p->uncertain += !!(s->flags & KM_SMP_UNCERTAIN);
			p->period_bad += s->period != (uint64_t)threshold;
			if (!p->rep && s->object)
				p->rep = s->object;
			p->object += s->object && s->object == p->rep;
			p->depth[s->depth <= KM_MAX_CHAIN ? s->depth : 0]++;
		}
}

static uint64_t path_run(struct path_summary *p, bool general, const char *args, long threshold,
	long chain)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	c.flags = KM_CFG_USER | KM_CFG_FIXED_PERIOD | (general ? KM_CFG_GENERAL_PATH : 0);
	if (chain) {
		c.flags |= KM_CFG_CALLCHAIN;
		c.chain_depth = (uint32_t)chain;
	}
	group(&c, "paths", 100);
	add(&c, "PM_INST_CMPL", (uint64_t)threshold);
	apply(&c);
	struct km_state a, b;
	km_state(&a);
	km_control(KM_CTL_START);
	int pid = spawn("ipcbench", args), status;
	*p = (struct path_summary){ 0 };
	while (wait_pid(pid, &status) < 0)
		path_drain(p, pid, threshold);
	km_control(KM_CTL_STOP);
	path_drain(p, pid, threshold);
	km_state(&b);
	p->interrupts_without_sample = (b.pmu_interrupts - a.pmu_interrupts) -
				       (b.handler_samples - a.handler_samples);
	return b.leaf_samples - a.leaf_samples;
}

/* a and b within 3% of the run's samples (n), or 2 for small counts. */
static bool close_to(long a, long b, long n)
{
	long d = a > b ? a - b : b - a;
	return d <= 2 || d * 100 <= n * 3;
}

static void paths(long thousands, long threshold, long depth, long chain)
{
	char args[48];
	snprintf(args, sizeof args, "%ld,1,%ld", thousands, depth);
	uint64_t leaf = path_run(&path_sum[0], false, args, threshold, chain);
	uint64_t general_leaf = path_run(&path_sum[1], true, args, threshold, chain);
	bool depths_close = true;
	for (int run = 0; run < 2; run++) {
		const struct path_summary *p = &path_sum[run];
		printf("kmcheck: paths %s depth=%ld chain=%ld samples=%ld object=0x%lx on_object=%ld "
		       "no_object=%ld truncated=%ld uncertain=%ld period_not_T=%ld "
		       "chain_frames_on_object=%ld interrupts_without_sample=%lu chain_depths",
		       run ? "general" : "leaf", depth, chain, p->samples, (unsigned long)p->rep,
		       p->object, p->no_object, p->truncated, p->uncertain, p->period_bad,
		       p->frames_on_object, (unsigned long)p->interrupts_without_sample);
		for (int d = 0; d <= KM_MAX_CHAIN; d++)
			if (p->depth[d])
				printf(" %d:%ld", d, p->depth[d]);
		printf("\n");
	}
	const struct path_summary *x = &path_sum[0], *y = &path_sum[1];
	long n = x->samples;
	for (int d = 0; d <= KM_MAX_CHAIN; d++)
		depths_close = depths_close && close_to(x->depth[d], y->depth[d], n);
	check(x->samples >= 100, "the leaf run sampled ipcbench");
	check(leaf >= (uint64_t)x->samples, "the first run's samples took the leaf path");
	check(general_leaf == 0, "the second run's took the general path");
	check(x->rep && x->rep == y->rep, "both runs' samples name ipcbench's object");
	check(close_to(x->samples, y->samples, n) && close_to(x->object, y->object, n) &&
	      close_to(x->no_object, y->no_object, n) && close_to(x->truncated, y->truncated, n) &&
	      close_to(x->uncertain, y->uncertain, n), "both paths' samples agree within 3%");
	check(x->object * 10 >= x->samples * 9, "at least 90% of them on its object");
	check(!x->period_bad && !y->period_bad, "every period is exactly T");
	check(!x->interrupts_without_sample && !y->interrupts_without_sample,
	      "every PMU interrupt recorded a sample (none spurious)");
	check(depths_close && close_to(x->frames_on_object, y->frames_on_object, n),
	      "their chains agree within 3%: depths, frames on the object");
	check(!chain || x->depth[0] * 10 <= x->samples, "with chains, 90% of samples carry one");
}

/* The throttle under an overload: ipcbench (one thread, its method runs THOUSANDS x 1000 adds
 * in blocks of known length: its own truth) sampled every THR instructions in user mode, a
 * thread of this program draining every millisecond as the daemon would, its CPU time charged
 * as the daemon's is. */
struct throttle_watch {
	volatile int done;
	int drain_ms;
	uint64_t since;
	uint32_t raised, lowered, max_factor, worst_after, first_cost;
	uint64_t windows_after, last_windows, raise_window, polls;
};

static void throttle_poll(struct throttle_watch *w)
{
	collect_samples();
	collect_counts();
	struct km_throttle_io io = { .charge = KM_THROTTLE_CHARGE, .since = w->since, .set_limit = KM_THROTTLE_KEEP };
	km_throttle(&io);
	for (uint32_t i = 0; i < io.n_events; i++) {
		const struct km_throttle_event *e = &io.events[i];
		printf("kmcheck: throttle event seq=%lu factor=%u cost=%u.%02u%% limit=%u.%02u%%\n",
		       (unsigned long)e->seq, e->factor, e->cost_bp / 100, e->cost_bp % 100,
		       e->limit_bp / 100, e->limit_bp % 100);
		if (e->factor > w->max_factor) {
			w->raised++;
			w->raise_window = io.windows;
			if (!w->first_cost)
				w->first_cost = e->cost_bp;
		} else {
			w->lowered++;
		}
		w->max_factor = e->factor > w->max_factor ? e->factor : w->max_factor;
		w->since = e->seq;
	}
	/* Windows measured after the first raise with the highest factor in force. */
	if (w->raised && io.windows > w->raise_window && io.windows > w->last_windows &&
	    io.factor == w->max_factor) {
		w->windows_after++;
		w->worst_after = io.cost_bp > w->worst_after ? io.cost_bp : w->worst_after;
	}
	w->last_windows = io.windows;
}

static void throttle_drainer(void *arg)
{
	struct throttle_watch *w = arg;
	struct pollfd none = { -1, 0, 0 };
	while (!w->done) {
		w->polls++;
		throttle_poll(w);
		poll(&none, 1, w->drain_ms);
	}
}

static void throttle(long thousands, long threshold, long limit_bp, long drain_ms)
{
	struct km_throttle_io io = { .set_limit = (uint32_t)limit_bp };
	if (km_throttle(&io) != 0) {
		printf("kmcheck: throttle: the limit was refused\n");
		exit(1);
	}
	struct throttle_watch w = { .since = io.seq, .max_factor = 1, .drain_ms = (int)drain_ms };
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	c.flags = KM_CFG_USER;
	group(&c, "flood", 100);
	add(&c, "PM_INST_CMPL", (uint64_t)threshold);
	apply(&c);
	memset(&tot, 0, sizeof tot);
	n_tallies = 0;
	pid_user_samples = 0;
	km_control(KM_CTL_START);
	char args[32];
	snprintf(args, sizeof args, "%ld,1", thousands);
	int pid = spawn("ipcbench", args), status;
	watch_pid = pid;
	int drainer = thread_create(throttle_drainer, &w, -1);
	wait_pid(pid, &status);
	/* Then a second of nothing to sample: the factor comes back down to 1. */
	struct pollfd none = { -1, 0, 0 };
	poll(&none, 1, 1000);
	w.done = 1;
	if (drainer >= 0)
		thread_join(drainer);
	km_control(KM_CTL_STOP);
	throttle_poll(&w);
	int inst = event("PM_INST_CMPL");
	uint64_t raw = tot.raw[0][inst], sum = tot.period_sum[inst];
	uint64_t best = 0, best_obj = 0;
	for (int t = 0; t < n_tallies; t++)
		if (tallies[t].n > best) {
			best = tallies[t].n;
			best_obj = tallies[t].object;
		}
	uint64_t obj_sum = object_period_sum(best_obj), truth = (uint64_t)thousands * 1000;
	struct km_state st;
	km_state(&st);
	io = (struct km_throttle_io){ .since = w.since, .set_limit = KM_THROTTLE_KEEP };
	km_throttle(&io);
	printf("kmcheck: throttle totals windows=%lu handler_ticks=%lu charged_ticks=%lu "
	       "handler_samples=%lu polls=%lu\n", (unsigned long)io.windows,
	       (unsigned long)io.handler_ticks, (unsigned long)io.other_ticks,
	       (unsigned long)st.handler_samples, (unsigned long)w.polls);
	printf("kmcheck: throttle threshold=%ld limit=%ld.%02ld%% first_cost=%u.%02u%% raised=%u "
	       "lowered=%u max_factor=%u windows_after=%lu worst_cost_after=%u.%02u%% samples=%lu "
	       "lost=%lu instructions=%lu period_sum=%lu object=0x%lx object_period_sum=%lu "
	       "truth=%lu\n", threshold, limit_bp / 100, limit_bp % 100, w.first_cost / 100,
	       w.first_cost % 100, w.raised, w.lowered, w.max_factor, (unsigned long)w.windows_after,
	       w.worst_after / 100, w.worst_after % 100, (unsigned long)tot.samples[inst],
	       (unsigned long)st.samples_lost, (unsigned long)raw, (unsigned long)sum,
	       (unsigned long)best_obj, (unsigned long)obj_sum, (unsigned long)truth);
	check(drainer >= 0, "a thread drains while the benchmark runs");
	check(w.raised > 0 && w.first_cost > (uint32_t)limit_bp, "the overload raised the periods' factor");
	check(w.windows_after >= 3 && w.worst_after <= (uint32_t)limit_bp,
	      "every window measured with the factor in force cost at most the limit");
	check(st.samples_lost == 0 && sum <= raw && (raw - sum) * 100 <= raw,
	      "the samples' periods add up to the counted instructions across the changes (1%)");
	check(w.lowered > 0 && io.factor == 1, "the factor came back to 1 once the load was gone");
	uint64_t d = obj_sum > truth ? obj_sum - truth : truth - obj_sum;
	check(d * 50 <= truth, "ipcbench's instructions estimated from its samples within 2%");
	io = (struct km_throttle_io){ .set_limit = 0 };
	km_throttle(&io);
}

/* The catalogue as the boot probe left it: for each named event (every event without names)
 * whether it counts and samples here, its basis, and the catalogue's reason when it does not. */
static void catalogue(int argc, char **argv)
{
	for (long i = 0; i < n_events; i++) {
		const struct km_event_info *e = &events[i];
		bool named = argc == 0;
		for (int a = 0; a < argc && !named; a++)
			named = strcmp(argv[a], e->name) == 0;
		if (!named)
			continue;
		printf("kmcheck: catalogue %s counts=%d samples=%d basis=%s why=%s\n", e->name,
		       !!(e->flags & KM_EV_COUNTS_HERE), !!(e->flags & KM_EV_SAMPLES_HERE),
		       e->source ? "software" : !(e->flags & KM_EV_COUNTS_HERE) ? "not-counted" :
		       e->flags & KM_EV_ASSUMED ? "assumed" : "measured",
		       e->why_not[0] ? e->why_not : "-");
	}
}

/* The thesis's cycles over one second against the clock rate: a dependent chain of adds runs
 * for MS ms of clock_ns (the timebase) while PM_CYC and PM_INST_CMPL count. QEMU's cycle
 * counter runs at a nominal 1 GHz of its virtual clock, so cycles should equal elapsed ns. */
static void clock_cycles(long ms)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "clock", 100);
	add(&c, "PM_CYC", 0);
	add(&c, "PM_INST_CMPL", 0);
	apply(&c);
	memset(&tot, 0, sizeof tot);
	uint64_t want = (uint64_t)ms * 1000000, x = 1;
	km_control(KM_CTL_START);
	uint64_t t0 = clock_ns(), t = t0;
	while (t - t0 < want) {
		for (int i = 0; i < 1000; i++)
			__asm__ volatile("addi %0,%0,1\n\taddi %0,%0,1\n\taddi %0,%0,1\n\taddi %0,%0,1"
					 : "+r"(x));
		t = clock_ns();
	}
	km_control(KM_CTL_STOP);
	collect_counts();
	uint64_t y = tot.raw[0][event("PM_CYC")], i = tot.raw[0][event("PM_INST_CMPL")];
	struct km_info info;
	km_info(&info);
	printf("kmcheck: clock ms=%ld elapsed_ns=%lu cycles=%lu instructions=%lu timebase_hz=%lu "
	       "chain=%lu\n", ms, (unsigned long)(t - t0), (unsigned long)y, (unsigned long)i,
	       (unsigned long)info.timebase_hz, (unsigned long)x);
	check(y > 0, "cycles counted");
}

/* The thesis's TLB benchmark, with the software MMU-miss event QEMU leaves us: touching N new
 * 4 KiB pages faults each in once in user mode (a hashed-page-table miss, SW_HPT_MISS, sampled
 * here at every miss); the kernel zeroing each new frame through its linear map misses too, in
 * kernel mode. Touching the same pages again should miss none. */
static void pages(long n)
{
	struct km_config c = config(KM_UNIT_MICROSECONDS, 10000);
	group(&c, "pages", 100);
	add(&c, "SW_HPT_MISS", 1);
	apply(&c);
	char *brk = sbrk(0);
	long pad = (long)(-(uintptr_t)brk & 4095);
	char *base = sbrk(pad + n * 4096);
	if (base == (char *)-1 || !base) {
		printf("kmcheck: pages: sbrk refused %ld pages\n", n);
		exit(1);
	}
	volatile char *p = base + pad;
	uint64_t all[2], user[2], delivered[2];
	int e = event("SW_HPT_MISS");
	watch_pid = getpid();
	for (int pass = 0; pass < 2; pass++) {
		memset(&tot, 0, sizeof tot);
		pid_user_samples = 0;
		km_control(KM_CTL_START);
		for (long i = 0; i < n; i++)
			p[i * 4096] = (char)pass;
		km_control(KM_CTL_STOP);
		collect_counts();
		collect_samples();
		all[pass] = tot.raw[0][e];
		user[pass] = pid_user_samples;
		delivered[pass] = tot.delivered;
	}
	printf("kmcheck: pages n=%ld first_touch_user_misses=%lu first_touch_all_misses=%lu "
	       "second_touch_user_misses=%lu second_touch_all_misses=%lu first_touch_samples=%lu\n", n,
	       (unsigned long)user[0], (unsigned long)all[0], (unsigned long)user[1],
	       (unsigned long)all[1], (unsigned long)delivered[0]);
	check(delivered[0] == all[0], "every miss sampled (none lost: keep 2N under the ring's 1024)");
	check(user[0] == (uint64_t)n, "every new page missed once in user mode");
}

int main(int argc, char **argv)
{
	n_events = km_catalogue(events, MAX_EVENTS);
	if (n_events <= 0 || argc < 2) {
		printf("kmcheck: usage: kmcheck spin|ipc|mux|overload|refuse|sw|insyscall|alias ... (catalogue %ld)\n",
		       n_events);
		return 2;
	}
	const char *mode = argv[1];
	struct km_throttle_io off = { .set_limit = 0 };
	if (strcmp(mode, "throttle") != 0)
		km_throttle(&off);
	if (strcmp(mode, "spin") == 0)
		spin(number(argc > 2 ? argv[2] : "200000"), number(argc > 3 ? argv[3] : "10007"),
		     argc > 4 ? number(argv[4]) : 1);
	else if (strcmp(mode, "ipc") == 0)
		ipc(number(argc > 2 ? argv[2] : "20000"));
	else if (strcmp(mode, "pmc5") == 0 && argc > 2) {
		char args[128] = "";
		for (int i = 3; i < argc; i++)
			snprintf(args + strlen(args), sizeof args - strlen(args), "%s%s", i > 3 ? "," : "", argv[i]);
		pmc5(argv[2], args);
	}
	else if (strcmp(mode, "mux") == 0)
		mux(number(argc > 2 ? argv[2] : "20000"));
	else if (strcmp(mode, "overload") == 0)
		overload(number(argc > 2 ? argv[2] : "20000"), number(argc > 3 ? argv[3] : "1000"));
	else if (strcmp(mode, "overhead-rates") == 0)
		overhead_rates(number(argc > 2 ? argv[2] : "20000000"));
	else if (strcmp(mode, "overhead") == 0)
		overhead(number(argc > 2 ? argv[2] : "2000000"), argc <= 3 || strcmp(argv[3], "nosw") != 0);
	else if (strcmp(mode, "cost") == 0)
		cost(number(argc > 2 ? argv[2] : "20000"), number(argc > 3 ? argv[3] : "100000"),
		     number(argc > 4 ? argv[4] : "15"), number(argc > 5 ? argv[5] : "0"),
		     argc > 6 && strcmp(argv[6], "general") == 0);
	else if (strcmp(mode, "paths") == 0)
		paths(number(argc > 2 ? argv[2] : "2000"), number(argc > 3 ? argv[3] : "20011"),
		      number(argc > 4 ? argv[4] : "0"), number(argc > 5 ? argv[5] : "0"));
	else if (strcmp(mode, "locks") == 0)
		locks(number(argc > 2 ? argv[2] : "3"), number(argc > 3 ? argv[3] : "200"));
	else if (strcmp(mode, "refuse") == 0)
		refuse();
	else if (strcmp(mode, "catalogue") == 0)
		catalogue(argc - 2, argv + 2);
	else if (strcmp(mode, "clock") == 0)
		clock_cycles(number(argc > 2 ? argv[2] : "1000"));
	else if (strcmp(mode, "pages") == 0)
		pages(number(argc > 2 ? argv[2] : "400"));
	else if (strcmp(mode, "insyscall") == 0)
		insyscall(number(argc > 2 ? argv[2] : "2000"), number(argc > 3 ? argv[3] : "10000"));
	else if (strcmp(mode, "walkfault") == 0)
		walkfault(number(argc > 2 ? argv[2] : "2000"));
	else if (strcmp(mode, "sw") == 0)
		sw(number(argc > 2 ? argv[2] : "1000"));
	else if (strcmp(mode, "alias") == 0)
		alias(number(argc > 2 ? argv[2] : "96000"), number(argc > 3 ? argv[3] : "1500"),
		      number(argc > 4 ? argv[4] : "500"), number(argc > 5 ? argv[5] : "5000"),
		      number(argc > 6 ? argv[6] : "1"), number(argc > 7 ? argv[7] : "1"));
	else if (strcmp(mode, "throttle") == 0)
		throttle(number(argc > 2 ? argv[2] : "200000"), number(argc > 3 ? argv[3] : "1000"),
			 number(argc > 4 ? argv[4] : "1000"), number(argc > 5 ? argv[5] : "5"));
	else {
		printf("kmcheck: unknown mode %s\n", mode);
		return 2;
	}
	printf("kmcheck: %s done, %d failures\n", mode, failures);
	return failures ? 1 : 0;
}

/* The prompt scheduling class (sched_setclass, kernel/proc/runqueue.h) seen from user space.
 * Every measured thread is pinned to CPU 0, so they compete for one CPU; main waits on CPU 1
 * (if there is one).
 *  latency: thread M waits on a futex while two CPU-bound threads and a kicker share CPU 0.
 *    The kicker wakes M just after it has itself been given the CPU (it sees a gap in the
 *    clock: another thread had its turn), the case the normal class makes a woken thread wait
 *    for: it preempts the running thread only once that has had the CPU for 1 ms, so a normal
 *    M runs at the next tick, about 10 ms on (hz=100); a prompt M preempts at once. M runs
 *    normal, then prompt, then normal again (the class is set back). A timed wait (poll) would
 *    not tell the classes apart: it expires at a tick, when the running thread has had its 1 ms.
 *  bound: a prompt and a normal thread, both CPU-bound, for 2 s. The prompt one runs first for
 *    PROMPT_SHARE_PERCENT (half) of each 100 ms, the rest is shared round robin, so the normal
 *    one gets about a quarter of the CPU: a half without the class, almost nothing without
 *    the bound.
 *  errors: an unknown class is refused (-KOV_EINVAL), an unknown thread too (-KOV_ESRCH).
 * Prints each phase's figures and a summary the test checks:
 *   promptcheck: normal_late_median_us=N renormal_late_median_us=R prompt_late_median_us=P
 *                prompt_late_max_us=M normal_share_pct=S errors=ok|bad
 * then "promptcheck: ok" and exits 0, or "promptcheck: FAIL <why>" and exits 1.
 * Usage: promptcheck [samples per phase (40)] [bound seconds (2)] */
#include "workload.h"
#include <socket.h>

#define MAX_SAMPLES 200
#define SPINNERS 2
#define GAP_NS 5000000ull   /* the kicker was out this long: another thread had a turn (10 ms) */

static volatile int stop_spin;
static volatile uint32_t wake_seq;   /* the futex M waits on */
static volatile uint64_t kicked_at;  /* clock_ns of the kicker's wake-up */
static volatile int m_waits;         /* M is (about to be) blocked: the kicker may wake it */
static long samples;

static void spin(void *arg)
{
	(void)arg;
	while (!stop_spin)
		;
}

static void kicker(void *arg)
{
	(void)arg;
	uint64_t last = clock_ns();
	while (!stop_spin) {
		uint64_t now = clock_ns();
		if (now - last > GAP_NS && m_waits) {
			m_waits = 0;
			kicked_at = clock_ns();
			wake_seq++;
			futex_wake(&wake_seq, 1);
			now = clock_ns();   /* a prompt M ran in between: not a gap of ours */
		}
		last = now;
	}
}

struct phase { int klass; uint64_t late[MAX_SAMPLES]; int setclass_rc; };

static void sort(uint64_t *d, long n)
{
	for (long i = 1; i < n; i++)   /* insertion sort: the C library has no qsort */
		for (long j = i; j > 0 && d[j - 1] > d[j]; j--) {
			uint64_t t = d[j];
			d[j] = d[j - 1];
			d[j - 1] = t;
		}
}

/* M: each phase in its class, `samples` wake-ups each. */
static void measured(void *arg)
{
	struct phase *ph = arg;
	for (int p = 0; p < 3; p++) {
		ph[p].setclass_rc = sched_setclass(0, ph[p].klass);
		for (long i = 0; i < samples;) {
			uint32_t seq = wake_seq;
			m_waits = 1;
			futex_wait(&wake_seq, seq);
			if (wake_seq != seq)
				ph[p].late[i++] = clock_ns() - kicked_at;
		}
		sort(ph[p].late, samples);
		printf("promptcheck: latency %s median=%lu us p90=%lu us max=%lu us\n",
		       ph[p].klass == SCHED_CLASS_PROMPT ? "prompt" : "normal",
		       (unsigned long)(ph[p].late[samples / 2] / 1000),
		       (unsigned long)(ph[p].late[samples * 9 / 10] / 1000),
		       (unsigned long)(ph[p].late[samples - 1] / 1000));
	}
}

static struct phase phases[3] = {
	{ SCHED_CLASS_NORMAL, { 0 }, -1 },
	{ SCHED_CLASS_PROMPT, { 0 }, -1 },
	{ SCHED_CLASS_NORMAL, { 0 }, -1 },
};

/* Prints why when ok is false; returns 1 then. */
static int check(bool ok, const char *why)
{
	if (!ok)
		printf("promptcheck: FAIL %s\n", why);
	return !ok;
}

struct hog { volatile uint64_t ran_ns; };
static volatile int go, stop;

/* CPU-bound; counts the time it ran: the clock's steps (microseconds), less those of 1 ms or
 * more, which are another thread's turn (a tick, 10 ms) or the host holding QEMU back (lost
 * to both threads alike, so the shares still hold on a busy host). */
static void hog(void *arg)
{
	struct hog *h = arg;
	while (!go)
		;
	uint64_t last = clock_ns(), ran = 0;
	while (!stop) {
		uint64_t now = clock_ns();
		if (now - last < 1000000)
			ran += now - last;
		last = now;
	}
	h->ran_ns = ran;
}

int main(int argc, char **argv)
{
	samples = wl_number(argc > 1 ? argv[1] : 0, 40);
	long seconds = wl_number(argc > 2 ? argv[2] : 0, 2);
	if (samples < 10 || samples > MAX_SAMPLES || seconds < 1) {
		printf("promptcheck: 10-%d samples, at least 1 second\n", MAX_SAMPLES);
		return 2;
	}
	if (meminfo(MEMINFO_CPUS) > 1)
		sched_setaffinity(0, 2);   /* main stays off CPU 0 (it mostly waits anyway) */

	bool errors_ok = sched_setclass(0, 2) == -KOV_EINVAL && sched_setclass(0, -1) == -KOV_EINVAL &&
			 sched_setclass(1 << 30, SCHED_CLASS_PROMPT) == -KOV_ESRCH &&
			 sched_setclass(0, SCHED_CLASS_NORMAL) == 0;

	int tids[SPINNERS + 2];   /* the spinners, the kicker, M */
	for (int i = 0; i < SPINNERS; i++)
		tids[i] = thread_create(spin, 0, 0);
	tids[SPINNERS] = thread_create(kicker, 0, 0);
	tids[SPINNERS + 1] = thread_create(measured, phases, 0);
	for (int i = 0; i < SPINNERS + 2; i++)
		if (tids[i] < 0) {   /* M would wait for ever without its kicker */
			printf("promptcheck: FAIL thread_create: %d\n", tids[i]);
			return 1;
		}
	thread_join(tids[SPINNERS + 1]);
	stop_spin = 1;
	for (int i = 0; i <= SPINNERS; i++)
		thread_join(tids[i]);

	/* The bound: main puts the first hog in the prompt class by its tid. */
	struct hog first = { 0 }, other = { 0 };
	int tf = thread_create(hog, &first, 0), to = thread_create(hog, &other, 0);
	if (tf < 0 || to < 0) {
		printf("promptcheck: FAIL thread_create: %d %d\n", tf, to);
		return 1;
	}
	int bound_rc = sched_setclass(tf, SCHED_CLASS_PROMPT);
	go = 1;
	struct pollfd none = { -1, 0, 0 };   /* ignored: the wait is a sleep */
	poll(&none, 1, (int)(seconds * 1000));
	stop = 1;
	thread_join(tf);
	thread_join(to);
	uint64_t share = other.ran_ns * 100 / (other.ran_ns + first.ran_ns + 1);
	printf("promptcheck: bound prompt ran %lu ms, normal ran %lu ms\n",
	       (unsigned long)(first.ran_ns / 1000000), (unsigned long)(other.ran_ns / 1000000));

	uint64_t normal = phases[0].late[samples / 2] / 1000, renormal = phases[2].late[samples / 2] / 1000;
	uint64_t prompt = phases[1].late[samples / 2] / 1000, prompt_max = phases[1].late[samples - 1] / 1000;
	printf("promptcheck: normal_late_median_us=%lu renormal_late_median_us=%lu "
	       "prompt_late_median_us=%lu prompt_late_max_us=%lu normal_share_pct=%lu errors=%s\n",
	       (unsigned long)normal, (unsigned long)renormal, (unsigned long)prompt,
	       (unsigned long)prompt_max, (unsigned long)share, errors_ok ? "ok" : "bad");

	int failed = check(!phases[0].setclass_rc && !phases[1].setclass_rc && !phases[2].setclass_rc &&
			!bound_rc, "sched_setclass of a thread of ours failed");
	failed += check(errors_ok, "bad sched_setclass arguments were not refused");
	failed += check(prompt * 4 < normal && prompt * 4 < renormal,
			"a prompt thread woke no sooner than a normal one");
	failed += check(share <= 40, "a CPU-bound prompt thread did not run ahead of a normal one");
	failed += check(share >= 15, "a CPU-bound prompt thread took more than its share");
	if (failed)
		return 1;
	printf("promptcheck: ok\n");
	return 0;
}

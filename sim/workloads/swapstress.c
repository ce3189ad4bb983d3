/* Hot swapping under fire (common/co/co_swap.h). First the refusals and the drain's walk:
 *   - a swap to a class of another state format is refused, the object untouched;
 *   - a swap from inside the object's own method is refused (it could never drain);
 *   - a thread asleep inside a method holds the swap until its deadline (refused, object
 *     untouched); once it wakes and leaves, the same swap succeeds;
 *   - a thread asleep outside the object does not hold it (its stack is walked).
 * Then the stress: THREADS threads add 1 to a counter as fast as they can while the main
 * thread swaps it between the shared Counter and the per-CPU DCounter SWAPS times. Every add
 * is counted by its thread; the counter's final total must equal their sum (nothing lost or
 * counted twice), and every swap must succeed.
 *     swapstress [swaps 10000] [threads 4]
 * Prints the phases' median and maximum times, calls held and forwarded, and "passed".
 *     swapstress serve [seconds 60] [threads 4]
 * only adds, for the monitor to swap the counter from outside (kovctl swap), then checks the
 * total the same way. */
#include "workload.h"
#include <dcounter.h>
#include "common/co/co_swap.h"

/* Per phase: a correctness test, not a latency one. On the serial machine a drain waits for
 * QEMU's round robin (100 ms turns) to reach every adder: up to 250 ms seen on 4 CPUs. */
#define TIMEOUT_NS 10000000000ull
#define MAX_THREADS 16

static int failures;
static volatile int stop;

static void check(int ok, const char *what)
{
	if (!ok) {
		failures++;
		printf("swapstress: FAIL %s\n", what);
	}
}

/* ---- a probe object for the refusals: it can sleep inside itself or swap itself ---------- */
struct probe;
struct probe_ops { long (*poke)(struct probe *p, long how, coid_t self); };
struct probe { const struct probe_ops *ops; long value; };
enum { POKE_SLEEP = 1, POKE_SWAP_SELF = 2 };

static volatile uint32_t gate;         /* futex word: a poked sleeper waits while it is 0 */
static volatile int sleeping;

static const struct co_swappable probe_swappables[2];

CO_METHOD(long, probe_poke, struct probe *p, long how, coid_t self)
{
	if (how == POKE_SLEEP) {
		sleeping = 1;
		while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
			futex_wait(&gate, 0);
		sleeping = 0;
	} else if (how == POKE_SWAP_SELF) {
		struct co_swap_report r;
		return co_swap(self, &probe_swappables[1], TIMEOUT_NS, &r);
	}
	return ++p->value;
}

static const struct probe_ops probe_ops = { probe_poke };
static const struct co_class probe_class = { "Probe", &probe_ops, 1, 0 };
static const struct co_class probe2_class = { "Probe2", &probe_ops, 1, 0 };

static void free_probe(struct co_root *root, void *rep)
{
	free(rep ? rep : (void *)root);
}

static bool probe_save(struct co_root *root, void *state)
{
	*(long *)state = ((struct probe *)root->reps[0])->value;
	return true;
}

static struct co_root *probe_root(const struct co_class *cls, long value)
{
	struct probe *p = malloc(sizeof *p);
	struct co_root *root = p ? wl_single_root(cls, p, free_probe) : 0;
	if (!root) {
		free(p);
		return 0;
	}
	*p = (struct probe){ &probe_ops, value };
	return root;
}

static struct co_root *probe_load(const void *state)
{
	return probe_root(&probe_class, *(const long *)state);
}

static struct co_root *probe2_load(const void *state)
{
	return probe_root(&probe2_class, *(const long *)state);
}

static const struct co_swappable probe_swappables[2] = {
	{ &probe_class, "probe", sizeof(long), probe_save, probe_load },
	{ &probe2_class, "probe", sizeof(long), probe_save, probe2_load },
};

static long poke(coid_t c, long how)
{
	return CO_CALL(struct probe, c, poke, how, c);
}

static void sleeper(void *arg)
{
	poke((coid_t)arg, POKE_SLEEP);
}

static void sleeper_outside(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&gate, __ATOMIC_ACQUIRE))
		futex_wait(&gate, 0);
}

static const char *class_of(coid_t c)
{
	return co_gtt(co_index(c))->root->cls->name;
}

static void refusals(void)
{
	co_register_class(&probe_class);
	co_register_class(&probe2_class);
	co_register_swappable(&probe_swappables[0]);
	co_register_swappable(&probe_swappables[1]);
	coid_t p = co_create(probe_root(&probe_class, 0));
	struct co_swap_report r;
	check(p && poke(p, 0) == 1, "probe made");
	dcounter_new();   /* registers the counters' classes */
	check(co_swap(p, co_swappable_named("DCounter"), TIMEOUT_NS, &r) == CO_SWAP_INCOMPATIBLE &&
	      !strcmp(class_of(p), "Probe") && poke(p, 0) == 2, "a swap across formats refused");
	check(poke(p, POKE_SWAP_SELF) == CO_SWAP_NESTED && !strcmp(class_of(p), "Probe"),
	      "a swap from inside the object refused");

	/* Asleep inside: the swap waits for it, times out and leaves the object as it was. */
	gate = 0;
	int tid = thread_create(sleeper, p, -1);
	while (!sleeping)
		yield();
	enum co_swap_result res = co_swap(p, &probe_swappables[1], 300000000ull, &r);
	printf("swapstress: asleep inside: %s after %lu ms, %u walks\n", co_swap_result_name(res),
	       (unsigned long)(r.forward_ns / 1000000), r.walks);
	check(res == CO_SWAP_DRAIN_TIMEOUT && !strcmp(class_of(p), "Probe") && poke(p, 0) == 3,
	      "a swap held by a thread asleep inside the object timed out, object untouched");
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	futex_wake(&gate, 1);
	thread_join(tid);
	res = co_swap(p, &probe_swappables[1], TIMEOUT_NS, &r);
	check(res == CO_SWAP_OK && !strcmp(class_of(p), "Probe2") && poke(p, 0) == 5,
	      "the same swap once the sleeper left, state carried over");

	/* Asleep outside: walked, found outside, does not hold the swap. */
	gate = 0;
	tid = thread_create(sleeper_outside, 0, -1);
	for (int i = 0; i < 50; i++)
		yield();
	res = co_swap(p, &probe_swappables[0], TIMEOUT_NS, &r);
	printf("swapstress: asleep outside: %s in %lu us, %u walks\n", co_swap_result_name(res),
	       (unsigned long)(r.forward_ns / 1000), r.walks);
	check(res == CO_SWAP_OK && !strcmp(class_of(p), "Probe") && poke(p, 0) == 6,
	      "a thread asleep outside the object does not hold a swap");
	__atomic_store_n(&gate, 1, __ATOMIC_RELEASE);
	futex_wake(&gate, 1);
	thread_join(tid);
}

/* ---- the stress ---------------------------------------------------------------------------- */
struct adder { coid_t counter; long adds; };

static volatile long started;

static void adder(void *arg)
{
	struct adder *a = arg;
	dcounter_add(a->counter, 1);
	a->adds++;
	__atomic_fetch_add(&started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		dcounter_add(a->counter, 1);
		if (++a->adds % 1024 == 0)
			yield();   /* lets what earlier swaps replaced be reclaimed */
	}
}

static void start_adders(coid_t c, struct adder *adders, int *tids, long threads)
{
	for (long t = 0; t < threads; t++) {
		adders[t] = (struct adder){ c, 0 };
		tids[t] = thread_create(adder, &adders[t], -1);
	}
}

/* Stops and joins them; the adds they made. */
static long stop_adders(struct adder *adders, const int *tids, long threads)
{
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	long adds = 0;
	for (long t = 0; t < threads; t++) {
		thread_join(tids[t]);
		adds += adders[t].adds;
	}
	return adds;
}

static void sort(uint64_t *v, long n)   /* Shell's sort: the C library has no qsort */
{
	for (long gap = n / 2; gap > 0; gap /= 2)
		for (long i = gap; i < n; i++)
			for (long j = i; j >= gap && v[j - gap] > v[j]; j -= gap) {
				uint64_t t = v[j];
				v[j] = v[j - gap];
				v[j - gap] = t;
			}
}

static void report(const char *what, uint64_t *ns, long n)
{
	sort(ns, n);
	printf("swapstress: %s: median %lu us, max %lu us\n", what,
	       (unsigned long)(ns[n / 2] / 1000), (unsigned long)(ns[n - 1] / 1000));
}

static void stress(long swaps, long threads)
{
	coid_t c = counter_new();
	struct adder adders[MAX_THREADS];
	int tids[MAX_THREADS];
	uint64_t *phase[3] = { malloc(swaps * 8), malloc(swaps * 8), malloc(swaps * 8) };
	check(c && phase[0] && phase[1] && phase[2], "counter and tables made");
	start_adders(c, adders, tids, threads);
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < threads)   /* all calling it */
		yield();
	const struct co_swappable *to[2] = { co_swappable_named("DCounter"), co_swappable_named("Counter") };
	long ok = 0, held = 0, forwarded = 0;
	long why[CO_SWAP_RESULTS] = { 0 };
	for (long i = 0; i < swaps; i++) {
		struct co_swap_report r;
		enum co_swap_result res = co_swap(c, to[i & 1], TIMEOUT_NS, &r);
		why[res < CO_SWAP_RESULTS ? res : 0]++;
		if (res != CO_SWAP_OK)
			continue;
		phase[0][ok] = r.forward_ns;
		phase[1][ok] = r.block_ns;
		phase[2][ok] = r.transfer_ns;
		ok++;
		held += (long)r.held;
		forwarded += (long)r.forwarded;
	}
	long adds = stop_adders(adders, tids, threads);
	long total = dcounter_total(c);
	printf("swapstress: %ld swaps by %ld threads' adds: %ld succeeded; %ld calls held, %ld "
	       "forwarded; %ld adds, total %ld; now a %s\n", swaps, threads, ok, held, forwarded,
	       adds, total, class_of(c));
	for (int k = 1; k < CO_SWAP_RESULTS; k++)
		if (why[k])
			printf("swapstress: %ld swaps failed: %s\n", why[k], co_swap_result_name(k));
	if (ok) {
		report("forward (drain)", phase[0], ok);
		report("block", phase[1], ok);
		report("transfer and swap", phase[2], ok);
	}
	check(ok == swaps, "every swap succeeded");
	check(total == adds, "the total equals the adds made");
	check(held > 0, "some calls were held in the block phase");
}

/* Adders on a shared Counter for `seconds`, while others swap it. */
static void serve(long seconds, long threads)
{
	coid_t c = counter_new();
	struct adder adders[MAX_THREADS];
	int tids[MAX_THREADS];
	start_adders(c, adders, tids, threads);
	printf("swapstress: serving a Counter (object %u) with %ld threads for %ld s\n",
	       (unsigned)co_index(c), threads, seconds);
	for (uint64_t end = clock_ns() + (uint64_t)seconds * 1000000000ull; clock_ns() < end;)
		yield();
	long adds = stop_adders(adders, tids, threads);
	long total = dcounter_total(c);
	printf("swapstress: served: %ld adds, total %ld; now a %s\n", adds, total, class_of(c));
	check(total == adds, "the total equals the adds made");
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "serve")) {
		long threads = wl_number(argc > 3 ? argv[3] : 0, 4);
		serve(wl_number(argc > 2 ? argv[2] : 0, 60), threads < 1 || threads > MAX_THREADS ? 4 : threads);
		printf("swapstress: %s\n", failures ? "FAILED" : "passed");
		return failures ? 1 : 0;
	}
	long swaps = wl_number(argc > 1 ? argv[1] : 0, 10000);
	long threads = wl_number(argc > 2 ? argv[2] : 0, 4);
	if (swaps < 1 || threads < 1 || threads > MAX_THREADS) {
		printf("swapstress: usage: swapstress [swaps >= 1] [threads 1-%d]\n", MAX_THREADS);
		return 2;
	}
	refusals();
	stress(swaps, threads);
	printf("swapstress: %s\n", failures ? "FAILED" : "passed");
	return failures ? 1 : 0;
}

/* Ground truth for the lock statistics: objects of class LockObj, each with its own spin lock,
 * visited by several threads. Every object measures its own truth: the timebase around each
 * spin_lock call whose first try failed, minus the uncontended cost measured before the run,
 * summed while holding the lock. That is the time the call cost its caller beyond an
 * uncontended one, which is what KOV defines as a contention's wait (common/lib/lockstat.h:
 * from the failed first try to the end of the lock call's bookkeeping), and the waits are the
 * contentions KOV should count, exactly.
 *
 * lockbench's clock reads lie a few instructions outside KOV's (before the call's first try,
 * after its last bookkeeping), and now and then the thread is held up right there: its virtual
 * CPU descheduled for milliseconds (the serial machine's CPUs take turns, the parallel
 * machine's host threads are preempted). A hold-up before the first try lets other threads
 * take the lock, so it turns a visit into a contention far more often than chance. That time
 * is no wait and KOV rightly leaves it out. So each contended call also checks KOV's interval
 * for it (the record's figures, which only the holder writes): it must lie inside lockbench's,
 * and where lockbench's is longer by more than 2 us the excess is reported as a stall,
 * leaving the truth less the stalls to compare with KOV (the raw truth is printed too).
 *
 * One object, picked at random from the seed, is hot; the pattern says how:
 *
 *   long     the hot object holds its lock 10 times longer
 *   many     the hot object is visited 10 times as often (same holds)
 *   trylock  as long, but every visit calls spin_trylock first and spin_lock when it fails
 *            (the failed spin_trylock is no wait: only the spin_lock call is timed; the
 *            failures are counted, to equal KOV's trylock_failures exactly)
 *   random   as long, with each thread visiting objects in a random order
 *   single   as long, with one thread: no contention is possible, the truth is zero
 *
 * It waits `delay` seconds (time for a monitor to start collecting), runs `seconds` seconds,
 * prints each object's truth, and `delay` seconds later (the monitor still finds the objects to
 * name them) the lock words, and ends. Usage:
 *   lockbench PATTERN [threads (4)] [objects (8)] [seconds (4)] [delay (3)] [seed (clock)]
 *   lockbench cost [pairs (200000)]   instructions per lock/unlock pair on each path (exact
 *                                     under -icount, where a nanosecond is an instruction)
 * Each object names its lock (spin_lock_owner), so that full lock counting can be switched on
 * for them before any contention. */
#include "workload.h"
#include "../../kernel/abi/km_abi.h"
#include "../../kernel/abi/kov_instr.h"

struct lockobj;
struct lockobj_ops { void (*visit)(struct lockobj *o, long hold); };
struct lockobj {
	const struct lockobj_ops *ops;
	struct spinlock lock;
	uint64_t truth_wait;         /* ticks waited beyond the uncontended cost */
	uint64_t truth_waits;        /* acquisitions whose first try failed */
	uint64_t truth_tryfails;     /* spin_trylock calls that failed (pattern trylock) */
	uint64_t acquisitions;
	const struct km_lock_stats *kov;   /* KOV's record of the lock */
	uint64_t kov_wait_seen;      /* its wait_total at the last acquisition */
	uint64_t kov_outside;        /* contended calls whose KOV interval was not inside ours */
	uint64_t stalls, stall_ticks;   /* contended calls held up outside KOV's interval */
};

enum pattern { LONG, MANY, TRYLOCK, RANDOM, SINGLE };
static enum pattern pattern;
static uint64_t uncontended;     /* median ticks of an acquisition that does not wait */
/* 2 us in ticks: lockbench's interval of a contended call normally exceeds KOV's by 0.2 us (the
 * few instructions between the clocks); by more than ten times that, the thread was held up. */
static uint64_t stall_min;

static inline uint64_t tb(void)
{
	uint64_t t;
	__asm__ volatile("mftb %0" : "=r"(t));
	return t;
}

static void spin(long n)
{
	for (volatile long i = 0; i < n; i++)
		;
}

/* A contended call timed from t0 to t1 (d: beyond the uncontended cost), and KOV's interval
 * for it: the wait its record gained, ending where the hold began. */
static void check_interval(struct lockobj *o, uint64_t t0, uint64_t t1, uint64_t d,
			   uint64_t kov_wait)
{
	uint64_t now = o->kov->acquired_at, from = now - kov_wait;
	if (from < t0 || now > t1)
		o->kov_outside++;
	else if (d > kov_wait + stall_min) {
		o->stalls++;
		o->stall_ticks += d - kov_wait;
	}
}

CO_METHOD(void, lockobj_visit, struct lockobj *o, long hold)
{
	/* A failed spin_trylock is no wait (KOV counts it as a trylock failure): the wait is the
	 * spin_lock call's that follows, timed around that call alone, as in the other patterns. */
	uint64_t t0 = 0, t1 = 0;
	bool waited = false, by_try = false, tryfailed = false;
	if (pattern != TRYLOCK || (tryfailed = !spin_trylock(&o->lock))) {
		waited = (o->lock.word & SPIN_HOLDER) != 0;   /* not the full-counting mark */
		t0 = tb();
		spin_lock(&o->lock);
		t1 = tb();
		/* The call waited if its first try failed: then it took the lock on the contended
		 * path, which leaves SPIN_CONTENDED in the word (the first try leaves only the
		 * holder's id). A look at the word before the call is no substitute: the lock can be
		 * taken or freed in the instructions between the look and the try (1.6% of the hot
		 * object's contentions on the parallel machine). Under full counting (SPIN_FULL)
		 * every acquisition takes that path, and the look decides. */
		uint32_t w = o->lock.word;   /* ours: only the monitor's full-counting switch writes it */
		by_try = !(w & SPIN_FULL);
		if (by_try)
			waited = (w & SPIN_CONTENDED) != 0;
	}
	/* Updated while holding the lock: the lock itself serializes the truth. */
	o->acquisitions++;
	o->truth_tryfails += tryfailed;
	uint64_t kov_total = o->kov->wait_total, kov_wait = kov_total - o->kov_wait_seen;
	o->kov_wait_seen = kov_total;
	if (waited) {
		uint64_t d = t1 - t0 > uncontended ? t1 - t0 - uncontended : 0;
		o->truth_waits++;
		o->truth_wait += d;
		if (by_try)
			check_interval(o, t0, t1, d, kov_wait);
	}
	spin(hold);
	spin_unlock(&o->lock);
}

static const struct lockobj_ops ops = { lockobj_visit };
static const struct co_class lockobj_class = { "LockObj", &ops, 1, 0 };

#define MAX_OBJECTS 32
#define HOLD 400
#define THINK 300
static struct lockobj objs[MAX_OBJECTS];
static coid_t coids[MAX_OBJECTS];
static long n_objects, hot;
static volatile uint64_t stop_at;

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void worker(void *arg)
{
	uint64_t seed = (uint64_t)arg * 0x9E3779B97F4A7C15ull + 1;
	long next = (long)(uint64_t)arg % n_objects;
	for (long visit = 0; tb() < stop_at; visit++) {
		long i, hold = HOLD;
		switch (pattern) {
		case MANY:   /* the hot object gets 10 of every n + 9 visits */
			i = (long)(next_random(&seed) % (uint64_t)(n_objects + 9));
			i = i >= n_objects ? hot : i;
			break;
		case RANDOM:
			i = (long)(next_random(&seed) % (uint64_t)n_objects);
			break;
		default:
			i = next;
			next = (next + 1) % n_objects;
		}
		if (pattern != MANY && i == hot)
			hold *= 10;
		CO_CALL(struct lockobj, coids[i], visit, hold);
		spin(THINK);
	}
}

/* Tenths of nanoseconds (instructions under -icount) per iteration of `body`, less an empty
 * loop's (integers: the C library has no floating point). */
#define PER_PAIR(n, body) ({                                                     \
	uint64_t t0_ = clock_ns();                                               \
	for (long i_ = 0; i_ < (n); i_++) { body; __asm__ volatile("" ::: "memory"); } \
	uint64_t t1_ = clock_ns();                                               \
	for (long i_ = 0; i_ < (n); i_++) __asm__ volatile("" ::: "memory");     \
	uint64_t t2_ = clock_ns();                                               \
	((t1_ - t0_) - (t2_ - t1_)) * 10 / (uint64_t)(n); })

static int cost(long n)
{
	static struct spinlock l = SPINLOCK_INIT, full = SPINLOCK_INIT;
	static struct mutex m = MUTEX_INIT, monitored = MUTEX_INIT;
#define T(v) (unsigned long)((v) / 10), (unsigned long)((v) % 10)
	if (!KOV_LOCK_INSTR) {   /* the locks without statistics: no counted paths to measure */
		uint64_t spin_pair = PER_PAIR(n, spin_lock(&l); spin_unlock(&l));
		uint64_t mutex_pair = PER_PAIR(n, mutex_lock(&m); mutex_unlock(&m));
		printf("lockbench: cost spin_lock+spin_unlock uncontended %lu.%lu instructions\n", T(spin_pair));
		printf("lockbench: cost mutex_lock+mutex_unlock uncontended %lu.%lu instructions\n", T(mutex_pair));
		printf("lockbench: " KOV_NO_LOCK_INSTR_TEXT ": no counted paths\n");
		return 0;
	}
	/* The first contention makes the lock's record (a stack walk): not part of the steady cost. */
	spin_trylock_as(&l, 1 | SPIN_CONTENDED);
	spin_unlock(&l);
	if (mutex_monitor(&monitored, 0) != 0) {
		printf("lockbench: cannot monitor a mutex\n");
		return 1;
	}
	uint64_t spin_pair = PER_PAIR(n, spin_lock(&l); spin_unlock(&l));
	/* A release after a contended acquisition: the record found, the hold closed. */
	uint64_t contended_release = PER_PAIR(n, spin_trylock_as(&l, 1 | SPIN_CONTENDED); spin_unlock(&l));
	/* Full counting: the mark the monitor sets in the word sends every acquisition down the
	 * counted path, and the record's flag keeps it there (a release marks the word again only
	 * while the record is fully counted). */
	if (spin_lock_monitor(&full, 0) != 0) {
		printf("lockbench: cannot name a lock\n");
		return 1;
	}
	uint64_t full_spin_pair = PER_PAIR(n, spin_lock(&full); spin_unlock(&full));
	uint64_t mutex_pair = PER_PAIR(n, mutex_lock(&m); mutex_unlock(&m));
	uint64_t full_pair = PER_PAIR(n, mutex_lock(&monitored); mutex_unlock(&monitored));
	printf("lockbench: cost spin_lock+spin_unlock uncontended %lu.%lu instructions\n", T(spin_pair));
	printf("lockbench: cost acquire-as-contended+spin_unlock (hold measured at release) %lu.%lu "
	       "instructions\n", T(contended_release));
	printf("lockbench: cost spin_lock+spin_unlock fully counted (every acquisition and hold) %lu.%lu "
	       "instructions\n", T(full_spin_pair));
	printf("lockbench: cost mutex_lock+mutex_unlock uncontended %lu.%lu instructions; fully counted "
	       "(mutex_monitor) %lu.%lu\n", T(mutex_pair), T(full_pair));
#undef T
	return 0;
}

int main(int argc, char **argv)
{
	const char *names[] = { "long", "many", "trylock", "random", "single" };
	const char *p = argc > 1 ? argv[1] : "";
	if (!strcmp(p, "cost"))
		return cost(wl_number(argc > 2 ? argv[2] : 0, 200000));
	int k = 0;
	while (k < 5 && strcmp(p, names[k]))
		k++;
	if (k == 5) {
		printf("lockbench: pattern must be long, many, trylock, random or single\n");
		return 2;
	}
	if (!KOV_LOCK_INSTR) {   /* the patterns check KOV's figures against the truth */
		printf("lockbench: " KOV_NO_LOCK_INSTR_TEXT ": only 'cost' runs\n");
		return 2;
	}
	pattern = (enum pattern)k;
	long threads = pattern == SINGLE ? 1 : wl_number(argc > 2 ? argv[2] : 0, 4);
	n_objects = wl_number(argc > 3 ? argv[3] : 0, 8);
	long seconds = wl_number(argc > 4 ? argv[4] : 0, 4);
	long delay = wl_number(argc > 5 ? argv[5] : 0, 3);
	uint64_t seed = (uint64_t)wl_number(argc > 6 ? argv[6] : 0, (long)(clock_ns() & 0x7fffffff));
	if (threads < 1 || threads > 16 || n_objects < 2 || n_objects > MAX_OBJECTS || seconds < 1) {
		printf("lockbench: threads 1-16, objects 2-%d, seconds >= 1\n", MAX_OBJECTS);
		return 2;
	}
	hot = (long)(next_random(&(uint64_t){ seed | 1 }) % (uint64_t)n_objects);
	for (long i = 0; i < n_objects; i++) {
		objs[i].ops = &ops;
		coids[i] = wl_static_object(&lockobj_class, &objs[i]);
		if (!coids[i] || spin_lock_owner(&objs[i].lock, &objs[i]) != 0 ||
		    !(objs[i].kov = spin_lock_stats(&objs[i].lock))) {
			printf("lockbench: cannot create object %ld or name its lock\n", i);
			return 1;
		}
		objs[i].kov_wait_seen = objs[i].kov->wait_total;
	}
	uncontended = wl_uncontended_ticks();
	/* The timebase's rate, against the kernel's clock (the workers only read the timebase). */
	uint64_t hz = wl_tb_hz();
	stall_min = hz / 500000;
	printf("lockbench: pid %d pattern %s threads %ld objects %ld hot %ld seed %lu uncontended %lu "
	       "ticks; starting in %ld s\n", getpid(), p, threads, n_objects, hot, (unsigned long)seed,
	       (unsigned long)uncontended, delay);
	uint64_t start = tb() + (uint64_t)delay * hz;
	while (tb() < start)
		yield();
	stop_at = start + (uint64_t)seconds * hz;
	printf("lockbench: running for %ld s\n", seconds);
	int tids[16];
	for (long t = 0; t < threads; t++)
		tids[t] = thread_create(worker, (void *)t, (int)t);
	for (long t = 0; t < threads; t++)
		thread_join(tids[t]);
	for (long i = 0; i < n_objects; i++)
		printf("lockbench: object %ld lock=0x%lx rep=0x%lx hot=%d acquisitions=%lu waited=%lu "
		       "truth_wait=%lu kov_outside=%lu stalls=%lu stall_ticks=%lu tryfails=%lu\n", i,
		       (unsigned long)&objs[i].lock, (unsigned long)&objs[i], i == hot,
		       (unsigned long)objs[i].acquisitions, (unsigned long)objs[i].truth_waits,
		       (unsigned long)objs[i].truth_wait, (unsigned long)objs[i].kov_outside,
		       (unsigned long)objs[i].stalls, (unsigned long)objs[i].stall_ticks,
		       (unsigned long)objs[i].truth_tryfails);
	printf("lockbench: done\n");
	for (uint64_t end = tb() + (uint64_t)delay * hz; tb() < end;)
		yield();
	/* The lock words at rest, after the last switch of full counting (lockstat_full.sh
	 * switches it while the objects are busy): each must be marked if and only if it is on. */
	printf("lockbench: words");
	for (long i = 0; i < n_objects; i++)
		printf(" 0x%x", (unsigned)objs[i].lock.word);
	printf("\n");
	return 0;
}

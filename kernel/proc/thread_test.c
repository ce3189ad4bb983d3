/* Boot-time self-test of threads, preemption and locks ("selftest=threads"): threads on every
 * CPU add to shared counters under a spin lock and under a sleep lock; totals must be exact. A
 * pair of CPU-bound threads sharing one CPU must both finish (preemption). A join must wait
 * through a wake-up that is not its thread's exit (a late one, from a thread that exited at
 * the same address earlier). */
#include "thread_test.h"
#include "thread.h"
#include "kernel/lock/sleeplock.h"
#include "common/lib/spinlock.h"
#include "../arch/percpu.h"
#include "kernel/arch/console.h"
#include "../arch/cpu.h"
#include "../arch/smp.h"
#include "../arch/platform.h"

#define THREADS_PER_CPU 4
#define ROUNDS 2000

static struct spinlock spin;
static struct sleeplock sleepy;
static volatile uint64_t spin_total, sleep_total;

static void adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(&spin);
		spin_total = spin_total + 1;
		spin_unlock(&spin);
		sleep_lock(&sleepy);
		uint64_t v = sleep_total;
		if (i % 64 == 0)
			thread_yield();   /* hold the sleep lock across a switch now and then */
		sleep_total = v + 1;
		sleep_unlock(&sleepy);
	}
}

static volatile uint64_t hog_done[2];

static void hog(void *arg)
{
	uint64_t n = (uint64_t)arg;
	/* Never yields: only the decrementer can give the other hog a turn. */
	for (volatile uint64_t i = 0; i < 3000000; i++)
		;
	hog_done[n] = mftb();
}

static void nothing(void *arg)
{
	(void)arg;
}

static volatile bool sleeper_may_go;
static volatile bool join_done;

static bool sleeper_held(const void *key)
{
	(void)key;
	return !__atomic_load_n(&sleeper_may_go, __ATOMIC_ACQUIRE);
}

static void held_sleeper(void *arg)
{
	(void)arg;
	while (sleeper_held(0))
		thread_block_on((const void *)&sleeper_may_go, sleeper_held);
}

static void joiner(void *arg)
{
	thread_join(arg);
	__atomic_store_n(&join_done, true, __ATOMIC_RELEASE);
}

/* Waits (yielding) until t is blocked; false after 1 s. */
static bool blocks_soon(const struct thread *t)
{
	for (uint64_t t0 = mftb(); mftb() - t0 < machine.tb_freq; thread_yield())
		if (t->state == THREAD_BLOCKED)
			return true;
	return false;
}

/* True if the join outlasted a wake-up of its key and ended at the thread's exit. */
static bool join_waits_for_exit(void)
{
	struct thread *s = thread_create("held", held_sleeper, 0, -1);
	struct thread *j = thread_create("joiner", joiner, s, -1);
	bool ok = blocks_soon(s) && blocks_soon(j);
	thread_wake_all(s);   /* what a late exit announcement at this address does */
	ok = ok && blocks_soon(j) && !__atomic_load_n(&join_done, __ATOMIC_ACQUIRE);
	__atomic_store_n(&sleeper_may_go, true, __ATOMIC_RELEASE);
	thread_wake_all((const void *)&sleeper_may_go);
	for (uint64_t t0 = mftb(); !join_done && mftb() - t0 < machine.tb_freq; thread_yield())
		;
	if (!join_done)
		return false;   /* the joiner is stuck: not joined, it would block the self-test */
	thread_join(j);
	return ok;
}

void thread_selftest(void)
{
	/* Cross-CPU calls: the others sleep in idle until the call's IPI (or their next tick). */
	uint64_t t0 = mftb();
	bool all = true;
	for (int i = 0; i < 20; i++)
		all &= smp_call_all(nothing, 0);
	uint64_t us = (mftb() - t0) * 1000000 / machine.tb_freq / 20;
	uint64_t ipis = 0;
	for (unsigned i = 0; i < MAX_CPUS; i++)
		ipis += percpu_area[i].ipis;
	kprintf("threads: cross-CPU call to %u CPUs: %lu us per round trip (%s), %lu IPIs taken\n",
		cpus_online, (unsigned long)us, all ? "all answered" : "SOME DID NOT ANSWER",
		(unsigned long)ipis);

	struct thread *t[MAX_CPUS * THREADS_PER_CPU];
	int n = 0;
	uint64_t start = mftb();
	for (unsigned cpu = 0; cpu < MAX_CPUS; cpu++)
		for (int i = 0; percpu_area[cpu].online && i < THREADS_PER_CPU; i++)
			t[n++] = thread_create("adder", adder, 0, (int)cpu);
	for (int i = 0; i < n; i++)
		thread_join(t[i]);
	uint64_t want = (uint64_t)n * ROUNDS;
	kprintf("threads: %d threads on %u CPUs: spin total %lu, sleep total %lu, expected %lu: %s\n",
		n, cpus_online, (unsigned long)spin_total, (unsigned long)sleep_total,
		(unsigned long)want, spin_total == want && sleep_total == want ? "exact" : "WRONG");
	kprintf("threads: sleep lock acquisitions %lu, contended %lu; %lu us\n",
		(unsigned long)sleepy.acquisitions, (unsigned long)sleepy.contentions,
		(unsigned long)((mftb() - start) * 1000000 / machine.tb_freq));

	struct thread *h0 = thread_create("hog0", hog, (void *)0, 0);
	struct thread *h1 = thread_create("hog1", hog, (void *)1, 0);
	thread_join(h0);
	thread_join(h1);
	kprintf("threads: two CPU-bound threads on cpu0 both finished: %s\n",
		hog_done[0] && hog_done[1] ? "yes (preempted)" : "NO");
	bool join_ok = join_waits_for_exit();
	kprintf("threads: a join woken before its thread's exit waits on: %s\n",
		join_ok ? "yes" : "NO");
	kprintf("threads: selftest %s\n", spin_total == want && sleep_total == want &&
		hog_done[0] && hog_done[1] && join_ok ? "passed" : "FAILED");
}

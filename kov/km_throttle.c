/* The monitor's bound on its own cost (common/monitor/throttle.h) in the kernel. Every window
 * (100 ms) one CPU's tick measures what sampling cost since the last window: each CPU's
 * overflow-handler time (kov/km_sampler.c, from the interrupt's entry) and the CPU time of the
 * daemon's thread, which drains, encodes and sends the samples (charged at its
 * SYS_KM_THROTTLE calls, on the CPU it calls from). The policy picks the periods'
 * factor; each CPU takes a new factor up at its next tick, for its hardware periods (drawn at
 * the next reload), its leaf path's range and its software events. Every change is logged for
 * the daemon, which streams it.
 *
 * Concurrency: a window is measured by whichever CPU's tick first finds it over, holding
 * `busy` (a tick never waits for it: it tries again at its next tick); START and the system
 * call take it too, waiting for the tick that holds it. Log entries are written by the holder
 * and read by the system call under it. */
#include "km_internal.h"
#include "common/monitor/throttle.h"
#include "kernel/include/processor.h"
#include "kernel/abi/syscall_nr.h"

#define WINDOW_US 100000
#define LOG_SIZE 64                    /* changes kept for the daemon: a power of two */

static struct {
	volatile uint32_t busy;
	volatile uint32_t factor;          /* in effect; CPUs compare gen */
	volatile uint32_t gen;
	struct throttle policy;
	uint64_t window_start, next_window;
	uint64_t seen_handler[KOV_MAX_CPUS], seen_other[KOV_MAX_CPUS], seen_idle[KOV_MAX_CPUS];
	uint64_t windows, seq;
	bool turns;                        /* the CPUs take turns on one host thread */
	struct km_throttle_event log[LOG_SIZE];
} thr = { .factor = 1, .policy = { .limit_bp = THROTTLE_DEFAULT_LIMIT_BP, .factor = 1,
				   .calm_needed = THROTTLE_CALM_WINDOWS } };

static bool try_hold(void)
{
	uint32_t free = 0;
	return __atomic_compare_exchange_n(&thr.busy, &free, 1, false, __ATOMIC_ACQUIRE,
					   __ATOMIC_RELAXED);
}

/* From a system call (interrupts on): waits for a tick that measures a window elsewhere. With
 * interrupts off meanwhile, so this CPU's own tick cannot find it held and skip. */
static int hold(void)
{
	for (;;) {
		int irq = irq_save();
		if (try_hold())
			return irq;
		irq_restore(irq);
		cpu_relax();
	}
}

static void release(int irq)
{
	__atomic_store_n(&thr.busy, 0, __ATOMIC_RELEASE);
	irq_restore(irq);
}

/* What the window starts from: each CPU's figures now. */
static void snapshot(uint64_t now)
{
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++) {
		thr.seen_handler[i] = __atomic_load_n(&km_cpus[i].handler_ticks, __ATOMIC_RELAXED);
		thr.seen_other[i] = __atomic_load_n(&km_cpus[i].other_ticks, __ATOMIC_RELAXED);
		thr.seen_idle[i] = svc_cpu_online(i) ? svc_cpu_idle_ticks(i) : 0;
	}
	thr.window_start = now;
	thr.next_window = now + tb_from_us(WINDOW_US);
}

static void set_factor(uint32_t f, uint64_t now)
{
	if (f == thr.factor)
		return;
	thr.seq++;
	thr.log[thr.seq % LOG_SIZE] = (struct km_throttle_event){
		.seq = thr.seq, .timebase = now, .factor = f, .cost_bp = thr.policy.last_cost_bp,
		.limit_bp = thr.policy.limit_bp,
	};
	__atomic_store_n(&thr.factor, f, __ATOMIC_RELAXED);
	__atomic_add_fetch(&thr.gen, 1, __ATOMIC_RELEASE);
}

static void measure(uint64_t now)
{
	struct throttle_cpu cpus[KOV_MAX_CPUS];
	unsigned n = 0;
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++) {
		if (!svc_cpu_online(i))
			continue;
		const struct km_cpu *c = &km_cpus[i];
		cpus[n++] = (struct throttle_cpu){
			.handler = __atomic_load_n(&c->handler_ticks, __ATOMIC_RELAXED) - thr.seen_handler[i],
			.other = __atomic_load_n(&c->other_ticks, __ATOMIC_RELAXED) - thr.seen_other[i],
			.idle = svc_cpu_idle_ticks(i) - thr.seen_idle[i],
		};
	}
	struct throttle_window w;
	throttle_window_of(&w, now - thr.window_start, cpus, n, thr.turns);
	thr.windows++;
	set_factor(throttle_decide(&thr.policy, &w), now);
	snapshot(now);
}

/* This CPU's periods follow the factor: the leaf path's range now, the general path's and the
 * software events' at their next draw. */
void km_throttle_take_up(struct km_cpu *c)
{
	uint32_t gen = __atomic_load_n(&thr.gen, __ATOMIC_ACQUIRE);
	c->throttle = __atomic_load_n(&thr.factor, __ATOMIC_RELAXED);
	c->throttle_gen = gen;
	km_fast_rethrottle(c);
}

void km_throttle_tick(struct km_cpu *c, uint64_t now)
{
	if (c->throttle_gen != __atomic_load_n(&thr.gen, __ATOMIC_ACQUIRE))
		km_throttle_take_up(c);
	if (now < thr.next_window || !try_hold())
		return;
	if (now >= thr.next_window)
		measure(now);
	__atomic_store_n(&thr.busy, 0, __ATOMIC_RELEASE);
}

/* The charging caller's CPU time since its mark (or its previous charge): a new caller (the
 * daemon restarted), or the first call since START, starts a new measure. The daemon marks
 * before its drain and charges after it: what it does besides (answering a viewer's symbol
 * tables and scans, the counting and lock streams) does not shrink with longer sampling
 * periods, so charging it could only push the factor up for nothing. */
static uint32_t caller_tid;
static uint64_t caller_at;

static void charge_caller(uint32_t how)
{
	uint32_t me = svc_running().tid;
	uint64_t now = svc_thread_cpu_ticks();
	if (how == KM_THROTTLE_CHARGE && me == caller_tid)
		km_throttle_charge(now - caller_at);
	caller_tid = me;
	caller_at = now;
}

void km_throttle_start(void)
{
	static struct km_info info;   /* START is one caller at a time (SVC_LOCK_CONTROL) */
	svc_machine_describe(&info);
	unsigned online = 0;
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++)
		online += svc_cpu_online(i);
	int irq = hold();
	uint64_t now = mftb();
	thr.turns = info.cpus_run == KM_CPUS_TAKE_TURNS && online > 1;
	throttle_init(&thr.policy, thr.policy.limit_bp);
	set_factor(1, now);   /* each START samples at the periods asked for */
	snapshot(now);
	caller_tid = 0;       /* what the daemon did before START is not monitoring's cost */
	release(irq);
}

void km_throttle_charge(uint64_t ticks)
{
	struct km_cpu *c = &km_cpus[cpu_index(cpu_self())];
	__atomic_add_fetch(&c->other_ticks, ticks, __ATOMIC_RELAXED);
}

long km_throttle_call(struct km_throttle_io *io)
{
	if (io->set_limit != KM_THROTTLE_KEEP && io->set_limit > THROTTLE_MAX_LIMIT_BP)
		return -KOV_EINVAL;
	if (io->charge > KM_THROTTLE_MARK)
		return -KOV_EINVAL;
	if (io->charge)
		charge_caller(io->charge);
	int irq = hold();
	if (io->set_limit != KM_THROTTLE_KEEP) {
		thr.policy.limit_bp = io->set_limit;
		if (!io->set_limit)
			set_factor(throttle_decide(&thr.policy, &(struct throttle_window){ 0 }), mftb());
	}
	io->limit_bp = thr.policy.limit_bp;
	io->factor = thr.factor;
	io->cost_bp = thr.policy.last_cost_bp;
	io->windows = thr.windows;
	io->seq = thr.seq;
	io->handler_ticks = io->other_ticks = 0;
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++) {
		io->handler_ticks += km_cpus[i].handler_ticks;
		io->other_ticks += km_cpus[i].other_ticks;
	}
	uint64_t first = io->since + 1, oldest = thr.seq >= LOG_SIZE ? thr.seq - LOG_SIZE + 1 : 1;
	if (first < oldest)
		first = oldest;
	io->n_events = 0;
	for (uint64_t s = first; s <= thr.seq && io->n_events < KM_THROTTLE_EVENTS; s++)
		io->events[io->n_events++] = thr.log[s % LOG_SIZE];
	release(irq);
	return 0;
}

/* The KM's control side: boot set-up, and the system calls through which the privileged
 * daemon configures groups, starts and stops monitoring, and drains samples, interval counts
 * and loss figures. One caller at a time (SVC_LOCK_CONTROL); the CPUs pick changes up at their
 * ticks. */
#include "km_internal.h"
#include "km_catalogue.h"
#include "pmu_probe.h"
#include "kernel/include/processor.h"
#include "kernel/abi/scan.h"
#include "kernel/abi/syscall_nr.h"
#include "kernel/abi/kov_instr.h"
#include "common/co/cobj.h"
#include "common/lib/string.h"
#include "common/lib/format.h"

volatile uint32_t km_sw_mask;
static uint32_t next_config_id = 1;
static bool ready;

/* The reader's view of each CPU's counts: what was reported, for interval deltas. */
static struct mux_count reported[KOV_MAX_CPUS][KM_MAX_GROUPS][KM_MAX_GROUP_EVENTS];
static uint32_t reported_gen[KOV_MAX_CPUS];
static uint64_t interval_start;
static uint64_t lost_reported[KOV_MAX_CPUS][KM_RINGS][CATALOGUE_MAX];
static uint64_t delivered;

/* The process whose calls last configured or started monitoring. When it ends (the daemon
 * crashed or was killed) nobody drains the rings or undoes what it turned on, so the monitor
 * stops and the kernel's instrumentation goes off; the next daemon starts from a clean state. */
static struct km_proc *controller;

/* Scratch for copies to and from user space (one caller at a time). */
static struct km_config cfg_in;
static struct km_plan plan_in;

static bool ring_setup(struct km_cpu *c)
{
	for (int r = 0; r < KM_RINGS; r++) {
		struct km_sample *s = kmalloc(KM_RING_INITIAL * sizeof *s);
		if (!s || sample_ring_init(&c->ring[r], s, KM_RING_INITIAL) != 0)
			return false;
	}
	return true;
}

void km_probe(void)
{
	/* Before the probe, which may take a PMU interrupt: the interrupt finds its CPU's state
	 * through the per-CPU area. */
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++)
		svc_cpu_set_km(i, &km_cpus[i]);
	pmu_probe();
	km_catalogue_init();
}

void km_init(void)
{
	km_program_init();
	km.tb_per_us = svc_timebase_hz() / 1000000;
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++) {
		if (!svc_cpu_online(i))
			continue;
		if (!ring_setup(&km_cpus[i])) {
			kprintf("kov: no memory for the sample rings: monitoring is off\n");
			return;
		}
	}
	ready = true;
	kprintf("kov: monitor ready: %u rings of %u samples per CPU, walks up to %d frames\n",
		KM_RINGS, KM_RING_INITIAL, KM_WALK_DEPTH);
}

static bool always(const void *key)
{
	(void)key;
	return true;
}

/* Whether some online CPU has not taken up the epoch yet (the key is unused). */
static bool epoch_pending(const void *key)
{
	(void)key;
	uint32_t epoch = __atomic_load_n(&km.epoch, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++)
		if (svc_cpu_online(i) && __atomic_load_n(&km_cpus[i].epoch, __ATOMIC_ACQUIRE) != epoch)
			return true;
	return false;
}

/* Bumps the epoch, applies it here and interrupts the other CPUs, which take it up at once
 * (km_interrupt) instead of at their next tick, the last of them waking this thread; waits
 * up to 100 ms. Where the CPUs take turns on one host thread, an interrupted CPU runs only in
 * its turn, and turns change at the host's timer events, milliseconds apart: there each CPU
 * hands its turn on once it has taken the change up, and this one hands its own on while it
 * waits, so that all take it up in one round (9-21 ms of a STOP under load before, 0.4-0.6 ms
 * this way in most runs). */
static void publish(void)
{
	__atomic_add_fetch(&km.epoch, 1, __ATOMIC_SEQ_CST);
	int irq = irq_save();
	unsigned self = cpu_index(cpu_self());
	km_cpu_apply(&km_cpus[self]);
	irq_restore(irq);
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++)
		if (i != self && svc_cpu_online(i))
			svc_cpu_kick(i);
	uint64_t deadline = clock_ns() + 100000000ull;
	while (epoch_pending(0) && clock_ns() < deadline)
		if (!svc_cpu_yield_turn())
			svc_block_until(&km_epoch_taken, epoch_pending, deadline);
	if (epoch_pending(0))
		kprintf("kov: a CPU did not take up the monitor's change within 100 ms\n");
}

static uint32_t software_mask(const struct km_plan *p)
{
	uint32_t m = 0;
	for (uint32_t g = 0; g < p->n_groups; g++)
		for (int e = 0; e < SW_EVENT_COUNT; e++)
			if (p->group[g].ev_of_sw[e] >= 0)
				m |= 1u << e;
	return m;
}

/* Chain storage for every CPU, made once, by the first configuration that asks for chains
 * (before the configuration is published, so no sampler sees a ring half made). */
static bool chains_setup(const struct km_plan *p)
{
	bool wanted = false;
	for (uint32_t g = 0; g < p->n_groups; g++)
		wanted |= p->group[g].chain_depth > 0;
	if (!wanted)
		return true;
	for (unsigned i = 0; i < KOV_MAX_CPUS; i++) {
		struct km_cpu *c = &km_cpus[i];
		if (!svc_cpu_online(i) || c->chains.slots)
			continue;
		struct attrib_frame *s = kmalloc((uint64_t)KM_CHAIN_SLOTS * KM_MAX_CHAIN * sizeof *s);
		if (!s || chain_ring_init(&c->chains, s, KM_CHAIN_SLOTS, KM_MAX_CHAIN) != 0)
			return false;
	}
	return true;
}

static long configure(uint64_t ucfg, uint64_t uwhy, uint64_t why_size)
{
	char why[256] = "";
	long rc = copy_from_user(&cfg_in, ucfg, sizeof cfg_in);
	if (rc)
		return rc;
	struct km_config applied;
	rc = km_plan_build(&km_catalogue, &cfg_in, &plan_in, &applied, why, sizeof why);
	/* Time samples come from the tick: no more than one per tick. */
	uint64_t tick_us = svc_tick_period_tb() * 1000000 / svc_timebase_hz();
	for (uint32_t g = 0; rc == 0 && g < plan_in.n_groups; g++) {
		int i = plan_in.group[g].ev_of_sw[SW_CPU_CLOCK];
		uint64_t thr = i >= 0 ? plan_in.group[g].ev[i].threshold : 0;
		if (thr && thr < tick_us) {
			format_buf(why, sizeof why, "group %s: SW_CPU_CLOCK samples at most once per "
				"timer tick: a threshold of at least %lu microseconds is needed here",
				applied.group[g].name, (unsigned long)tick_us);
			rc = -1;
		}
	}
	if (rc == 0 && !chains_setup(&plan_in)) {
		format_buf(why, sizeof why, "no memory for the call chains (%u KiB per CPU)",
			(unsigned)(KM_CHAIN_SLOTS * KM_MAX_CHAIN * sizeof(struct attrib_frame) / 1024));
		rc = -1;
	}
	if (rc) {
		if (why_size) {
			size_t n = strlen(why) + 1;
			copy_to_user(uwhy, why, n < why_size ? n : why_size);
		}
		return -KOV_EINVAL;
	}
	bool was_running = km.running;
	km.running = false;
	km_sw_mask = 0;
	publish();
	applied.id = applied.n_groups ? next_config_id++ : 0;
	km.applied = applied;
	km.plan = plan_in;
	km.slice = applied.unit == KM_UNIT_MICROSECONDS ? applied.slice * km.tb_per_us : applied.slice;
	km.sample_modes = (applied.flags & KM_CFG_KERNEL ? KM_SMP_KERNEL : 0) |
			  (applied.flags & KM_CFG_USER ? KM_SMP_USER : 0);
	if (was_running && applied.n_groups) {
		km_throttle_start();
		km.running = true;
		km_sw_mask = software_mask(&km.plan);
		publish();
	}
	return applied.id;
}

static long control(uint64_t cmd)
{
	switch (cmd) {
	case KM_CTL_START:
		if (!km.plan.n_groups)
			return -KOV_EINVAL;
		km_throttle_start();
		km.running = true;
		km_sw_mask = software_mask(&km.plan);
		interval_start = mftb();
		publish();
		return 0;
	case KM_CTL_STOP:
		km.running = false;
		km_sw_mask = 0;
		publish();
		return 0;
	default:
		return -KOV_EINVAL;
	}
}

/* Copies the chains of the got samples at s (just peeked from c's ring) into the caller's chain
 * buffer (sample i's at index first + i); a chain overwritten before this drain came is
 * dropped: depth 0 and the walk marked truncated, in the ring's record itself. */
static long copy_chains(const struct km_cpu *c, uint64_t uchains, uint64_t first, struct km_sample *s,
			uint64_t got)
{
	static struct attrib_frame frames[KM_MAX_CHAIN];   /* one caller at a time */
	_Static_assert(sizeof(struct attrib_frame) == sizeof(struct km_frame), "frame layouts");
	for (uint64_t i = 0; i < got; i++, s++) {
		if (!s->depth)
			continue;
		if (!uchains || !chain_ring_read(&c->chains, s->chain, s->depth, frames)) {
			s->depth = 0;
			s->flags |= uchains ? KM_SMP_TRUNCATED : 0;
			continue;
		}
		long rc = copy_to_user(uchains + (first + i) * KM_MAX_CHAIN * sizeof(struct km_frame),
				       frames, s->depth * sizeof(struct km_frame));
		if (rc)
			return rc;
	}
	return 0;
}

/* Samples the caller's memory refused, after they left their ring: counted as lost. */
static void count_undelivered(struct km_cpu *c, int r, const struct km_sample *s, uint32_t count)
{
	for (uint32_t i = 0; i < count; i++)
		if (s[i].event < CATALOGUE_MAX)
			__atomic_add_fetch(&c->lost[r][s[i].event], 1, __ATOMIC_RELAXED);
}

/* Drains every ring straight into the caller's buffer (no copy in between: the ring's records
 * stay the drain's until released); rings that lost samples or were more than a quarter full
 * get bigger storage (taken up by their CPU's next tick). */
static long drain_samples(uint64_t ubuf, uint64_t max, uint64_t uchains)
{
	uint64_t n = 0;
	for (unsigned cpu = 0; cpu < KOV_MAX_CPUS; cpu++) {
		struct km_cpu *c = &km_cpus[cpu];
		if (!svc_cpu_online(cpu) || !c->ring[0].slots)
			continue;
		for (;;) {
			__atomic_store_n(&c->draining, 1, __ATOMIC_SEQ_CST);
			if (!__atomic_load_n(&c->swapping, __ATOMIC_SEQ_CST))
				break;
			__atomic_store_n(&c->draining, 0, __ATOMIC_SEQ_CST);
			cpu_relax();
		}
		long rc = 0;
		for (int r = 0; r < KM_RINGS && rc == 0; r++) {
			struct km_sample *run[2];
			uint32_t len[2];
			uint64_t lost_now = 0;
			uint32_t room = max - n < 0xFFFFFFFFu ? (uint32_t)(max - n) : 0xFFFFFFFFu;
			uint32_t got = sample_ring_peek(&c->ring[r], room, run, len);
			for (int k = 0; k < 2; k++) {
				if (!rc && len[k])
					rc = copy_chains(c, uchains, n, run[k], len[k]);
				if (!rc && len[k])
					rc = copy_to_user(ubuf + n * sizeof(struct km_sample), run[k],
							  len[k] * sizeof(struct km_sample));
				if (!rc)
					n += len[k];
				else   /* drained but not delivered: counted as lost, nothing vanishes */
					count_undelivered(c, r, run[k], len[k]);
			}
			sample_ring_release(&c->ring[r], got, &lost_now);
			struct km_sample *old = __atomic_load_n(&c->retired[r], __ATOMIC_ACQUIRE);
			if (old) {   /* storage the ring grew out of (grow_rings): nobody reads it now */
				kfree(old);
				__atomic_store_n(&c->retired[r], 0, __ATOMIC_RELEASE);
			}
			uint32_t cap = sample_ring_next_capacity(c->ring[r].capacity, got, lost_now,
								 KM_RING_CAP);
			if (cap > c->ring[r].capacity && !c->grow_storage[r]) {
				struct km_sample *s = kmalloc(cap * sizeof *s);
				if (s) {
					c->grow_capacity[r] = cap;
					__atomic_store_n(&c->grow_storage[r], s, __ATOMIC_RELEASE);
				}
			}
		}
		__atomic_store_n(&c->draining, 0, __ATOMIC_SEQ_CST);
		if (rc) {
			delivered += n;
			return n ? (long)n : rc;   /* what was copied is the caller's */
		}
	}
	delivered += n;
	return (long)n;
}

static uint64_t diff(uint64_t now, uint64_t then)
{
	return now >= then ? now - then : now;
}

static long read_counts(uint64_t uhead, uint64_t ubuf, uint64_t max)
{
	struct km_counts_head h = { .config_id = km.applied.id, .start = interval_start };
	/* A head that cannot be written would lose the interval's deltas once consumed. */
	long rc = copy_to_user(uhead, &h, sizeof h);
	if (rc)
		return rc;
	bool refused = false;
	h.end = mftb();
	interval_start = h.end;
	for (unsigned cpu = 0; cpu < KOV_MAX_CPUS; cpu++) {
		struct km_cpu *c = &km_cpus[cpu];
		if (!svc_cpu_online(cpu))
			continue;
		uint32_t gen = __atomic_load_n(&c->count_gen, __ATOMIC_ACQUIRE);
		if (reported_gen[cpu] != gen) {
			memset(reported[cpu], 0, sizeof reported[cpu]);
			reported_gen[cpu] = gen;
		}
		for (uint32_t g = 0; g < km.plan.n_groups; g++) {
			for (uint32_t i = 0; i < km.plan.group[g].n; i++) {
				struct mux_count now = c->count[g][i], *was = &reported[cpu][g][i];
				if (h.count >= max || refused) {
					h.missed++;   /* not consumed: its delta stays for the next read */
					continue;
				}
				struct km_count r = {
					.cpu = (uint16_t)cpu, .group = (uint16_t)g,
					.event = km.plan.group[g].ev[i].event,
					.raw = diff(now.raw, was->raw),
					.enabled = diff(now.enabled, was->enabled),
					.running = diff(now.running, was->running),
				};
				if (r.running > r.enabled)
					r.running = r.enabled;
				if (copy_to_user(ubuf + h.count * sizeof r, &r, sizeof r)) {
					refused = true;   /* the rest stays for the next read */
					h.missed++;
					continue;
				}
				*was = now;
				h.count++;
			}
		}
	}
	rc = copy_to_user(uhead, &h, sizeof h);
	return rc ? rc : (long)h.count;
}

static long read_lost(uint64_t ubuf, uint64_t max)
{
	uint64_t n = 0;
	for (unsigned cpu = 0; cpu < KOV_MAX_CPUS; cpu++) {
		if (!svc_cpu_online(cpu))
			continue;
		for (int r = 0; r < KM_RINGS; r++)
			for (int e = 0; e < CATALOGUE_MAX; e++) {
				uint64_t now = __atomic_load_n(&km_cpus[cpu].lost[r][e], __ATOMIC_RELAXED);
				uint64_t *was = &lost_reported[cpu][r][e];
				if (now == *was || n >= max)
					continue;
				struct km_lost l = { (uint16_t)cpu, (uint16_t)(r == KM_SW_RING ? 0 : r + 1),
						     (uint16_t)e, 0, now - *was };
				long rc = copy_to_user(ubuf + n * sizeof l, &l, sizeof l);
				if (rc)
					return n ? (long)n : rc;   /* the rest is reported next time */
				*was = now;
				n++;
			}
	}
	return (long)n;
}

static long state(uint64_t ustate)
{
	struct km_state s = { .config_id = km.applied.id, .running = km.running,
			      .samples_delivered = delivered };
	for (unsigned cpu = 0; cpu < KOV_MAX_CPUS; cpu++) {
		if (!svc_cpu_online(cpu))
			continue;
		const struct km_cpu *c = &km_cpus[cpu];
		s.samples_taken += c->taken;
		for (int r = 0; r < KM_RINGS; r++)
			for (int e = 0; e < CATALOGUE_MAX; e++)
				s.samples_lost += c->lost[r][e];
		s.pmu_interrupts += c->interrupts + c->leaf_samples;
		s.switches += c->switches;
		s.handler_samples += c->handler_samples + c->leaf_samples;
		s.leaf_samples += c->leaf_samples;
		s.handler_ticks += c->handler_ticks;
	}
	return copy_to_user(ustate, &s, sizeof s);
}

/* Invocation counting (the DREF hook, what 1) or lockstat figures of monitored mutexes (what 2)
 * on one object of the kernel or a process (index) or on all its live objects (~0). A
 * process's own runtime does it: the command waits for its scanner thread, as a scan would.
 * what: 1 invocation counting, 2 a process's monitored mutexes' figures, 3 full lock
 * counting (kov/km_locks.c for the kernel; the process's runtime otherwise). */
/* Waits for p's runtime to answer request seq (the control lock is held meanwhile). */
static long await_runtime(struct process *p, long seq, uint64_t timeout_us)
{
	uint64_t deadline = clock_ns() + timeout_us * 1000ull;
	uint32_t count;
	bool answered = false;
	while (seq >= 0 && !(answered = svc_scan_answered(p, (uint32_t)seq, &count)) &&
	       clock_ns() < deadline)
		svc_block_until(&km, always, clock_ns() + 1000000);
	return seq < 0 ? seq : answered ? 0 : -KOV_ETIMEDOUT;
}

static long instrument(uint64_t pid, uint64_t index, uint64_t on, uint64_t what)
{
	if (on > 1 || index > 0xFFFFFFFFull || what < 1 || what > 3)
		return -KOV_EINVAL;
	if (what == 1 ? !KOV_CALL_INSTR : !KOV_LOCK_INSTR)
		return -KOV_ENOTSUP;   /* compiled out of this image (kernel/abi/kov_instr.h) */
	bool all = index == 0xFFFFFFFFull;
	if (pid == 0 && what == 2)
		return -KOV_ENOSYS;   /* kernel sleep locks are monitored per lock by full counting */
	if (pid == 0 && what == 3)
		return km_locks_full(index, on);
	if (pid == 0) {
		bool found = all;
		for (uint32_t i = 1; i < co_index_limit(); i++) {
			if ((!all && i != index) || co_gtt(i)->state != CO_LIVE)
				continue;
			found = true;
			if (on)
				co_count_enable(co_from_index(i));
			else
				co_count_disable(co_from_index(i));
		}
		return found ? 0 : -KOV_ENOENT;
	}
	struct process *p = pid <= 0xFFFFFFFFull ? svc_process_get((uint32_t)pid) : 0;
	if (!p)
		return -KOV_ESRCH;
	uint64_t locks = what == 2 ? 1ull << 61 : what == 3 ? 1ull << 60 : 0;
	long rc = await_runtime(p, svc_scan_request(p, 1ull << 62 | locks | on << 32 | index),
				all ? INSTRUMENT_USER_TIMEOUT_US : SCAN_USER_TIMEOUT_US);
	svc_process_put(p);
	return rc;
}

/* A hot swap of one of a process's objects, by its runtime, or of one of the kernel's, by the
 * calling thread (common/co/co_swap.h). */
static long swap(uint64_t pid, uint64_t index, uint64_t class_uaddr, uint64_t answer_uaddr)
{
	char cls[KM_CLASS_NAME];
	if (index == 0 || index > 0xFFFFFFFFull)
		return -KOV_EINVAL;
	if (copy_from_user(cls, class_uaddr, sizeof cls))
		return -KOV_EFAULT;
	if (strnlen(cls, sizeof cls) == sizeof cls)
		return -KOV_EINVAL;   /* no terminating NUL */
	struct km_swap_answer answer;
	long rc = 0;
	if (pid == 0) {
		svc_kernel_swap((uint32_t)index, cls, &answer);
	} else {
		struct process *p = pid <= 0xFFFFFFFFull ? svc_process_get((uint32_t)pid) : 0;
		if (!p)
			return -KOV_ESRCH;
		rc = await_runtime(p, svc_swap_request(p, (uint32_t)index, cls), SWAP_USER_TIMEOUT_US);
		svc_swap_answer(p, &answer);
		svc_process_put(p);
	}
	if (rc == 0 && copy_to_user(answer_uaddr, &answer, sizeof answer))
		return -KOV_EFAULT;
	return rc;
}

static long throttle(uint64_t uio)
{
	static struct km_throttle_io io;   /* one caller at a time */
	long rc = copy_from_user(&io, uio, sizeof io);
	if (!rc)
		rc = km_throttle_call(&io);
	return rc ? rc : copy_to_user(uio, &io, sizeof io);
}

long km_syscall(uint64_t nr, const uint64_t *a)
{
	if (nr == SYS_KM_LOCK_AREA || nr == SYS_KM_LOCKS)
		return km_locks_syscall(nr, a);
	if (!ready)
		return -KOV_ENODEV;
	/* Buffers no process can own are refused before anything is consumed for them. */
	if ((nr == SYS_KM_SAMPLES && a[1] && !user_array_ok(a[0], a[1], sizeof(struct km_sample))) ||
	    (nr == SYS_KM_SAMPLES && a[1] && a[2] &&
	     !user_array_ok(a[2], a[1], KM_MAX_CHAIN * sizeof(struct km_frame))) ||
	    (nr == SYS_KM_COUNTS && a[2] && !user_array_ok(a[1], a[2], sizeof(struct km_count))) ||
	    (nr == SYS_KM_LOST && a[1] && !user_array_ok(a[0], a[1], sizeof(struct km_lost))))
		return -KOV_EFAULT;
	svc_lock(SVC_LOCK_CONTROL);
	long rc;
	switch (nr) {
	case SYS_KM_CONFIGURE: rc = configure(a[0], a[1], a[2]); break;
	case SYS_KM_CONFIG_GET: rc = copy_to_user(a[0], &km.applied, sizeof km.applied); break;
	case SYS_KM_CONTROL: rc = control(a[0]); break;
	case SYS_KM_SAMPLES: rc = drain_samples(a[0], a[1], a[2]); break;
	case SYS_KM_COUNTS: rc = read_counts(a[0], a[1], a[2]); break;
	case SYS_KM_LOST: rc = read_lost(a[0], a[1]); break;
	case SYS_KM_STATE: rc = state(a[0]); break;
	case SYS_KM_INSTRUMENT: rc = instrument(a[0], a[1], a[2], a[3] ? a[3] : 1); break;
	case SYS_KM_SWAP: rc = swap(a[0], a[1], a[2], a[3]); break;
	case SYS_KM_THROTTLE: rc = throttle(a[0]); break;
	default: rc = -KOV_ENOSYS;
	}
	if (rc == 0 && (nr == SYS_KM_CONFIGURE || nr == SYS_KM_CONTROL || nr == SYS_KM_INSTRUMENT))
		controller = svc_running().km;
	svc_unlock(SVC_LOCK_CONTROL);
	return rc;
}

void km_controller_gone(struct km_proc *k)
{
	if (!ready || !k || k != __atomic_load_n(&controller, __ATOMIC_ACQUIRE))
		return;
	svc_lock(SVC_LOCK_CONTROL);
	if (controller == k) {
		controller = 0;
		bool was_running = km.running;
		control(KM_CTL_STOP);
		instrument(0, 0xFFFFFFFFull, 0, 1);   /* the kernel's invocation counting */
		instrument(0, 0xFFFFFFFFull, 0, 3);   /* and its full lock counting */
		kprintf("kov: the process that controlled monitoring ended: monitoring %s, kernel "
			"instrumentation off\n", was_running ? "stopped" : "was not running");
	}
	svc_unlock(SVC_LOCK_CONTROL);
}

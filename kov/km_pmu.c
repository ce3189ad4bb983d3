/* Each CPU's side of monitoring, run at its ticks with interrupts off: applying a new
 * configuration or a start/stop, folding counters and time into the counts, multiplexing
 * groups at slice boundaries, decrementer-time samples, and growing rings that lost samples. */
#include "km_internal.h"
#include "pmu_access.h"
#include "common/monitor/pmu_backend.h"
#include "kernel/include/processor.h"

struct km_global km;
struct km_cpu km_cpus[KOV_MAX_CPUS];

static unsigned count_modes(void)
{
	/* On a G5 the kernel runs in hypervisor state, where MMCR0[FCS] alone does not stop
	 * the counters: the backend adds [FCHV]. */
	return (km.applied.flags & KM_CFG_KERNEL ? PMU_COUNT_KERNEL : 0) |
	       (km.applied.flags & KM_CFG_USER ? PMU_COUNT_USER : 0) |
	       (mfmsr() & MSR_HV ? PMU_KERNEL_HV : 0);
}

/* Stops every counter, with nothing armed. */
static void freeze_all(const struct pmu_backend *pmu)
{
	mtspr(SPRN_MMCR0, pmu_freeze(pmu, 0));
	isync();
}

static void leaf_choose(struct km_fast *f);

/* c->fast for group gi now on the PMU with MMCR0 = mmcr0 (or none: gi < 0). */
static void fast_set(struct km_cpu *c, int gi, uint64_t mmcr0)
{
	struct km_fast *f = &c->fast;
	*f = (struct km_fast){ 0 };   /* runs with interrupts off: the interrupt sees all or none */
	const struct km_plan_group *g = gi >= 0 ? &km.plan.group[gi] : 0;
	if (!g || !g->pmu || !g->sample_pmcs || (g->sample_pmcs & (g->sample_pmcs - 1)))
		return;
	int pmc = __builtin_ctz(g->sample_pmcs) + 1, i = g->ev_of_pmc[pmc - 1];
	if (i < 0 || !g->ev[i].threshold)
		return;
	const struct pmu_backend *pmu = g->pmu;
	uint64_t lo, n;
	period_range(km_throttled(c, g->ev[i].threshold), km.applied.flags & KM_CFG_FIXED_PERIOD,
		     &lo, &n);
	*f = (struct km_fast){
		.pmc = (uint8_t)pmc, .cpu = (uint16_t)cpu_index(cpu_self()), .event = g->ev[i].event,
		.chain_depth = c->chains.slots ? g->chain_depth : 0, .config_id = km.applied.id,
		.overflowed = pmu->pmc_overflowed, .period_lo = lo, .period_n = n,
		.threshold = g->ev[i].threshold,
		.count = &c->count[gi][i].raw, .lost = &c->lost[pmc - 1][g->ev[i].event],
		.base = &c->base[pmc - 1], .period = &c->period[pmc - 1], .ring = &c->ring[pmc - 1],
		.mmcr0_frozen = pmu_freeze(pmu, mmcr0), .mmcr0_run = mmcr0,
	};
	leaf_choose(f);
}

/* The leaf path reloads the counter with v - p, which needs the overflow bit to be the
 * period's limit, and every period to fit under it. */
static void leaf_choose(struct km_fast *f)
{
	f->leaf = KM_LEAF_NONE;
	if ((km.sample_modes & KM_SMP_USER) && f->overflowed == PERIOD_MAX &&
	    f->period_lo + f->period_n - 1 <= PERIOD_MAX && !(km.applied.flags & KM_CFG_GENERAL_PATH))
		f->leaf = f->chain_depth ? KM_LEAF_CHAINS : KM_LEAF_PLAIN;
}

void km_fast_rethrottle(struct km_cpu *c)
{
	struct km_fast *f = &c->fast;
	if (!f->pmc)
		return;
	period_range(km_throttled(c, f->threshold), km.applied.flags & KM_CFG_FIXED_PERIOD,
		     &f->period_lo, &f->period_n);
	leaf_choose(f);
}

/* Puts group gi on the PMU through its backend. A group without one (nothing counts here) only
 * stops what an earlier group left running. */
static void program_group(struct km_cpu *c, int gi, uint64_t now)
{
	const struct km_plan_group *g = &km.plan.group[gi];
	const struct pmu_backend *pmu = g->pmu;
	c->group = gi;
	c->slice_start = now;
	c->slice_units = 0;
	fast_set(c, -1, 0);
	if (!pmu) {
		if (c->pmu)
			freeze_all(c->pmu);
		return;
	}
	struct pmu_regs sel = { g->mmcr0, g->mmcr1, g->mmcra };
	struct pmu_regs run = pmu->program(&sel, g->sample_pmcs, count_modes());
	freeze_all(c->pmu ? c->pmu : pmu);
	mtspr(SPRN_MMCR1, run.mmcr1);
	mtspr(SPRN_MMCRA, run.mmcra);
	for (int pmc = 1; pmc <= pmu->counters; pmc++) {
		int i = g->ev_of_pmc[pmc - 1];
		uint32_t v = 0;
		if (i >= 0 && g->ev[i].threshold) {
			c->period[pmc - 1] = period_draw(&c->periods, km_throttled(c, g->ev[i].threshold));
			v = pmu->preload(c->period[pmc - 1]);
		}
		write_pmc(pmc, v);
		c->base[pmc - 1] = v;
	}
	c->pmu = pmu;
	fast_set(c, gi, run.mmcr0);
	mtspr(SPRN_MMCR0, run.mmcr0);
	isync();
}

void km_fold(struct km_cpu *c, uint64_t now)
{
	const struct km_plan_group *g = &km.plan.group[c->group];
	uint64_t delta[KM_MAX_GROUP_EVENTS] = { 0 };
	for (int pmc = 1; pmc <= 8; pmc++) {
		int i = g->ev_of_pmc[pmc - 1];
		if (i < 0)
			continue;
		uint32_t v = read_pmc(pmc);
		delta[i] = (uint32_t)(v - c->base[pmc - 1]);
		c->base[pmc - 1] = v;
	}
	if (km.applied.unit == KM_UNIT_INSTRUCTIONS && g->inst_pmc)
		c->slice_units += delta[g->ev_of_pmc[g->inst_pmc - 1]];
	else if (km.applied.unit == KM_UNIT_CYCLES && g->cyc_pmc)
		c->slice_units += delta[g->ev_of_pmc[g->cyc_pmc - 1]];
	uint64_t dt = now - c->last_fold;
	c->last_fold = now;
	for (uint32_t gi = 0; gi < km.plan.n_groups; gi++) {
		bool on = (int)gi == c->group;
		for (uint32_t i = 0; i < km.plan.group[gi].n; i++)
			mux_count_slice(&c->count[gi][i], dt, on, on ? delta[i] : 0);
	}
}

/* Moves a ring that lost samples, or was more than a quarter full at a drain, to the bigger
 * storage the reader prepared, samples and all, when the reader is not draining it (this is
 * the producer's CPU with interrupts off). It used to wait for an empty ring, which a ring
 * filled faster than a tick never is at a tick: the storage was made and never taken up. */
static void grow_rings(struct km_cpu *c)
{
	for (int r = 0; r < KM_RINGS; r++) {
		if (!c->grow_storage[r] || c->retired[r])
			continue;
		__atomic_store_n(&c->swapping, 1, __ATOMIC_SEQ_CST);
		if (!__atomic_load_n(&c->draining, __ATOMIC_SEQ_CST)) {
			struct km_sample *old = c->ring[r].slots;
			if (sample_ring_move(&c->ring[r], c->grow_storage[r], c->grow_capacity[r]) == 0) {
				__atomic_store_n(&c->retired[r], old, __ATOMIC_RELEASE);
				c->grow_storage[r] = 0;
			}
		}
		__atomic_store_n(&c->swapping, 0, __ATOMIC_SEQ_CST);
	}
}

static void stop_here(struct km_cpu *c)
{
	if (!c->active)
		return;
	km_fold(c, mftb());
	if (c->pmu)
		freeze_all(c->pmu);
	fast_set(c, -1, 0);
	c->active = false;
}

void km_cpu_apply(struct km_cpu *c)
{
	uint32_t epoch = km.epoch;
	stop_here(c);
	grow_rings(c);
	if (km.running && km.plan.n_groups) {
		uint64_t now = mftb();
		km_throttle_take_up(c);
		mux_init(&c->mux);
		for (uint32_t g = 0; g < km.plan.n_groups; g++)
			mux_add(&c->mux, km.applied.group[g].name, km.applied.group[g].share);
		for (uint32_t g = 0; g < km.plan.n_groups; g++) {
			for (uint32_t i = 0; i < KM_MAX_GROUP_EVENTS; i++)
				mux_count_reset(&c->count[g][i]);
			for (int e = 0; e < SW_EVENT_COUNT; e++) {
				int i = km.plan.group[g].ev_of_sw[e];
				c->sw_left[g][e] = i >= 0 ? km_throttled(c, km.plan.group[g].ev[i].threshold) : 0;
			}
		}
		__atomic_add_fetch(&c->count_gen, 1, __ATOMIC_RELEASE);
		c->last_fold = now;
		c->clock_rem = 0;
		period_seed(&c->periods, now, (uint32_t)cpu_index(cpu_self()),
			    km.applied.flags & KM_CFG_FIXED_PERIOD);
		program_group(c, mux_switch(&c->mux, now).next, now);
		c->active = true;
	}
	__atomic_store_n(&c->epoch, epoch, __ATOMIC_RELEASE);
	svc_wake_all(&km_epoch_taken);   /* publish() waits for the last CPU */
}

const char km_epoch_taken;

/* Takes up a change published since this CPU last did (interrupts off); whether there was one. */
static bool take_up(struct km_cpu *c)
{
	if (__atomic_load_n(&c->epoch, __ATOMIC_ACQUIRE) == __atomic_load_n(&km.epoch, __ATOMIC_ACQUIRE))
		return false;
	km_cpu_apply(c);
	return true;
}

void km_interrupt(void)
{
	if (take_up(&km_cpus[cpu_index(cpu_self())]))
		svc_cpu_yield_turn();   /* the next CPU in turn takes the change up now (publish) */
}

/* Decrementer time in microseconds, as the SW_CPU_CLOCK event. */
static void cpu_clock(struct km_cpu *c, uint64_t dt, const struct trap_frame *tf)
{
	const struct km_plan_group *g = &km.plan.group[c->group];
	int i = g->ev_of_sw[SW_CPU_CLOCK];
	if (i < 0)
		return;
	uint64_t per_us = km.tb_per_us;
	c->clock_rem += dt;
	uint64_t us = c->clock_rem / per_us;
	c->clock_rem %= per_us;
	c->count[c->group][i].raw += us;
	uint64_t thr = km_throttled(c, g->ev[i].threshold), *left = &c->sw_left[c->group][SW_CPU_CLOCK];
	if (!thr || !us)
		return;
	if (us < *left) {
		*left -= us;
		return;
	}
	/* The configuration keeps thresholds at or above the tick, so one sample is due. */
	*left = thr - (us - *left) % thr;
	c->in_handler = true;
	km_record(c, KM_SW_RING, g->ev[i].event, thr, tf);
	c->in_handler = false;
}

void km_tick(struct trap_frame *tf)
{
	struct km_cpu *c = &km_cpus[cpu_index(cpu_self())];
	grow_rings(c);
	/* A change found here rather than at its interrupt (the tick came first) is handed on
	 * the same way, or the publisher waits out the rest of this CPU's turn (5-11 ms of one
	 * STOP in four under load, 2026-11-30). The tick's own work runs when the turn comes
	 * back. */
	if (take_up(c))
		svc_cpu_yield_turn();
	if (!c->active)
		return;
	uint64_t now = mftb(), last = c->last_fold;
	km_throttle_tick(c, now);
	km_fold(c, now);
	cpu_clock(c, now - last, tf);
	bool slice_over = km.applied.unit == KM_UNIT_MICROSECONDS ?
		now - c->slice_start >= km.slice : c->slice_units >= km.slice;
	if (slice_over && km.plan.n_groups > 1) {
		struct mux_switch s = mux_switch(&c->mux, now);
		c->switches++;
		if (s.next != c->group)
			program_group(c, s.next, now);
		else {
			c->slice_start = now;
			c->slice_units = 0;
		}
	}
}

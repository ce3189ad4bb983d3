/* Taking samples: the PMU interrupt (freeze, record, re-arm, unfreeze), the software events,
 * and the attribution of each sample to the object whose method was running. Runs with
 * interrupts off; allocates nothing and takes no lock. */
#include "km_internal.h"
#include "pmu_access.h"
#include "pmu_probe.h"
#include "common/monitor/pmu_backend.h"
#include "common/monitor/chain_ring.h"
#include "common/monitor/attrib_walk.h"
#include "kernel/include/processor.h"
#include "kernel/include/user_load.h"
#include "kernel/include/kernel_stack.h"
#include "common/syms/ksyms.h"
#include "common/lib/string.h"

extern const char _vectors_end[], _etext[];

/* The memory a walk may read: a kernel stack, or (user) all of user space. */
struct walk_ctx {
	struct stack_range stack;
	const struct km_program *prog;
	bool user;
};

/* The walk's reads (common/monitor/attrib_walk.h), inlined into it: a range check, then plain
 * loads from a kernel stack (mapped, cannot fault) or fault-safe loads from user memory. For
 * user memory this CPU's nofault flag (kernel/include/this_cpu.h) is set for the whole walk, so
 * a page that is not mapped now ends the read instead of being faulted in. Through the
 * callbacks they replace, each read cost about 60 instructions (an ELFv1 indirect call, two
 * range checks, the copy). A frame header (n = 3) is read as its back chain and LR save: its CR
 * word is never used. User memory has constant bounds, so its read never looks at the walk's
 * context. */
_Static_assert(USER_BASE == 1ull << 16 && USER_END == 1ull << 32, "km_read_user's bounds");
static inline __attribute__((always_inline)) bool km_read_user(const struct attrib_env *env,
	uint64_t a, uint64_t *v, int n)
{
	(void)env;
	/* User memory is [2^16, 2^32): a is aligned and below 2^32 when its bits above 31 and
	 * below 3 are clear, which one rotate tests at once; then the run's last doubleword. Below
	 * 2^16 nothing is ever mapped (kernel/proc/exec.c), so a read there fails through the
	 * fixup like any page not mapped now, without a test on every read. */
	uint64_t last = a + 8 * (uint64_t)(n - 1);
	if (((a >> 3 | a << 61) >> 29) || (n > 1 && (last >> 32)))
		return false;
	const uint64_t *p = (const uint64_t *)a;
	long err = 0;
	if (n == 3) {
		uaccess_load_or(p, &v[0], &err);
		uaccess_load_or(p + 2, &v[2], &err);
	} else {
		for (int i = 0; i < n; i++)
			uaccess_load_or(p + i, &v[i], &err);
	}
	return err == 0;
}

static inline __attribute__((always_inline)) bool km_read_kernel(const struct attrib_env *env,
	uint64_t a, uint64_t *v, int n)
{
	const struct walk_ctx *w = env->ctx;
	uint64_t len = 8 * (uint64_t)n;
	if (a < w->stack.lo || len > w->stack.hi || a > w->stack.hi - len || (a & 7))
		return false;
	const uint64_t *p = (const uint64_t *)a;
	if (n == 3) {
		v[0] = p[0];
		v[2] = p[2];
		return true;
	}
	for (int i = 0; i < n; i++)
		v[i] = p[i];
	return true;
}

static inline __attribute__((always_inline)) bool km_read(const struct attrib_env *env,
	uint64_t a, uint64_t *v, int n)
{
	const struct walk_ctx *w = env->ctx;
	return w->user ? km_read_user(env, a, v, n) : km_read_kernel(env, a, v, n);
}

/* The same through the callback interface, for the code-reading slow path's needs. */
static bool walk_read_words(void *ctx, uint64_t a, uint64_t *v, int n)
{
	struct attrib_env env = { .ctx = ctx };
	return km_read(&env, a, v, n);
}

static bool kernel_read_text(void *ctx, uint64_t a, uint32_t *v, int n)
{
	(void)ctx;
	uint64_t len = 4 * (uint64_t)n;
	if (a < (uint64_t)_vectors_end || a > (uint64_t)_etext || len > (uint64_t)_etext - a)
		return false;
	memcpy(v, (const void *)a, len);
	return true;
}

static bool user_read_text(void *ctx, uint64_t a, uint32_t *v, int n)
{
	(void)ctx;
	return !(a & 3) && n > 0 && user_range_ok(a, 4 * (uint64_t)n) &&
	       uaccess_words32(v, (const uint32_t *)a, (uint64_t)n) == 0;
}

static bool func_start(void *ctx, uint64_t pc, uint64_t *start)
{
	const struct km_program *p = ((struct walk_ctx *)ctx)->prog;
	return p->syms && ksyms_lookup(p->syms, pc, start) != 0;
}

/* A walk of w's memory and program from pc/sp/lr, ending at stop (0: none), keeping up to
 * chain_max frames into chain. `mapped`: the program's text map has its frames (a constant at
 * each use; without them the frame state is read from the code, through callbacks). */
static inline __attribute__((always_inline)) struct attrib_result walk_from(
	const struct walk_ctx *w, bool mapped, uint64_t pc, uint64_t sp, uint64_t lr,
	uint64_t stop, struct attrib_frame *chain, int chain_max)
{
	struct attrib_env env = {
		.read_words = walk_read_words,
		.read_text = w->user ? user_read_text : kernel_read_text,
		.func_start = func_start, .ctx = (void *)w, .text = &w->prog->text,
		.max_depth = KM_WALK_DEPTH, .max_frame = w->user ? 1u << 20 : 16384,
		.chain = chain, .chain_max = chain_max, .stop_frame = stop,
		.chain_mark = w->user ? KM_FRAME_USER : 0,
	};
	unsigned facts = text_facts(&w->prog->text, pc);
	enum frame_state state = mapped ? text_frame_state(facts) : attrib_frame_state(&env, pc);
	if (w->user)
		return attrib_walk(&env, km_read_user, state, facts, pc, sp, lr);
	return attrib_walk(&env, km_read_kernel, state, facts, pc, sp, lr);
}

/* A program without frame facts (its code could not be read): out of line, so the common
 * walk's environment stays in registers. w is a copy for the same reason. */
__attribute__((noinline)) static struct attrib_result walk_unmapped(struct walk_ctx w,
	uint64_t pc, uint64_t sp, uint64_t lr, uint64_t stop, struct attrib_frame *chain,
	int chain_max)
{
	return walk_from(&w, false, pc, sp, lr, stop, chain, chain_max);
}

static inline __attribute__((always_inline)) struct attrib_result walk(const struct walk_ctx *w,
	uint64_t pc, uint64_t sp, uint64_t lr, uint64_t stop, struct attrib_frame *chain,
	int chain_max)
{
	if (__builtin_expect(!w->prog->text.frames, 0))
		return walk_unmapped(*w, pc, sp, lr, stop, chain, chain_max);
	return walk_from(w, true, pc, sp, lr, stop, chain, chain_max);
}

/* Where a user thread's entry into the kernel left the user state: at the top of its kernel
 * stack (boot/vectors.S: exc_common), under the entry's own minimal frame. 0 when the stack is
 * not the running thread's kernel stack or the frame there is not from user mode. */
#define ENTRY_FRAME_MIN 112          /* boot/asm.h STACK_FRAME_MIN */
static const struct trap_frame *user_entry(const struct stack_range *stack, uint64_t *frame)
{
	uint64_t top = cpu_kstack_top(cpu_self()) & ~15ull;
	if (!top || stack->hi != cpu_kstack_top(cpu_self()) ||
	    top - stack->lo < ENTRY_FRAME_MIN + sizeof(struct trap_frame))
		return 0;
	*frame = top - ENTRY_FRAME_MIN - sizeof(struct trap_frame);
	const struct trap_frame *utf = (const struct trap_frame *)(*frame + ENTRY_FRAME_MIN);
	return utf->msr & MSR_PR ? utf : 0;
}

/* The user part of a kernel sample's chain: the walk of the user state saved at the entry,
 * into chain[0..room), frames marked user. */
__attribute__((noinline)) static struct attrib_result user_chain(const struct trap_frame *utf,
	const struct km_proc *k, struct attrib_frame *chain, int room)
{
	const struct walk_ctx w = { { USER_BASE, USER_END }, k->prog, true };
	return walk(&w, utf->nip, utf->gpr[1], utf->lr, 0, chain, room);
}

/* A kernel walk from pc/sp/lr: with a chain, on across the boundary into the user frames of
 * k's thread (when the stack is that thread's kernel stack and its entry came from user mode).
 * Out of line: the user-mode path is the one every user sample takes. */
__attribute__((noinline)) static struct attrib_result attribute_kernel(uint64_t pc, uint64_t sp,
	uint64_t lr, const struct km_proc *k, struct attrib_frame *chain, int chain_max)
{
	struct walk_ctx w = { kernel_stack_of(sp), &km_kernel_program, false };
	const struct trap_frame *utf = 0;
	uint64_t stop = 0;
	if (chain_max && k && k->prog)
		utf = user_entry(&w.stack, &stop);
	struct attrib_result r = walk(&w, pc, sp, lr, stop, chain, chain_max);
	if (utf && r.at_stop) {   /* across the boundary: on with the user frames */
		if (r.depth < chain_max) {
			struct attrib_result u = user_chain(utf, k, chain + r.depth, chain_max - r.depth);
			r.depth += u.depth;
			r.flags |= u.flags & ATTRIB_TRUNCATED;
		} else {
			r.flags |= ATTRIB_TRUNCATED;
		}
	}
	return r;
}

/* The attribution of a sample taken at pc/sp/lr (user: in user mode); k is the running
 * process's state (0 in a kernel thread). With chain_max > 0 the call chain goes into chain
 * (kernel frames, then a user thread's user frames) and its length into r.depth. User memory
 * is read with this CPU's nofault flag set, so a page not mapped now ends the walk. */
static inline __attribute__((always_inline)) struct attrib_result attribute(uint64_t pc,
	uint64_t sp, uint64_t lr, bool user, const struct km_proc *k, struct attrib_frame *chain,
	int chain_max)
{
	volatile uint32_t *nofault_flag = cpu_nofault(cpu_self());
	uint32_t nofault = *nofault_flag;
	*nofault_flag = 1;
	/* The walk's fault-safe loads have no memory clobber: these barriers keep them inside
	 * the flag's span. */
	__asm__ volatile("" ::: "memory");
	struct attrib_result r;
	if (user && k && k->prog) {
		const struct walk_ctx w = { { USER_BASE, USER_END }, k->prog, true };
		r = walk(&w, pc, sp, lr, 0, chain, chain_max);
	} else if (user) {
		r = (struct attrib_result){ 0, KM_SMP_NO_OBJECT | KM_SMP_UNCERTAIN, 0, 0, false };
	} else {
		r = attribute_kernel(pc, sp, lr, k, chain, chain_max);
	}
	__asm__ volatile("" ::: "memory");
	*nofault_flag = nofault;
	return r;
}

/* The attribution of a sample with no trap frame (a software event in kernel code): the walk
 * starts from this function's own frame, so it is never inlined. */
__attribute__((noinline)) static struct attrib_result attribute_here(const struct km_proc *k,
	struct attrib_frame *chain, int chain_max)
{
	__label__ here;
here:
	return attribute((uint64_t)&&here, (uint64_t)__builtin_frame_address(0), 0, false, k, chain,
			 chain_max);
}

static inline __attribute__((always_inline)) struct attrib_result attribute_tf(
	const struct trap_frame *tf, const struct km_proc *k, struct attrib_frame *chain,
	int chain_max)
{
	if (!tf)
		return attribute_here(k, chain, chain_max);
	return attribute(tf->nip, tf->gpr[1], tf->lr, tf->msr & MSR_PR, k, chain, chain_max);
}

struct attrib_result km_attribute(const struct trap_frame *tf)
{
	return attribute_tf(tf, tf && (tf->msr & MSR_PR) ? svc_running().km : 0, 0, 0);
}

/* A handler's time as the throttle counts it (KM_HANDLER_CAP_TICKS). */
static inline __attribute__((always_inline)) uint64_t handler_time(uint64_t ticks)
{
	return ticks / KM_HANDLER_CAP_TICKS ? KM_HANDLER_CAP_TICKS : ticks;
}

/* One sample into ring of CPU c: inlined into the PMU interrupt, out of line (km_record) for
 * the software events. */
static inline __attribute__((always_inline)) void record(struct km_cpu *c, int ring,
	uint16_t event, uint64_t period, const struct trap_frame *tf)
{
	bool user = tf && (tf->msr & MSR_PR);
	if (!(km.sample_modes & (user ? KM_SMP_USER : KM_SMP_KERNEL)))
		return;
	const struct svc_running run = svc_running();
	/* The chain is walked straight into its slot of this CPU's chain ring. */
	int want = km.plan.group[c->group].chain_depth;
	struct attrib_frame *chain = 0;
	uint32_t seq = 0;
	if (want && c->chains.slots)
		chain = chain_ring_claim(&c->chains, &seq);
	struct attrib_result r = attribute_tf(tf, run.km, chain, chain ? want : 0);
	/* Written in place: a copy through sample_ring_push() cost about 30 instructions. */
	struct sample_ring *ring_of = &c->ring[ring];
	struct km_sample *s = sample_ring_slot(ring_of);
	if (!s) {
		c->lost[ring][event]++;
		return;
	}
	*s = (struct km_sample){
		.timebase = mftb(), .pc = tf ? tf->nip : (uint64_t)__builtin_return_address(0),
		.config_id = km.applied.id, .pid = run.pid, .tid = run.tid,
		.cpu = (uint16_t)cpu_index(cpu_self()), .event = event,
		.flags = (user ? KM_SMP_USER : KM_SMP_KERNEL) | r.flags, .object = r.object,
		.period = period > UINT32_MAX ? UINT32_MAX : (uint32_t)period,
		.depth = chain ? r.depth : 0, .chain = seq,
	};
	sample_ring_commit(ring_of);
	c->taken++;
}

void km_record(struct km_cpu *c, int ring, uint16_t event, uint64_t period,
	const struct trap_frame *tf)
{
	record(c, ring, event, period, tf);
}

/* Sampled counter pmc overflowed (read as v): one sample for the period that just ended, and
 * the counter preloaded with the next period. */
static inline void take_sample(struct km_cpu *c, const struct km_plan_group *g, int pmc,
	uint32_t v, const struct trap_frame *tf)
{
	int i = g->ev_of_pmc[pmc - 1];
	uint32_t next = 0;
	if (i >= 0) {
		const struct km_plan_event *e = &g->ev[i];
		c->count[c->group][i].raw += (uint32_t)(v - c->base[pmc - 1]);
		if (e->threshold) {
			record(c, pmc - 1, e->event, c->period[pmc - 1], tf);
			next = period_reload(&c->periods, km_throttled(c, e->threshold), v, &c->period[pmc - 1],
					     &c->lost[pmc - 1][e->event]);
			c->handler_samples++;
		}
	}
	write_pmc(pmc, next);
	c->base[pmc - 1] = next;
}

/* No sampled counter overflowed: a counting-only one reached the top bit. Its count is folded
 * and it restarts from 0. */
__attribute__((noinline)) static void fold_counting_only(struct km_cpu *c,
	const struct km_plan_group *g, const struct pmu_backend *pmu)
{
	for (int pmc = 1; pmc <= pmu->counters; pmc++) {
		uint32_t v = read_pmc(pmc);
		if (!pmu_overflowed(pmu, v))
			continue;
		int i = g->ev_of_pmc[pmc - 1];
		if (i >= 0)
			c->count[c->group][i].raw += (uint32_t)(v - c->base[pmc - 1]);
		write_pmc(pmc, 0);
		c->base[pmc - 1] = 0;
	}
}

/* Overflowed counters: a sampled one records one sample for the period that just ended and is
 * preloaded with the next, randomized period (common/monitor/sample_period.h) less the events counted
 * past the overflow (the interrupt can be held off while interrupts are disabled), so every
 * period gives exactly one sample; whole periods that passed without an interrupt are counted
 * as lost samples. A counting-only one that reached the top bit (PMCjCE enables all of PMC2-8
 * at once) is folded and restarted. */
__attribute__((noinline)) static void pmu_general(struct km_cpu *c, struct trap_frame *tf)
{
	const struct pmu_backend *pmu = c->pmu;
	if (!pmu || (!km.plan.n_groups && !c->active)) {
		pmu_interrupt(tf);   /* the boot probe's, or a stray one: it freezes and disarms */
		return;
	}
	uint64_t mmcr0 = mfspr(SPRN_MMCR0);
	mtspr(SPRN_MMCR0, pmu_freeze(pmu, mmcr0));
	isync();
	uint64_t t0 = cpu_pmu_entry_tb(cpu_self());
	c->interrupts++;
	if (!c->active) {
		mtspr(SPRN_MMCR0, pmu_freeze(pmu, 0));   /* left armed by a configuration since stopped */
		return;
	}
	const struct km_plan_group *g = &km.plan.group[c->group];
	c->in_handler = true;
	/* The sampled counters first: almost always the reason for the interrupt. Only when none
	 * of them overflowed are the others looked at (a counting-only counter reaching bit 31),
	 * out of line, so the common path keeps few registers live. */
	bool handled = false;
	for (unsigned left = g->sample_pmcs; left; left &= left - 1) {
		int pmc = __builtin_ctz(left) + 1;
		uint32_t v = read_pmc(pmc);
		if (pmu_overflowed(pmu, v)) {
			take_sample(c, g, pmc, v, tf);
			handled = true;
		}
	}
	if (!handled)
		fold_counting_only(c, g, pmu);
	c->in_handler = false;
	c->handler_ticks += handler_time(mftb() - t0);
	mtspr(SPRN_MMCR0, pmu_unfreeze(pmu, pmu_rearm(pmu, mmcr0)));
	isync();
}

void km_sw_event(enum sw_event e, const struct trap_frame *tf)
{
	int irq = irq_save();
	struct km_cpu *c = &km_cpus[cpu_index(cpu_self())];
	if (c->active) {
		const struct km_plan_group *g = &km.plan.group[c->group];
		int i = g->ev_of_sw[e];
		if (i >= 0) {
			c->count[c->group][i].raw++;
			uint64_t thr = km_throttled(c, g->ev[i].threshold);
			uint64_t *left = &c->sw_left[c->group][e];
			/* Not while sampling: the handler's own misses only count. */
			if (thr && !c->in_handler && !*cpu_nofault(cpu_self()) && --*left == 0) {
				*left = thr;
				c->in_handler = true;
				km_record(c, KM_SW_RING, g->ev[i].event, thr, tf);
				c->in_handler = false;
			}
		}
	}
	irq_restore(irq);
}

/* A user-mode walk of a program whose text map has its frames, the common case, with nothing
 * to look up at run time but that map: every other field of its environment is a constant. */
static inline __attribute__((always_inline)) struct attrib_result walk_user_mapped(
	const struct text_map *text, uint64_t pc, uint64_t sp, uint64_t lr,
	struct attrib_frame *chain, int chain_max)
{
	const struct attrib_env env = {
		.text = text, .max_depth = KM_WALK_DEPTH, .max_frame = 1u << 20,
		.chain = chain, .chain_max = chain_max, .chain_mark = KM_FRAME_USER,
	};
	unsigned facts = text_facts(text, pc);
	return attrib_walk(&env, km_read_user, text_frame_state(facts), facts, pc, sp, lr);
}

/* The common case as a leaf: a user-mode sample of a group sampling with one counter, in a
 * program whose text map has its frames (c->fast.leaf), keeping its chain when `chained`
 * (a constant: one copy each). No call, so its values stay in the volatile registers the entry
 * saved anyway; and the record is filled as its fields become known, so that few values are
 * live across the walk. Anything else (a kernel-mode sample, a counter that did not overflow,
 * an interrupt held off past a whole period) returns false with nothing changed but the
 * freeze, for pmu_general(). */
static inline __attribute__((always_inline)) bool sample_user_leaf(struct percpu *cpu,
	struct km_cpu *c, const struct trap_frame *tf, const bool chained)
{
	const struct km_fast *f = &c->fast;
	const struct km_proc *k = cpu_running_km(cpu);
	const struct text_map *text = k ? k->leaf_text : 0;
	if (!(tf->msr & MSR_PR) || !text)
		return false;
	/* MMCR0 is the group's as programmed, but for the alert this interrupt set (cleared
	 * here): written, not read. */
	mtspr(SPRN_MMCR0, f->mmcr0_frozen);
	isync();
	uint64_t t0 = cpu_pmu_entry_tb(cpu);
	/* The next period is drawn first: the counter is read and reloaded in one switch. */
	uint64_t state = period_step(c->periods.state);
	uint32_t p = (uint32_t)period_pick(state, f->period_lo, f->period_n), v;
	if (!pmc_exchange(f->pmc, f->overflowed, p, &v))
		return false;
	c->periods.state = state;
	uint32_t ended = *f->period;
	*f->period = p;
	*f->count += (uint32_t)(v - *f->base);
	*f->base = v - p;
	c->leaf_samples++;
	struct sample_ring *ring = f->ring;
	if (sample_ring_room(ring)) {
		struct km_sample *s = sample_ring_next(ring);
		s->timebase = t0;
		s->pc = tf->nip;
		s->config_id = f->config_id;
		s->pid = cpu_running_pid(cpu);
		s->tid = cpu_running_tid(cpu);
		s->cpu = f->cpu;
		s->event = f->event;
		s->period = ended;
		s->pad = 0;
		uint32_t seq = 0;
		struct attrib_frame *chain = chained ? chain_ring_claim(&c->chains, &seq) : 0;
		s->chain = seq;
		/* 0 here: set only by kernel code with interrupts off. It also keeps the software
		 * events of a miss in the walk from sampling (km_sw_event), as c->in_handler does. */
		*cpu_nofault(cpu) = 1;
		__asm__ volatile("" ::: "memory");
		struct attrib_result r = walk_user_mapped(text, tf->nip, tf->gpr[1], tf->lr, chain,
							  chained ? f->chain_depth : 0);
		__asm__ volatile("" ::: "memory");
		*cpu_nofault(cpu) = 0;
		s->object = r.object;
		s->flags = KM_SMP_USER | r.flags;
		s->depth = chained ? r.depth : 0;
		sample_ring_commit(ring);
		c->taken++;
	} else {
		(*f->lost)++;
	}
	c->handler_ticks += handler_time(mftb() - t0);
	mtspr(SPRN_MMCR0, f->mmcr0_run);
	isync();
	return true;
}

void km_pmu_interrupt(struct trap_frame *tf)
{
	struct percpu *cpu = cpu_self();
	struct km_cpu *c = cpu_km(cpu);
	/* Two copies of the leaf, each with nothing of the other's case in its registers. */
	unsigned leaf = c->fast.leaf;
	if (leaf == KM_LEAF_PLAIN ? sample_user_leaf(cpu, c, tf, false) :
	    leaf == KM_LEAF_CHAINS && sample_user_leaf(cpu, c, tf, true))
		return;
	pmu_general(c, tf);
}

/* The page manager: where every FCM gets its frames.
 *
 * pm=single: one object, one lock, the page allocator behind it. Every fault on every CPU
 * takes that lock: the page-fetch contention the thesis observed lands here, and KOV finds it.
 *
 * pm=percpu (the default; K42's distributed page manager): one rep per CPU, made on the CPU's
 * first fault, each with a cache of free frames under its own lock. A rep refills from the
 * page allocator and gives back to it PM_BATCH frames at a time, so a fault takes only its own
 * CPU's lock; a rep with no frame left and an empty allocator takes one from another rep (the
 * balancing path). The figures that span reps (frames out, frames cached) are root-level
 * operations over every rep. */
#include "vm.h"
#include "../mm/page_alloc.h"
#include "../mm/kmem.h"
#include "../arch/cpu.h"
#include "../arch/platform.h"
#include "../lib/bootargs.h"
#include "common/lib/string.h"
#include "kernel/arch/console.h"
#include "common/co/co_swap.h"

coid_t the_pm;
const char *pm_kind = "percpu";

/* ---- one rep ---------------------------------------------------------------------------- */
CO_METHOD(uint64_t, pm_alloc_frame, struct pm *pm)
{
	spin_lock(&pm->lock);
	page_move_begin();
	void *page = page_alloc(1);
	if (page) {
		pm->out++;
		pm->allocations++;
	}
	page_move_end();
	spin_unlock(&pm->lock);
	return page ? phys_of(page) : 0;
}

CO_METHOD(void, pm_free_frame, struct pm *pm, uint64_t pa)
{
	spin_lock(&pm->lock);
	page_move_begin();
	page_free(kernel_ptr(pa), 1);
	pm->out--;
	page_move_end();
	spin_unlock(&pm->lock);
}

CO_METHOD(uint64_t, pm_frames_out, struct pm *pm)
{
	return (uint64_t)pm->out;
}

CO_METHOD(uint64_t, pm_frames_cached, struct pm *pm)
{
	(void)pm;
	return 0;
}

static const struct pm_ops pm_ops = { pm_alloc_frame, pm_free_frame, pm_frames_out, pm_frames_cached };
const struct co_class pm_class = { "PM", &pm_ops, 4, 0 };

/* ---- a rep per CPU ---------------------------------------------------------------------- */
/* Frames come zeroed. The allocator's are; a frame that comes back to a cache is marked dirty
 * (the low bit of its page-aligned address) and cleared only when handed out again, so each
 * use of a frame is cleared once, at allocation as with one rep. */
#define FRAME_DIRTY 1ull

static void refill(struct pm *pm)
{
	page_move_begin();
	while (pm->cached < PM_BATCH) {
		void *page = page_alloc(1);
		if (!page)
			break;
		pm->cache[pm->cached++] = phys_of(page);
	}
	page_move_end();
	pm->refills++;
}

struct steal { struct pm *thief; uint64_t pa; };

static void steal_from(void *rep, unsigned cpu, void *arg)
{
	struct steal *s = arg;
	struct pm *victim = rep;
	(void)cpu;
	if (s->pa || victim == s->thief)
		return;
	spin_lock(&victim->lock);
	if (victim->cached)
		s->pa = victim->cache[--victim->cached];
	spin_unlock(&victim->lock);
}

/* A frame leaves the cache and is counted out in one critical section, so that the sum of the
 * two never shows it nowhere; a stolen frame is a move between two reps' counts. */
CO_METHOD(uint64_t, pmc_alloc_frame, struct pm *pm)
{
	uint64_t pa = 0;
	spin_lock(&pm->lock);
	if (!pm->cached)
		refill(pm);
	if (pm->cached) {
		pa = pm->cache[--pm->cached];
		pm->out++;
		pm->allocations++;
	}
	spin_unlock(&pm->lock);
	if (!pa) {   /* the allocator is empty: frames cached on other CPUs are all that is left */
		struct steal s = { pm, 0 };
		page_move_begin();
		co_for_each_rep(the_pm, steal_from, &s);
		if (s.pa) {
			spin_lock(&pm->lock);
			pm->steals++;
			pm->out++;
			pm->allocations++;
			spin_unlock(&pm->lock);
		}
		page_move_end();
		if (!s.pa)
			return 0;
		pa = s.pa;
	}
	if (pa & FRAME_DIRTY) {
		pa &= ~FRAME_DIRTY;
		memset(kernel_ptr(pa), 0, PAGE_SIZE);
	}
	return pa;
}

CO_METHOD(void, pmc_free_frame, struct pm *pm, uint64_t pa)
{
	uint64_t back[PM_BATCH];
	unsigned n = 0;
	spin_lock(&pm->lock);
	if (pm->cached == PM_CACHE) {   /* full: the oldest batch goes back to the allocator */
		page_move_begin();
		n = PM_BATCH;
		memcpy(back, pm->cache, sizeof back);
		memmove(pm->cache, pm->cache + PM_BATCH, (PM_CACHE - PM_BATCH) * sizeof pm->cache[0]);
		pm->cached -= PM_BATCH;
		pm->drains++;
	}
	pm->cache[pm->cached++] = pa | FRAME_DIRTY;
	pm->out--;
	spin_unlock(&pm->lock);
	for (unsigned i = 0; i < n; i++)
		page_free(kernel_ptr(back[i] & ~FRAME_DIRTY), 1);
	if (n)
		page_move_end();
}

struct pm_sum { int64_t out; uint64_t cached; };

static void sum_rep(void *rep, unsigned cpu, void *arg)
{
	struct pm *pm = rep;
	struct pm_sum *s = arg;
	(void)cpu;
	spin_lock(&pm->lock);
	s->out += pm->out;
	s->cached += pm->cached;
	spin_unlock(&pm->lock);
}

CO_METHOD(uint64_t, pmc_frames_out, struct pm *pm)
{
	(void)pm;
	struct pm_sum s = { 0, 0 };
	co_for_each_rep(the_pm, sum_rep, &s);
	return s.out > 0 ? (uint64_t)s.out : 0;
}

CO_METHOD(uint64_t, pmc_frames_cached, struct pm *pm)
{
	(void)pm;
	struct pm_sum s = { 0, 0 };
	co_for_each_rep(the_pm, sum_rep, &s);
	return s.cached;
}

static const struct pm_ops pmc_ops = { pmc_alloc_frame, pmc_free_frame, pmc_frames_out, pmc_frames_cached };
const struct co_class pm_percpu_class = { "PMPerCPU", &pmc_ops, 4, 0 };

static void *make_cpu_rep(struct co_root *root, unsigned int cpu)
{
	(void)root;
	struct pm *pm = kmalloc(sizeof *pm);
	if (pm) {
		pm->ops = &pmc_ops;
		pm->cpu = cpu;
	}
	return pm;
}

/* ---- hot swap between the two (common/co/co_swap.h) ------------------------------------- */
/* The state both declare: the frames handed out and the allocations made. Frames a per-CPU rep
 * caches go back to the allocator when it is swapped out: the allocator zeroes what it hands
 * out, so a dirty cached frame needs no clearing there. */
struct pm_state { int64_t out; uint64_t allocations; };

static void save_rep(void *rep, unsigned cpu, void *arg)
{
	struct pm *pm = rep;
	struct pm_state *st = arg;
	(void)cpu;
	spin_lock(&pm->lock);
	st->out += pm->out;
	st->allocations += pm->allocations;
	page_move_begin();
	while (pm->cached)
		page_free(kernel_ptr(pm->cache[--pm->cached] & ~FRAME_DIRTY), 1);
	page_move_end();
	spin_unlock(&pm->lock);
}

/* In the block phase: no call runs in the object, so its reps stand still. */
static bool pm_save(struct co_root *root, void *state)
{
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (root->reps[i])
			save_rep(root->reps[i], i, state);
	return true;
}

static struct co_root *pm_load_single(const void *state)
{
	const struct pm_state *st = state;
	struct pm *pm = kmalloc(sizeof *pm);
	struct co_root *root = pm ? co_root_single(&pm_class, pm) : 0;
	if (!root) {
		kfree(pm);
		return 0;
	}
	pm->ops = &pm_ops;
	pm->out = st->out;
	pm->allocations = st->allocations;
	pm_kind = "single";
	return root;
}

/* The totals go to CPU 0's rep, made now; the other CPUs' reps are made on their first call. */
static struct co_root *pm_load_percpu(const void *state)
{
	const struct pm_state *st = state;
	struct co_root *root = co_root_per_cpu(&pm_percpu_class, make_cpu_rep);
	struct pm *first = root ? make_cpu_rep(root, 0) : 0;
	if (!first) {
		kfree(root);
		return 0;
	}
	first->out = st->out;
	first->allocations = st->allocations;
	root->reps[0] = first;
	pm_kind = "percpu";
	return root;
}

static const struct co_swappable pm_swappable[] = {
	{ &pm_class, "page manager", sizeof(struct pm_state), pm_save, pm_load_single },
	{ &pm_percpu_class, "page manager", sizeof(struct pm_state), pm_save, pm_load_percpu },
};

void pm_init(void)
{
	for (unsigned i = 0; i < sizeof pm_swappable / sizeof pm_swappable[0]; i++)
		co_register_swappable(&pm_swappable[i]);
	char arg[16];
	if (bootarg_str(machine.bootargs, "pm", arg, sizeof arg) && strcmp(arg, "single") == 0)
		pm_kind = "single";
	if (strcmp(pm_kind, "single") == 0) {
		struct pm *pm = kmalloc(sizeof *pm);
		pm->ops = &pm_ops;
		the_pm = co_new_single(&pm_class, pm);
		kprintf("vm: page manager: one rep, one lock (pm=single)\n");
	} else {
		the_pm = co_new_per_cpu(&pm_percpu_class, make_cpu_rep);
		kprintf("vm: page manager: a rep per CPU, each caching up to %u free frames (pm=percpu)\n",
			PM_CACHE);
	}
}

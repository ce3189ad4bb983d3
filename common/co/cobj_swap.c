/* Hot-swapping (co_swap.h): the mediator's entry and exit (called by its stub,
 * common/co/cobj_mediate.S), the five phases, and the registry of swappable classes. The same
 * code in the kernel and in every process; what a thread is, how one is walked while it sleeps
 * and how to wait are the runtime's (co_runtime_*). */
#include "co_swap.h"
#include "co_count.h"
#include "common/lib/string.h"
#include "kernel/abi/km_abi.h"
#include "kernel/abi/scan.h"

#define MAX_SWAPPABLES 32
#define MAX_WALK 256                 /* frames; a deeper chain is taken as "inside" */
#define MAX_FRAME (1ull << 20)       /* a back chain link longer than this is corrupt */

/* PHASE_HOLD: the block phase's last step, in which even the calls that cannot wait for the
 * swapper's CPU are held (see block()). */
enum phase { PHASE_FORWARD, PHASE_BLOCK, PHASE_HOLD, PHASE_DONE, PHASE_ABORTED };

struct descriptor { uint64_t entry, toc, env; };
struct co_swap_cell { struct co_swap *swap; uint64_t method; };

/* The mediator: while the swap lasts, it is the object's rep in every LTT entry. Its method
 * table sends every method to the stub with r11 = the method's cell. */
struct co_swap {
	const void *ops;                          /* first: the mediator is a rep */
	const void *table[CO_MAX_METHODS];
	struct descriptor desc[CO_MAX_METHODS];
	struct co_swap_cell cell[CO_MAX_METHODS];
	coid_t coid;
	struct co_root *old_root, *new_root;
	void *old_reps[CO_MAX_CPUS];              /* the reps calls could hold at the interposition */
	volatile uint32_t phase;
	volatile int64_t inflight;                /* forwarded calls that have not returned */
	volatile uint32_t refs;                   /* calls between the stub's entry and exit */
	volatile uint32_t depth[CO_SEEN_MAX];     /* forwarded calls in progress, by the participant
	                                             that made each (a kernel thread can move to
	                                             another CPU's slot during its call) */
	volatile uint8_t outside[CO_SEEN_MAX];    /* seen out of the object since the interposition */
	volatile uint64_t forwarded, held;
};

void co_mediate(void);                        /* the stub (a function descriptor) */
void *co_mediate_enter(struct co_swap_cell *cell, uint64_t *tracked);
void co_mediate_exit(struct co_swap_cell *cell, uint64_t tracked);

volatile uint64_t co_swaps_done, co_swaps_failed;
static const struct co_swappable *swappables[MAX_SWAPPABLES];
static unsigned nswappables;
static struct spinlock registry_lock;

static const char *const result_names[CO_SWAP_RESULTS] = {
	[CO_SWAP_OK] = "swapped",
	[CO_SWAP_NOT_LIVE] = "no live object there",
	[CO_SWAP_NOT_SWAPPABLE] = "the class has no swappable implementation",
	[CO_SWAP_INCOMPATIBLE] = "the classes' state formats differ",
	[CO_SWAP_BUSY] = "another swap of the object is in progress",
	[CO_SWAP_NESTED] = "called from inside the object",
	[CO_SWAP_NO_MEMORY] = "out of memory",
	[CO_SWAP_DRAIN_TIMEOUT] = "timed out: calls begun before the swap did not finish",
	[CO_SWAP_BLOCK_TIMEOUT] = "timed out: forwarded calls did not finish",
	[CO_SWAP_TRANSFER_FAILED] = "the state transfer failed",
};

const char *co_swap_result_name(enum co_swap_result r)
{
	return (unsigned)r < CO_SWAP_RESULTS ? result_names[r] : "unknown result";
}

bool co_register_swappable(const struct co_swappable *s)
{
	int state = co_runtime_lock(&registry_lock);
	bool ok = nswappables < MAX_SWAPPABLES;
	for (unsigned i = 0; ok && i < nswappables; i++)
		if (swappables[i] == s) {
			co_runtime_unlock(&registry_lock, state);
			return true;
		}
	if (ok)
		__atomic_store_n(&swappables[nswappables++], s, __ATOMIC_RELEASE);
	co_runtime_unlock(&registry_lock, state);
	return ok;
}

const struct co_swappable *co_swappable_named(const char *name)
{
	unsigned n = __atomic_load_n(&nswappables, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < n; i++)
		if (swappables[i] && strcmp(swappables[i]->cls->name, name) == 0)
			return swappables[i];
	return 0;
}

const struct co_swappable *co_swappable_of(const struct co_class *cls)
{
	unsigned n = __atomic_load_n(&nswappables, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < n; i++)
		if (swappables[i] && swappables[i]->cls == cls)
			return swappables[i];
	return 0;
}

static bool is_rep(void *const reps[CO_MAX_CPUS], uint64_t v)
{
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (reps[i] && (uint64_t)reps[i] == v)
			return true;
	return false;
}

/* Frame k >= 1 is owned by the function its callee's saved LR (frame + 16) points into; a
 * method body's rep is in its caller's frame, the home slot of its first parameter (+48). A
 * chain that cannot be followed to its end counts as inside: only a proof of absence counts. */
bool co_stack_inside(uint64_t sp, void *const reps[CO_MAX_CPUS])
{
	uint64_t frame = sp, caller, pc, rep;
	if (!co_runtime_stack_word(frame, &caller))
		return true;
	for (int depth = 0; depth < MAX_WALK; depth++) {
		if (caller == 0)
			return false;
		if (caller <= frame || caller - frame > MAX_FRAME)
			return true;
		frame = caller;
		if (!co_runtime_stack_word(frame, &caller) || !co_runtime_stack_word(frame + 16, &pc))
			return true;
		if (co_runtime_method_pc(pc) && caller > frame &&
		    co_runtime_stack_word(caller + 48, &rep) && is_rep(reps, rep))
			return true;
	}
	return true;
}

/* A rep that exists is read without the root's lock (reps are only added, under it, while the
 * root lives): forwarded calls come from every thread at once, and on a machine whose CPUs take
 * turns the lock's holder, cut off by the round robin, holds the others for whole turns. A
 * per-CPU object's forwarded calls took the lock each; that starved the first call, through
 * the miss handler (the same lock), of a thread whose CPU came late: drains of over 10 s on
 * the serial 4-CPU machine, one call short of done. */
static void *rep_of(struct co_root *root)
{
	unsigned slot = root->kind == CO_PER_CPU_REPS ? co_runtime_cpu() : 0;
	void *rep = slot < CO_MAX_CPUS ? __atomic_load_n(&root->reps[slot], __ATOMIC_ACQUIRE) : 0;
	if (rep)
		return rep;
	int state = co_runtime_lock(&root->lock);
	rep = co_root_rep_here(root);
	co_runtime_unlock(&root->lock, state);
	return rep;
}

void *co_swap_mediator_rep(struct co_swap *s)
{
	return s;
}

/* After the swap (or its abort) a call that still reached the mediator goes where the object
 * is now: through its LTT entry, which may lead to another swap's mediator, so a later swap
 * counts it too. Until finish() empties this CPU's entry it can still be this mediator. */
static void *rep_now(struct co_swap *s)
{
	for (;;) {
		void *rep = co_rep(s->coid);
		if (rep != (void *)s)
			return rep;
		co_runtime_relax();
	}
}

/* Where a call that reached the mediator goes. Forwarded calls are counted in `inflight`
 * before the phase is read, and the swapper sets the block phase before it reads `inflight`
 * (both sequentially consistent), so a call either is seen in flight or sees the block. A
 * held call waits without touching `inflight`: the phase only moves on from the block.
 * In the block phase a nested call, and one that may not wait (co_runtime_may_wait), is still
 * forwarded; in the hold, only a nested one. */
void *co_mediate_enter(struct co_swap_cell *cell, uint64_t *tracked)
{
	struct co_swap *s = cell->swap;
	unsigned me = co_runtime_self_slot();
	__atomic_fetch_add(&s->refs, 1, __ATOMIC_ACQ_REL);
	*tracked = 0;
	__atomic_fetch_add(&s->inflight, 1, __ATOMIC_SEQ_CST);
	uint32_t phase = __atomic_load_n(&s->phase, __ATOMIC_SEQ_CST);
	bool blocking = phase == PHASE_BLOCK || phase == PHASE_HOLD;
	if (phase == PHASE_FORWARD || (blocking && s->depth[me]) ||
	    (phase == PHASE_BLOCK && !co_runtime_may_wait())) {
		/* A thread with no frame of the object on its stack has finished whatever call
		 * it began before the interposition: walking itself is exact. */
		if (!s->outside[me] && !s->depth[me] &&
		    !co_stack_inside((uint64_t)__builtin_frame_address(0), s->old_reps))
			s->outside[me] = 1;
		__atomic_fetch_add(&s->depth[me], 1, __ATOMIC_RELAXED);
		__atomic_fetch_add(&s->forwarded, 1, __ATOMIC_RELAXED);
		*tracked = me + 1ull;   /* the exit counts the call out of this slot, wherever it is */
		return rep_of(s->old_root);
	}
	__atomic_fetch_sub(&s->inflight, 1, __ATOMIC_SEQ_CST);
	if (blocking) {
		__atomic_fetch_add(&s->held, 1, __ATOMIC_RELAXED);
		for (;;) {
			uint32_t now = __atomic_load_n(&s->phase, __ATOMIC_SEQ_CST);
			if (now != PHASE_BLOCK && now != PHASE_HOLD)
				break;
			co_runtime_relax();
		}
	}
	return rep_now(s);
}

void co_mediate_exit(struct co_swap_cell *cell, uint64_t tracked)
{
	struct co_swap *s = cell->swap;
	if (tracked) {
		__atomic_fetch_sub(&s->depth[tracked - 1], 1, __ATOMIC_RELAXED);
		__atomic_fetch_sub(&s->inflight, 1, __ATOMIC_SEQ_CST);
	}
	__atomic_fetch_sub(&s->refs, 1, __ATOMIC_RELEASE);
}

static struct co_swap *new_mediator(coid_t coid, struct co_root *root)
{
	struct co_swap *s = co_runtime_alloc(sizeof *s);
	if (!s)
		return 0;
	memset(s, 0, sizeof *s);
	const uint64_t *stub = (const uint64_t *)(uintptr_t)co_mediate;
	for (unsigned i = 0; i < CO_MAX_METHODS; i++) {
		s->cell[i] = (struct co_swap_cell){ s, i };
		s->desc[i] = (struct descriptor){ stub[0], stub[1], (uint64_t)&s->cell[i] };
		s->table[i] = &s->desc[i];
	}
	s->ops = s->table;
	s->coid = coid;
	s->old_root = root;
	return s;
}

static bool mediator_idle(void *arg)
{
	return __atomic_load_n(&((struct co_swap *)arg)->refs, __ATOMIC_ACQUIRE) == 0;
}

static void free_mediator(void *arg)
{
	co_runtime_free(arg);
}

static void free_old_root(void *arg)
{
	co_free_root(arg);
}

/* Ends the swap: the GTT entry points at the new root (unless it is the abort), the held calls
 * go on wherever the object now is, the LTT entries are emptied so the next calls find it, and
 * the mediator goes once nobody can be in it. */
static void finish(struct co_swap *s, coid_t coid, uint32_t phase)
{
	struct co_root *old = s->old_root;
	int state = co_runtime_lock(&old->lock);
	if (phase == PHASE_DONE)
		co_replace_root(coid, s->new_root);
	__atomic_store_n(&s->phase, phase, __ATOMIC_SEQ_CST);
	old->swap = 0;
	co_runtime_empty_entry(coid);
	co_runtime_unlock(&old->lock, state);
	/* Without memory to defer them they stay allocated: a leak, never a use after free. */
	if (phase == PHASE_DONE)
		co_defer(free_old_root, 0, old);
	co_defer(free_mediator, mediator_idle, s);
}

/* Phase 2: waits until every participant is known to be out of the calls it began before
 * the interposition. */
static bool drain(struct co_swap *s, uint64_t deadline, struct co_swap_report *r)
{
	uint64_t seen[CO_SEEN_MAX];
	co_runtime_calm_snapshot(seen);
	s->outside[co_runtime_self_slot()] = 1;
	for (;;) {
		bool all = true;
		for (unsigned i = 0; i < CO_SEEN_MAX; i++)
			if (!s->outside[i]) {
				if (co_runtime_outside(i, seen, s->old_reps, &r->walks))
					s->outside[i] = 1;
				else
					all = false;
			}
		if (all)
			return true;
		if (co_runtime_now_ns() > deadline)
			return false;
		co_runtime_relax();
	}
}

/* Sets the phase, then waits until no forwarded call is in flight. */
static bool quiet_in(struct co_swap *s, uint32_t phase, uint64_t deadline)
{
	__atomic_store_n(&s->phase, phase, __ATOMIC_SEQ_CST);
	while (__atomic_load_n(&s->inflight, __ATOMIC_SEQ_CST) != 0) {
		if (co_runtime_now_ns() > deadline)
			return false;
		co_runtime_relax();
	}
	return true;
}

/* Phase 3: no new call goes to the old instance; the forwarded ones return. In two steps,
 * because a held call that may not leave its CPU (the kernel's, with interrupts off) spins
 * there: while the swapper still lets others run on its own CPU (a forwarded call preempted
 * there must finish), such calls are forwarded; they cannot be preempted, so they end soon.
 * Then the swapper keeps its CPU (co_runtime_pin: no held call can take it) and holds those
 * too, until the transfer is done. */
static bool block(struct co_swap *s, uint64_t deadline)
{
	if (!quiet_in(s, PHASE_BLOCK, deadline))
		return false;
	co_runtime_pin();
	return quiet_in(s, PHASE_HOLD, deadline);
}

static enum co_swap_result check(struct co_root *root, const struct co_swappable *to)
{
	const struct co_swappable *from = root ? co_swappable_of(root->cls) : 0;
	if (!root)
		return CO_SWAP_NOT_LIVE;
	if (!from || !to)
		return CO_SWAP_NOT_SWAPPABLE;
	if (strcmp(from->format, to->format) != 0 || from->state_size != to->state_size ||
	    from->cls->nmethods != to->cls->nmethods)
		return CO_SWAP_INCOMPATIBLE;
	if (co_stack_inside((uint64_t)__builtin_frame_address(0), root->reps))
		return CO_SWAP_NESTED;
	return CO_SWAP_OK;
}

static enum co_swap_result failed(enum co_swap_result why)
{
	__atomic_fetch_add(&co_swaps_failed, 1, __ATOMIC_RELAXED);
	return why;
}

/* Phases 4 and 5 after a successful block: the new root from the old one's state. */
static enum co_swap_result transfer(struct co_swap *s, const struct co_swappable *to)
{
	const struct co_swappable *from = co_swappable_of(s->old_root->cls);
	void *state = co_runtime_alloc(to->state_size ? to->state_size : 1);
	if (!state)
		return CO_SWAP_NO_MEMORY;
	memset(state, 0, to->state_size);
	struct co_root *root = from->save(s->old_root, state) ? to->make_root(state) : 0;
	co_runtime_free(state);
	if (!root)
		return CO_SWAP_TRANSFER_FAILED;
	if (s->old_root->counting) {   /* counting goes on in the new instance */
		root->counting = true;
		for (unsigned i = 0; i < CO_MAX_CPUS; i++)
			if (root->reps[i])
				co_count_enable_rep(root->reps[i], root->cls->nmethods);
	}
	s->new_root = root;
	return CO_SWAP_OK;
}

enum co_swap_result co_swap(coid_t coid, const struct co_swappable *to, uint64_t timeout_ns,
			    struct co_swap_report *r)
{
	*r = (struct co_swap_report){ 0 };
	co_reclaim();   /* what earlier swaps left behind */
	struct co_root *root = co_live_root(coid);
	enum co_swap_result why = check(root, to);
	if (why != CO_SWAP_OK)
		return failed(why);
	struct co_swap *s = new_mediator(coid, root);
	if (!s)
		return failed(CO_SWAP_NO_MEMORY);
	/* Phase 1: the mediator takes the object's place. */
	int state = co_runtime_lock(&root->lock);
	bool busy = root->swap || co_live_root(coid) != root;
	if (!busy) {
		memcpy(s->old_reps, root->reps, sizeof s->old_reps);
		root->swap = s;
		co_runtime_empty_entry(coid);
	}
	co_runtime_unlock(&root->lock, state);
	if (busy) {
		co_runtime_free(s);
		return failed(CO_SWAP_BUSY);
	}
	uint64_t t0 = co_runtime_now_ns();
	bool drained = drain(s, t0 + timeout_ns, r);
	uint64_t t1 = co_runtime_now_ns();
	bool blocked = drained && block(s, t1 + timeout_ns);   /* pinned if it got to the hold */
	uint64_t t2 = co_runtime_now_ns();
	why = !drained ? CO_SWAP_DRAIN_TIMEOUT : !blocked ? CO_SWAP_BLOCK_TIMEOUT : transfer(s, to);
	/* Read before finish hands the mediator to reclamation. `forwarded` is final once
	 * blocked; a call that reaches the mediator during the transfer is held but may be
	 * counted after this read. */
	r->forwarded = s->forwarded;
	r->held = s->held;
	uint32_t reached = s->phase;
	finish(s, coid, why == CO_SWAP_OK ? PHASE_DONE : PHASE_ABORTED);
	if (reached == PHASE_HOLD)
		co_runtime_unpin();
	uint64_t t3 = co_runtime_now_ns();
	r->forward_ns = t1 - t0;
	r->block_ns = t2 - t1;
	r->transfer_ns = t3 - t2;
	if (why != CO_SWAP_OK)
		return failed(why);
	__atomic_fetch_add(&co_swaps_done, 1, __ATOMIC_RELAXED);
	return CO_SWAP_OK;
}

void co_swap_requested(uint32_t index, struct km_swap_answer *a)
{
	a->to[KM_CLASS_NAME - 1] = 0;
	memset(a->from, 0, sizeof a->from);
	a->result = CO_SWAP_NOT_LIVE;
	coid_t coid = index && index < co_index_limit() ? co_from_index(index) : 0;
	struct co_root *root = coid ? co_live_root(coid) : 0;
	if (!root)
		return;
	size_t n = strlen(root->cls->name);
	memcpy(a->from, root->cls->name, n < KM_CLASS_NAME - 1 ? n : KM_CLASS_NAME - 1);
	struct co_swap_report r;
	a->result = co_swap(coid, co_swappable_named(a->to), SWAP_PHASE_TIMEOUT_US * 1000ull, &r);
	a->walks = r.walks;
	a->forward_ns = r.forward_ns;
	a->block_ns = r.block_ns;
	a->transfer_ns = r.transfer_ns;
	a->forwarded = r.forwarded;
	a->held = r.held;
}

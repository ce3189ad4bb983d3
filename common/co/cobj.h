/* Clustered objects, after K42 (thesis 2.4).
 *
 * An object reference (coid_t) is the address of an entry in the Local Translation Table, a
 * table mapped at the same virtual address (LTT_BASE) on every CPU but backed by each CPU's own
 * memory. DREF(coid) reads this CPU's entry: a pointer to this CPU's representative (rep). Every
 * rep starts with a pointer to its class's method table, so a call is
 *
 *     struct counter *c = DREF(coid);  c->ops->add(c, 5);      (or CO_CALL(coid, add, 5))
 *
 * An entry this CPU has not used yet points into itself, at a word holding the address of the
 * default method table, whose slots all lead to one trampoline (cobj_tramp.S). The trampoline
 * finds the root in the Global Translation Table, lets the root create or find this CPU's rep
 * (the miss handler), installs it in this CPU's entry and re-dispatches the original call with
 * its arguments intact. Methods take at most 7 arguments after the rep, all in registers.
 *
 * Roots decide how reps are shared: one rep for all CPUs, or one rep per CPU (created on first
 * use on that CPU). Destruction is deferred until every CPU has passed a quiescent point, so a
 * CPU still inside a method of the object is never pulled from under. Each GTT slot carries a
 * generation, bumped on reuse, so (coid, generation) names one object for all time.
 *
 * Calling convention for the monitor: methods are defined with CO_METHOD, whose entry stub
 * stores the rep pointer in the ABI home slot of the first parameter (the caller's parameter
 * save area, 48 bytes above the caller's stack pointer) before entering the C body. A stack
 * walker that finds a frame owned by a method body reads its object from there
 * (co_context_object()). */
#ifndef KOV_COBJ_H
#define KOV_COBJ_H

#include <stdint.h>
#include <stdbool.h>
#include "../lib/spinword.h"
#include "kernel/abi/co_abi.h"

#define CO_MAX_OBJECTS (CO_LTT_BYTES / sizeof(struct ltt_entry))

struct co_root;
struct co_swap;

/* A class: its name, method table and how to list the objects a rep refers to. */
struct co_class {
	const char *name;
	const void *ops;
	unsigned int nmethods;
	/* Writes up to max child references of this rep; returns how many there are. */
	int (*get_children)(void *rep, coid_t *children, int max);
};

enum co_root_kind { CO_SINGLE_REP, CO_PER_CPU_REPS };

struct co_root {
	const struct co_class *cls;
	enum co_root_kind kind;
	/* Creates the rep for `cpu` (per-CPU roots) or the shared one; 0 if out of memory. */
	void *(*make_rep)(struct co_root *root, unsigned int cpu);
	/* Frees one rep, then the root itself when rep is 0 (both called at reclamation). */
	void (*free)(struct co_root *root, void *rep);
	void *reps[CO_MAX_CPUS];
	struct spinlock lock;
	coid_t coid;
	uint32_t generation;
	uint64_t misses;        /* reps installed by the miss handler */
	bool counting;          /* invocation counting on: new reps are counted too */
	struct co_swap *volatile swap;   /* the swap in progress (common/co/co_swap.h), or 0 */
};

struct gtt_entry {
	struct co_root *root;   /* 0 when the slot is free */
	uint32_t generation;
	uint32_t state;         /* CO_FREE, CO_LIVE, CO_DYING */
};
enum { CO_FREE, CO_LIVE, CO_DYING };

/* ---- the runtime glue: what each runtime (kernel, user) provides to the shared core ------ */
bool co_runtime_prepare(void);   /* before the first object is created; false: cannot */
uint64_t co_runtime_ltt_base(void);
unsigned int co_runtime_cpu(void);
int co_runtime_lock(struct spinlock *l);
void co_runtime_unlock(struct spinlock *l, int state);
void co_runtime_fatal(const char *what, const void *entry, unsigned long method)
	__attribute__((noreturn));
/* Empties coid's entry in every CPU's LTT (called with the root's lock held). */
void co_runtime_empty_entry(coid_t coid);
void *co_runtime_alloc(uint64_t size);
void co_runtime_free(void *p);
void co_runtime_rep_gone(void *rep);   /* before a rep is freed: the lock tables forget it */
/* Quiescence: a snapshot of every participant's count (CPUs in the kernel, threads in a
 * process), and whether all have passed a quiescent point since. */
#define CO_SEEN_MAX 65
void co_runtime_snapshot(uint64_t seen[CO_SEEN_MAX]);
bool co_runtime_all_passed(const uint64_t seen[CO_SEEN_MAX]);

/* Shared core (common/co/cobj_core.c): marks an object dying and empties its entries; frees a
 * reclaimed object's reps and root and frees its slot with a new generation. */
void co_mark_dying(coid_t coid);
void co_release(uint32_t index);
/* Frees a root and its reps (no longer reachable from any table). */
void co_free_root(struct co_root *root);
/* This CPU's rep of root, made if it has none yet; call with root->lock held. 0 if it cannot
 * be made. */
void *co_root_rep_here(struct co_root *root);
/* Calls release(arg) once every participant has passed a quiescent point since now and
 * ready(arg) (if given) is true; false if out of memory. */
bool co_defer(void (*release)(void *arg), bool (*ready)(void *arg), void *arg);
/* Points a live object's GTT entry at another root (the swap's last step; with the old root's
 * lock held). */
void co_replace_root(coid_t coid, struct co_root *root);
/* The GTT entry's root of a live object, 0 if there is none. */
struct co_root *co_live_root(coid_t coid);

/* Sets up the tables (boot CPU, after the MMU and the heap). */
void cobj_init(void);
/* Clears this CPU's local table; every CPU calls it once before using objects. */
void cobj_init_cpu(void);

/* Registers a class (its name shows in scans). Returns false if the table is full. */
bool co_register_class(const struct co_class *cls);
const struct co_class *co_class_at(unsigned int i);

/* Makes a new object from a root (which the caller allocated and filled); returns its
 * reference, or 0 if the tables are full. */
coid_t co_create(struct co_root *root);
/* This CPU's rep of an object, installing it (as a method call's miss would) if this CPU has
 * not used the object yet. DREF alone is only valid for calling methods: before the first call
 * on a CPU it yields the default object, not a rep. */
void *co_rep(coid_t coid);

/* Makes a single-rep object around an existing rep (whose ops the caller has set); the rep
 * is freed with kfree when the object is reclaimed. 0 if out of memory or tables full. */
coid_t co_new_single(const struct co_class *cls, void *rep);
/* Makes an object with one rep per CPU, each made by make_rep(root, cpu) on the CPU's first
 * call and freed with kfree at reclamation. 0 if out of memory or tables full. */
coid_t co_new_per_cpu(const struct co_class *cls, void *(*make_rep)(struct co_root *root, unsigned int cpu));
/* The same roots without a COID, for a hot swap's new instance (co_swap.h: make_root); 0 if
 * out of memory. */
struct co_root *co_root_single(const struct co_class *cls, void *rep);
struct co_root *co_root_per_cpu(const struct co_class *cls,
				void *(*make_rep)(struct co_root *root, unsigned int cpu));
/* A root-level operation (K42's CObjRootMultiRep): calls fn on every rep the object has made,
 * with the root's lock held (no rep is made or freed meanwhile); fn must not call methods of
 * the same object. Returns the number of reps visited. */
unsigned co_for_each_rep(coid_t coid, void (*fn)(void *rep, unsigned int cpu, void *arg), void *arg);
/* Unlinks the object now and frees its reps and root once every CPU has been quiescent. */
void co_destroy(coid_t coid);

uint32_t co_index(coid_t coid);
coid_t co_from_index(uint32_t index);
uint32_t co_generation(coid_t coid);
/* One past the highest GTT index ever handed out (scans stop there). */
uint32_t co_index_limit(void);
/* The GTT entry for an index (read-only view for scans). */
const struct gtt_entry *co_gtt(uint32_t index);
/* This CPU's or another CPU's installed rep for an object, 0 if none. */
void *co_rep_on_cpu(coid_t coid, unsigned int cpu);

/* Invocation counting per object (common/co/co_count.h): on for every rep, present and future;
 * off restores the reps' method tables; the count is the sum over the reps. */
bool co_count_enable(coid_t coid);
void co_count_disable(coid_t coid);
uint64_t co_count(coid_t coid);

/* Quiescent-state tracking: each CPU calls co_quiescent() where it holds no object pointers
 * (its idle loop); co_reclaim() frees what every CPU has since let go of, and no thread
 * preempted in kernel code may still hold (kernel/proc/thread.h). co_retired counts the
 * objects retired (destroyed, awaiting reclamation) so far. */
void co_quiescent(void);
unsigned int co_reclaim(void);
extern volatile uint64_t co_retired;
unsigned int co_pending(void);

/* ---- methods with a context-object frame ---------------------------------------------- */

/* The method bodies' code addresses, sorted; returns how many. */
unsigned co_method_pcs(const uint64_t **pcs);
/* True if pc lies in the body of a method defined with CO_METHOD. */
bool co_is_method_pc(uint64_t pc);

/* Finds the objects whose methods are active, innermost first: walks the back chain from sp,
 * the frame owned by the function containing pc (reading memory only through `read`), and for
 * every frame owned by a method body returns the rep stored in the home slot of its first
 * parameter. The innermost function must have allocated its frame (true for any caller of this
 * function; an interrupted prologue is the sampler's problem and is flagged there). */
int co_context_objects(uint64_t pc, uint64_t sp, bool (*read)(void *ctx, uint64_t a, uint64_t *v),
		       void *ctx, void **objs, int max);

#endif

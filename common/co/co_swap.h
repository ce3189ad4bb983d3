/* Hot-swapping a live clustered object (K42: Appavoo et al., IBM Systems Journal 2003; Soules
 * et al., USENIX 2003): its implementation is replaced by an instance of another class with the
 * same interface while callers keep calling it by the same COID.
 *
 * The protocol, as K42's, with its deviations (docs/architecture.md, "Hot swapping"):
 *   1. interpose: a mediator takes the object's place in every CPU's LTT entry (the entries are
 *      emptied; the miss handler installs the mediator while a swap is in progress);
 *   2. forward: calls through the mediator go on to the old instance and are counted in flight,
 *      while calls that began before the interposition drain. A thread is known to be out of
 *      them when it is gone, has passed an explicit quiescent point, sleeps with no method frame
 *      of the object on its stack (the runtime walks it), or enters the mediator with none on
 *      its own (it walks itself: a call from inside the object is nested and forwarded);
 *   3. block: new calls wait in the mediator (nested ones still go through, and at first those
 *      that may not wait: co_runtime_may_wait) until the mediator's own forwarded calls have
 *      returned;
 *   4. transfer: the old class writes its state in a format both classes declare, the new class
 *      makes its root from it;
 *   5. swap: the GTT points at the new root, the held calls go on to it, and the old root, its
 *      reps and the mediator are freed once every thread has been quiescent.
 * A swap that cannot finish (incompatible classes, failed transfer, a drain or block phase past
 * its deadline) leaves the old instance in place, untouched, and says why.
 *
 * The rules the drain relies on: a method call's arguments do not block (a thread that has read
 * the old rep from its LTT entry and sleeps before calling it would be missed), and a method
 * passes no explicit quiescent point (yield, co_quiescent: the rule deferred destruction
 * already relies on), which the drain takes as "out of every call". */
#ifndef KOV_CO_SWAP_H
#define KOV_CO_SWAP_H

#include <stdint.h>
#include <stdbool.h>
#include "cobj.h"

/* A class that can be swapped in or out: the state format it shares with its peers. */
struct co_swappable {
	const struct co_class *cls;
	const char *format;            /* classes swap only with a class of the same format */
	uint64_t state_size;           /* bytes of that format */
	/* Writes the object's state (every rep's share) into state; false if it cannot. Called in
	 * the block phase: no call is running in the object. */
	bool (*save)(struct co_root *root, void *state);
	/* A new root (and any reps it needs) holding the state; 0 if it cannot be made. It must
	 * not call methods of the object being swapped. */
	struct co_root *(*make_root)(const void *state);
};

/* Registers an implementation (by its class's name); false if the table is full. */
bool co_register_swappable(const struct co_swappable *s);
/* The registered implementation whose class is named `name`, or that is `cls`; 0 if none. */
const struct co_swappable *co_swappable_named(const char *name);
const struct co_swappable *co_swappable_of(const struct co_class *cls);

enum co_swap_result {
	CO_SWAP_OK = 0,
	CO_SWAP_NOT_LIVE,        /* no live object at that COID */
	CO_SWAP_NOT_SWAPPABLE,   /* the object's class registered no swappable implementation */
	CO_SWAP_INCOMPATIBLE,    /* the classes' state formats differ */
	CO_SWAP_BUSY,            /* another swap of the object is in progress */
	CO_SWAP_NESTED,          /* the caller is inside a method of the object */
	CO_SWAP_NO_MEMORY,
	CO_SWAP_DRAIN_TIMEOUT,   /* calls begun before the interposition did not finish in time */
	CO_SWAP_BLOCK_TIMEOUT,   /* the mediator's forwarded calls did not finish in time */
	CO_SWAP_TRANSFER_FAILED, /* the old class could not save, or the new one load, the state */
	CO_SWAP_RESULTS
};
const char *co_swap_result_name(enum co_swap_result r);

/* What a swap did, phase by phase (runtime clock, nanoseconds). */
struct co_swap_report {
	uint64_t forward_ns, block_ns, transfer_ns;   /* interposition to block, to transfer, to done */
	uint64_t forwarded;      /* calls the mediator sent on to the old instance */
	uint64_t held;           /* calls it held in the block phase */
	uint32_t walks;          /* sleeping threads' stacks walked */
};

/* Swaps coid's implementation to `to`, waiting at most timeout_ns in each of the drain and
 * block phases. Must be called from outside the object (never from its methods). */
enum co_swap_result co_swap(coid_t coid, const struct co_swappable *to, uint64_t timeout_ns,
			    struct co_swap_report *report);

/* A swap the KM asked for (SYS_KM_SWAP), in the kernel or in a process: object `index` of this
 * runtime to the class a->to names, each phase at most SWAP_PHASE_TIMEOUT_US; a's other
 * fields say how it went (result CO_SWAP_NOT_LIVE when no live object is there). */
struct km_swap_answer;
void co_swap_requested(uint32_t index, struct km_swap_answer *a);

/* Swaps completed and failed since start (for /metrics and scans). */
extern volatile uint64_t co_swaps_done, co_swaps_failed;

/* Whether a thread whose innermost frame is at sp (a frame whose owner called something, so
 * every frame above it holds its callee's saved LR) is inside a method of the object with
 * these reps: a frame owned by a method body whose home slot holds one of them. */
bool co_stack_inside(uint64_t sp, void *const reps[CO_MAX_CPUS]);

/* The rep the miss handler installs while the swap is in progress (common/co/cobj_core.c). */
void *co_swap_mediator_rep(struct co_swap *s);

/* ---- what each runtime provides to the swap (kernel/co/, libc-instr/cobj.c) ------------- */
/* The calling thread's participant slot (< CO_SEEN_MAX). */
unsigned co_runtime_self_slot(void);
/* Every participant's count of explicit quiescent points (not sleeps). */
void co_runtime_calm_snapshot(uint64_t seen[CO_SEEN_MAX]);
/* Whether participant i is known to be outside every call to the object with these reps: it
 * is gone, passed an explicit quiescent point since `seen`, or sleeps with no frame of them on
 * its stack (*walked counts the stacks walked). */
bool co_runtime_outside(unsigned i, const uint64_t seen[CO_SEEN_MAX], void *const reps[CO_MAX_CPUS],
			uint32_t *walked);
/* True if pc lies in a method body (CO_METHOD). */
bool co_runtime_method_pc(uint64_t pc);
/* Lets other threads run while this one waits; not a quiescent point (a held call is inside
 * its caller's methods). Where the thread may not leave its CPU, it spins. */
void co_runtime_relax(void);
/* Whether the calling thread may wait for another thread to run (false in the kernel with
 * interrupts off or a spin lock held: it would spin on its CPU). */
bool co_runtime_may_wait(void);
/* The swapper from the hold (the block phase's last step) to its end: every call is held then,
 * and one that cannot leave its CPU must never be the thread that took the swapper's CPU. The
 * kernel disables preemption; a process needs nothing. */
void co_runtime_pin(void);
void co_runtime_unpin(void);
uint64_t co_runtime_now_ns(void);
/* Reads a word of another thread's sleeping stack; false if the address cannot be one. */
bool co_runtime_stack_word(uint64_t addr, uint64_t *value);

#endif

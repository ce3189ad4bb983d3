#include "co_count.h"
#include "cobj.h"
#include "common/lib/spinlock.h"
#include "kernel/abi/co_abi.h"

#if KOV_CALL_INSTR   /* compiled out: kernel/abi/kov_instr.h */

/* A counted rep gets its own method table: one descriptor per method, with the real method's
 * TOC (the caller loads it) and an environment cell (r11) holding the method's call count.
 * A CO_METHOD method is entered at its counting prologue (kernel/abi/co_abi.h), which counts
 * and falls through into the method: four instructions. Any other function is entered through
 * co_count_fast (common/co/cobj_tramp.S), which counts and jumps to the entry in the cell:
 * seven. The real descriptor's environment word is not passed on: methods are C functions,
 * which never read it. Tables are never freed (a call may still be on its way through one
 * after counting stops): a rep counted again reuses its own. */
void co_count_fast(void);
extern const uint32_t __co_stubs_start[], __co_stubs_end[];

struct cell { volatile uint64_t calls; uint64_t entry; };
struct descriptor { uint64_t entry, toc, env; };
struct counted {
	const void *table[CO_MAX_METHODS];     /* what rep->ops points at while counted */
	struct descriptor desc[CO_MAX_METHODS];
	struct cell cell[CO_MAX_METHODS];
	const void *real_ops;
	const void *rep;
	unsigned nmethods;
	struct counted *next;
};

static struct counted *all;
static struct spinlock lock;

/* Where a call to the code at `entry` is counted: its CO_METHOD counting prologue when it has
 * one (inside the stubs' section, the same four instructions as co_count_fast's first), else
 * co_count_fast. */
static uint64_t counting_entry(uint64_t entry)
{
	const uint32_t *e = (const uint32_t *)entry;
	const uint32_t *fast = *(const uint32_t *const *)(void *)co_count_fast;
	if (e < __co_stubs_start + 4 || e >= __co_stubs_end)
		return (uint64_t)fast;
	for (int i = 0; i < 4; i++)
		if (e[i - 4] != fast[i])
			return (uint64_t)fast;
	return entry - 16;
}

/* The counted table rep->ops points into, or 0 when the rep is not counted. */
static struct counted *counted_of(const void *rep)
{
	const void *ops = __atomic_load_n(&((const struct co_rep *)rep)->ops, __ATOMIC_ACQUIRE);
	for (struct counted *c = __atomic_load_n(&all, __ATOMIC_ACQUIRE); c; c = c->next)
		if ((const void *)c->table == ops)
			return c;
	return 0;
}

bool co_count_enable_rep(void *rep, unsigned nmethods)
{
	if (nmethods > CO_MAX_METHODS)
		nmethods = CO_MAX_METHODS;
	struct co_rep *r = rep;
	int state = co_runtime_lock(&lock);
	struct counted *c = counted_of(rep);
	if (c) {
		co_runtime_unlock(&lock, state);
		return true;
	}
	for (c = all; c && c->rep != rep; c = c->next)
		;
	if (!c) {
		c = co_runtime_alloc(sizeof *c);
		if (!c) {
			co_runtime_unlock(&lock, state);
			return false;
		}
		c->rep = rep;
		for (int i = 0; i < CO_MAX_METHODS; i++)
			c->table[i] = &c->desc[i];
		c->next = all;
		__atomic_store_n(&all, c, __ATOMIC_RELEASE);
	}
	/* Only the class's own slots are read: its table may be no longer than that. */
	c->real_ops = r->ops;
	c->nmethods = nmethods;
	for (unsigned i = 0; i < CO_MAX_METHODS; i++) {
		const struct descriptor *real = i < nmethods ? ((const void *const *)r->ops)[i] : 0;
		c->cell[i] = (struct cell){ 0, real ? real->entry : 0 };
		c->desc[i] = (struct descriptor){ counting_entry(real ? real->entry : 0),
						  real ? real->toc : 0, (uint64_t)&c->cell[i] };
	}
	__atomic_store_n(&r->ops, (const void *)c->table, __ATOMIC_RELEASE);
	co_runtime_unlock(&lock, state);
	return true;
}

void co_count_disable_rep(void *rep)
{
	struct co_rep *r = rep;
	int state = co_runtime_lock(&lock);
	struct counted *c = counted_of(rep);
	if (c)
		__atomic_store_n(&r->ops, c->real_ops, __ATOMIC_RELEASE);
	co_runtime_unlock(&lock, state);
}

uint64_t co_count_of_rep(const void *rep)
{
	const struct counted *c = counted_of(rep);
	uint64_t n = 0;
	for (unsigned i = 0; c && i < c->nmethods; i++)
		n += c->cell[i].calls;
	return n;
}

#endif

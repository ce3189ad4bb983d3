/* The ProcessAnnex: the kernel's list of live processes, a clustered object whose children
 * are the Process objects; what walks and lists them. */
#include "process.h"
#include "../abi/km_abi.h"
#include "../mm/kmem.h"
#include "common/lib/string.h"
#include "../arch/percpu.h"
#include "../arch/cpu.h"
#include "kernel/include/kov_services.h"
#include "common/lib/spinlock.h"

coid_t process_annex;

/* ---- ProcessAnnex --------------------------------------------------------------------- */
CO_METHOD(bool, annex_add, struct annex *a, coid_t p)
{
	spin_lock(&a->lock);
	bool ok = a->n < MAX_PROCESSES;
	if (ok)
		a->procs[a->n++] = p;
	spin_unlock(&a->lock);
	return ok;
}

CO_METHOD(void, annex_remove, struct annex *a, coid_t p)
{
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n; i++)
		if (a->procs[i] == p) {
			a->procs[i] = a->procs[--a->n];
			break;
		}
	spin_unlock(&a->lock);
}

CO_METHOD(coid_t, annex_find, struct annex *a, uint32_t pid)
{
	coid_t found = 0;
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n && !found; i++)
		if (((struct process *)co_rep(a->procs[i]))->pid == pid)
			found = a->procs[i];
	spin_unlock(&a->lock);
	return found;
}

CO_METHOD(uint32_t, annex_count, struct annex *a)
{
	return a->n;
}

static int annex_children(void *rep, coid_t *children, int max)
{
	struct annex *a = rep;
	for (uint32_t i = 0; i < a->n && (int)i < max; i++)
		children[i] = a->procs[i];
	return (int)a->n;
}

uint32_t process_list(struct km_process *out, uint32_t max)
{
	struct annex *a = co_rep(process_annex);
	spin_lock(&a->lock);
	uint32_t n = a->n;
	for (uint32_t i = 0; i < n && i < max; i++) {
		const struct process *p = co_rep(a->procs[i]);
		struct km_process *k = &out[i];
		k->pid = p->pid;
		k->ppid = p->ppid;
		k->threads = p->live_threads;
		k->state = p->state == PROC_ZOMBIE ? KM_PROC_EXITED : KM_PROC_RUNNING;
		memcpy(k->name, p->name, sizeof k->name);
		k->name[sizeof k->name - 1] = 0;
	}
	spin_unlock(&a->lock);
	return n;
}

static const struct annex_ops annex_ops = { annex_add, annex_remove, annex_find, annex_count };
const struct co_class annex_class = { "ProcessAnnex", &annex_ops, 4, annex_children };

void process_for_each(void (*fn)(struct process *p, void *arg), void *arg)
{
	struct annex *a = co_rep(process_annex);
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n; i++)
		fn(co_rep(a->procs[i]), arg);
	spin_unlock(&a->lock);
}

_Static_assert(SVC_MAX_PROCESSES == MAX_PROCESSES, "kernel/include/kov_services.h promises the limit");

/* References (kernel/include/kov_services.h) are taken under the annex's lock: once process_wait
 * has removed a process from the annex no new one can be, and it waits for the old ones. */
struct process *svc_process_get(uint32_t pid)
{
	struct annex *a = co_rep(process_annex);
	struct process *found = 0;
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n && !found; i++) {
		struct process *p = co_rep(a->procs[i]);
		if (p->pid == pid && !p->exiting) {
			__atomic_add_fetch(&p->refs, 1, __ATOMIC_ACQ_REL);
			found = p;
		}
	}
	spin_unlock(&a->lock);
	return found;
}

uint32_t svc_processes_get(struct process **out, uint32_t max)
{
	struct annex *a = co_rep(process_annex);
	uint32_t n = 0;
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n && n < max; i++) {
		struct process *p = co_rep(a->procs[i]);
		__atomic_add_fetch(&p->refs, 1, __ATOMIC_ACQ_REL);
		out[n++] = p;
	}
	spin_unlock(&a->lock);
	return n;
}

bool process_table_locked_here(void)
{
	const struct annex *a = co_rep(process_annex);
	/* Interrupts off: the word and the CPU are read on one CPU (a thread moved between the
	 * two reads could find the holder there and take it for itself). */
	int irq = irq_save();
	bool here = (a->lock.word & SPIN_HOLDER) == this_cpu()->index + 1;
	irq_restore(irq);
	return here;
}

void svc_process_put(struct process *p)
{
	if (__atomic_sub_fetch(&p->refs, 1, __ATOMIC_ACQ_REL) == 0)
		thread_wake_all((const void *)&p->refs);
}

void annex_init(void)
{
	struct annex *a = kmalloc(sizeof *a);
	a->ops = &annex_ops;
	process_annex = co_new_single(&annex_class, a);
	co_register_class(&annex_class);
}

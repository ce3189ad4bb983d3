/* The ProcessAnnex: the kernel's list of live processes, a clustered object whose children
 * are the Process objects; what walks and lists them. */
#include "process.h"
#include "../abi/km_abi.h"
#include "../mm/kmem.h"
#include "../lib/string.h"
#include "../arch/percpu.h"

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

struct process *process_hold(uint32_t pid)
{
	struct annex *a = co_rep(process_annex);
	struct process *found = 0;
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n && !found; i++) {
		struct process *p = co_rep(a->procs[i]);
		if (p->pid == pid) {
			__atomic_add_fetch(&p->readers, 1, __ATOMIC_ACQ_REL);
			found = p;
		}
	}
	spin_unlock(&a->lock);
	return found;
}

uint32_t process_hold_all(struct process **out, uint32_t max, bool (*want)(const struct process *p))
{
	struct annex *a = co_rep(process_annex);
	uint32_t n = 0;
	spin_lock(&a->lock);
	for (uint32_t i = 0; i < a->n && n < max; i++) {
		struct process *p = co_rep(a->procs[i]);
		if (!want(p))
			continue;
		__atomic_add_fetch(&p->readers, 1, __ATOMIC_ACQ_REL);
		out[n++] = p;
	}
	spin_unlock(&a->lock);
	return n;
}

void process_release(struct process *p)
{
	__atomic_sub_fetch(&p->readers, 1, __ATOMIC_ACQ_REL);
}

bool process_table_locked_here(void)
{
	const struct annex *a = co_rep(process_annex);
	return (a->lock.word & SPIN_HOLDER) == this_cpu()->index + 1;
}

void annex_init(void)
{
	struct annex *a = kmalloc(sizeof *a);
	a->ops = &annex_ops;
	process_annex = co_new_single(&annex_class, a);
	co_register_class(&annex_class);
}

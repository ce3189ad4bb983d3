/* Object-level invocation counting on top of the per-rep hook (common/co/co_count.c). The same
 * code serves the kernel's runtime and the user runtime: it only uses the GTT and roots. */
#include "cobj.h"
#include "co_count.h"

bool co_count_enable(coid_t coid)
{
	if (!KOV_CALL_INSTR)
		return false;   /* compiled out: nothing is counted, nor said to be */
	struct co_root *root = co_gtt(co_index(coid))->root;
	bool ok = true;
	int state = co_runtime_lock(&root->lock);
	root->counting = true;
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (root->reps[i])
			ok &= co_count_enable_rep(root->reps[i], root->cls->nmethods);
	co_runtime_unlock(&root->lock, state);
	return ok;
}

void co_count_disable(coid_t coid)
{
	struct co_root *root = co_gtt(co_index(coid))->root;
	int state = co_runtime_lock(&root->lock);
	root->counting = false;
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (root->reps[i])
			co_count_disable_rep(root->reps[i]);
	co_runtime_unlock(&root->lock, state);
}

uint64_t co_count(coid_t coid)
{
	struct co_root *root = co_gtt(co_index(coid))->root;
	uint64_t n = 0;
	for (unsigned i = 0; i < CO_MAX_CPUS; i++)
		if (root->reps[i])
			n += co_count_of_rep(root->reps[i]);
	return n;
}

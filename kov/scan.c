/* The scan: every live object of the kernel (from the clustered-object table), each named by
 * the process that owns it, and the objects of every process whose runtime has a scanner
 * (asked through the kernel's scan requests, kernel/include/kov_services.h). */
#include "kernel/abi/scan.h"
#include "kernel/include/kov_services.h"
#include "kernel/include/processor.h"
#include "common/lib/string.h"
#include "common/co/cobj.h"

#define SCAN_ASKED 64   /* processes asked at once */

static void copy_name(char *dst, size_t n, const char *src)
{
	size_t len = src ? strlen(src) : 0;
	if (len > n - 1)
		len = n - 1;
	memcpy(dst, src, len);
	dst[len] = 0;
}

/* Another CPU may be creating an object in this slot: co_create publishes the root, then the
 * state with release order, so the root is read only after an acquiring load of the state
 * (a plain load could pair LIVE with the previous, reclaimed root). */
static bool live(const struct gtt_entry *g)
{
	return __atomic_load_n(&g->state, __ATOMIC_ACQUIRE) == CO_LIVE;
}

/* Gives every object reachable from a process the process's pid (depth-first, bounded). */
static void claim(uint32_t index, uint32_t limit, uint32_t pid, const char *name,
		  uint32_t *owner, const char **owner_name, int depth)
{
	const struct gtt_entry *g = co_gtt(index);
	if (!g || index >= limit || !live(g) || owner[index] || depth > 16)
		return;
	owner[index] = pid;
	owner_name[index] = name;
	if (!g->root->cls->get_children)
		return;
	coid_t kids[64];
	void *rep = g->root->reps[0];
	if (!rep)
		return;
	int n = g->root->cls->get_children(rep, kids, 64);
	for (int i = 0; i < n && i < 64; i++)
		claim(co_index(kids[i]), limit, pid, name, owner, owner_name, depth + 1);
}

struct scan_totals km_scan(struct scan_record *out, uint32_t max)
{
	struct scan_totals t;
	memset(&t, 0, sizeof t);
	uint64_t start = mftb();
	uint32_t limit = co_index_limit();
	uint32_t *owner = kmalloc(limit * sizeof *owner);
	const char **owner_name = kmalloc(limit * sizeof *owner_name);
	struct process **procs = kmalloc(SVC_MAX_PROCESSES * sizeof *procs);
	if (!owner || !owner_name || !procs) {
		kfree(owner);
		kfree(owner_name);
		kfree(procs);
		return t;
	}
	/* Processes first, so their objects are attributed to them. */
	uint32_t np = svc_processes_get(procs, SVC_MAX_PROCESSES);
	for (uint32_t i = 0; i < np; i++)
		claim(svc_process_index(procs[i]), limit, svc_process_pid(procs[i]),
		      svc_process_name(procs[i]), owner, owner_name, 0);
	for (uint32_t index = 1; index < limit; index++) {
		const struct gtt_entry *g = co_gtt(index);
		if (!live(g))
			continue;
		t.objects++;
		if (t.written == max)
			continue;
		struct scan_record *r = &out[t.written++];
		memset(r, 0, sizeof *r);
		struct co_root *root = g->root;
		r->index = index;
		r->generation = g->generation;
		r->pid = owner[index];
		r->root = (uint64_t)root;
		copy_name(r->class_name, sizeof r->class_name, root->cls->name);
		copy_name(r->process_name, sizeof r->process_name,
			  owner_name[index] ? owner_name[index] : "kernel");
		for (unsigned cpu = 0; cpu < SCAN_MAX_CPUS && cpu < KOV_MAX_CPUS; cpu++)
			r->reps[cpu] = (uint64_t)co_rep_on_cpu(co_from_index(index), cpu);
		void *rep = root->reps[0];
		for (unsigned cpu = 1; !rep && cpu < KOV_MAX_CPUS; cpu++)
			rep = root->reps[cpu];
		if (root->cls->get_children && rep) {
			coid_t kids[SCAN_MAX_CHILDREN];
			int n = root->cls->get_children(rep, kids, SCAN_MAX_CHILDREN);
			r->nchildren = n > 0 ? (uint32_t)n : 0;
			for (int i = 0; i < n && i < SCAN_MAX_CHILDREN; i++)
				r->children[i] = co_index(kids[i]);
		}
		if (root->counting) {
			r->flags |= SCAN_COUNTED;
			r->invocations = co_count(co_from_index(index));
		}
		if (root->kind == CO_PER_CPU_REPS)
			r->flags |= SCAN_PER_CPU;
	}
	for (uint32_t i = 0; i < np; i++)
		svc_process_put(procs[i]);
	kfree(procs);
	kfree(owner);
	kfree(owner_name);
	t.tb_ticks = mftb() - start;
	return t;
}

void km_scan_user(struct scan_record *out, uint32_t max, struct scan_totals *t)
{
	uint64_t start = mftb();
	struct process **procs = kmalloc(SVC_MAX_PROCESSES * sizeof *procs), *asked[SCAN_ASKED];
	uint32_t seq[SCAN_ASKED], n = 0;
	uint32_t np = procs ? svc_processes_get(procs, SVC_MAX_PROCESSES) : 0;
	/* Post every request first, so the runtimes scan in parallel. */
	for (uint32_t i = 0; i < np && n < SCAN_ASKED; i++) {
		struct process *p = procs[i];
		if (!svc_scan_area(p) || svc_process_exiting(p) || p == svc_current_process())
			continue;
		long s = svc_scan_request(p, 0);
		if (s < 0)
			continue;
		seq[n] = (uint32_t)s;
		asked[n++] = p;
	}
	t->processes_asked = n;
	uint64_t deadline = mftb() + tb_from_us(SCAN_USER_TIMEOUT_US);
	for (uint32_t i = 0; i < n; i++) {
		struct process *p = asked[i];
		uint32_t count;
		bool answered;
		while (!(answered = svc_scan_answered(p, seq[i], &count)) &&
		       (int64_t)(deadline - mftb()) > 0)
			svc_yield();
		if (!answered) {
			if (!t->processes_silent++)
				t->silent_pid = svc_process_pid(p);
			continue;
		}
		uint64_t area = svc_scan_area(p);
		for (uint32_t k = 0; k < count; k++) {
			t->objects++;
			t->user_objects++;
			if (t->written == max)
				continue;
			struct scan_record *r = &out[t->written];
			/* Records the runtime claims but never wrote are not there to read (and
			 * are not made up by allocating pages in the process). */
			if (svc_process_read(p, area + k * sizeof *r, r, sizeof *r))
				break;
			r->pid = svc_process_pid(p);
			r->flags = SCAN_USER | (r->flags & (SCAN_COUNTED | SCAN_PER_CPU));
			copy_name(r->process_name, sizeof r->process_name, svc_process_name(p));
			t->written++;
		}
	}
	for (uint32_t i = 0; i < np; i++)
		svc_process_put(procs[i]);
	kfree(procs);
	t->tb_ticks += mftb() - start;
}

/* Lock statistics on the KM's side: the kernel's own table, which the kernel's spin and sleep
 * locks fill on their contended paths (common/lib/lockstat.h), each lock attributed to the
 * object whose method first waited for it; each process's table, registered by its C
 * library; and reading them all for the daemon. */
#include "km_internal.h"
#include "common/lib/lockstat.h"
#include "common/lib/spinlock.h"
#include "common/co/cobj.h"
#include "kernel/abi/syscall_nr.h"

#define KERNEL_LOCK_RECORDS 512
static union {
	struct km_lock_area area;
	uint8_t bytes[sizeof(struct km_lock_area) + KERNEL_LOCK_RECORDS * sizeof(struct km_lock_stats)];
} kernel_table = { .area = { .magic = KM_LOCK_AREA_MAGIC, .capacity = KERNEL_LOCK_RECORDS } };

/* A lock belongs to the object whose method waited for it only if it lies inside that
 * object's rep (reps are smaller than this): a global lock (the heap's, say) that a method
 * happens to take belongs to no object. */
#define REP_SPAN 65536

static uint64_t owner_of(const struct trap_frame *tf, uint64_t lock)
{
	struct attrib_result r = km_attribute(tf);
	if ((r.flags & ATTRIB_NO_OBJECT) || lock < r.object || lock - r.object >= REP_SPAN)
		return 0;
	return r.object;
}

/* Without lock statistics (kernel/abi/kov_instr.h) the hooks are kov_hooks.h's stubs, and each
 * call below answers -KOV_ENOTSUP: the kernel table is never filled. */
#if KOV_LOCK_INSTR
struct km_lock_stats *km_lock_record(const void *lock, uint16_t kind)
{
	bool made;
	struct km_lock_stats *s = lockstat_get(&kernel_table.area, (uint64_t)lock, kind, &made);
	if (s && lockstat_needs_owner(s, made, kind))
		lockstat_attributed(s, owner_of(0, (uint64_t)lock));
	return s;
}

void km_lock_owner_gone(const void *rep)
{
	lockstat_owner_gone(&kernel_table.area, (uint64_t)rep);
}
#endif

/* A rep of a live kernel object? */
static bool live_rep(uint64_t rep)
{
	for (uint32_t i = 1; i < co_index_limit(); i++) {
		const struct gtt_entry *g = co_gtt(i);
		if (g->state != CO_LIVE || !g->root)
			continue;
		for (unsigned c = 0; c < KOV_MAX_CPUS; c++)
			if ((uint64_t)g->root->reps[c] == rep)
				return true;
	}
	return false;
}

/* The flags of a lock word: a spin lock's, or a sleep lock's `locked` (kernel/lock/sleeplock.c
 * keeps SPIN_FULL the same way). */
static volatile uint32_t *word_of(const struct km_lock_stats *s)
{
	if (s->kind == KM_LOCK_SPIN)
		return &((struct spinlock *)s->lock)->word;
	return svc_sleeplock_word((const void *)s->lock);
}

long km_locks_full(uint64_t index, bool on)
{
	if (!KOV_LOCK_INSTR)
		return -KOV_ENOTSUP;
	uint64_t owner = 0;
	if (index != 0xFFFFFFFFull) {
		if (index == 0 || index >= co_index_limit() || co_gtt((uint32_t)index)->state != CO_LIVE)
			return -KOV_ENOENT;
		for (unsigned c = 0; c < KOV_MAX_CPUS && !owner; c++)
			owner = (uint64_t)co_gtt((uint32_t)index)->root->reps[c];
		if (!owner)
			return 0;   /* no rep yet: none of its locks was ever seen */
	}
	/* Only locks of live objects: a record outlives its lock, and a freed lock's word must
	 * not be written. */
	for (uint32_t i = 0; i < kernel_table.area.capacity; i++) {
		struct km_lock_stats *s = &kernel_table.area.locks[i];
		if (!s->lock || !s->owner || (owner ? s->owner != owner : !live_rep(s->owner)))
			continue;
		if (on)
			__atomic_or_fetch(&s->flags, KM_LOCK_FULL, __ATOMIC_RELEASE);
		else
			__atomic_and_fetch(&s->flags, (uint16_t)~KM_LOCK_FULL, __ATOMIC_RELEASE);
		spin_mark_full(word_of(s), on);
	}
	return 0;
}

long km_lock_owner_syscall(const struct trap_frame *tf, uint64_t lock)
{
	if (!KOV_LOCK_INSTR)
		return -KOV_ENOTSUP;
	return (long)owner_of(tf, lock);
}

static long lock_area(uint64_t area)
{
	struct km_lock_area head;
	if (copy_from_user(&head, area, sizeof head))
		return -KOV_EFAULT;
	uint32_t cap = head.capacity;
	if (head.magic != KM_LOCK_AREA_MAGIC || !cap || cap > 4096 || (cap & (cap - 1)) ||
	    !user_range_ok(area, sizeof head + cap * sizeof(struct km_lock_stats)))
		return -KOV_EINVAL;
	struct km_proc *k = svc_running().km;
	if (!k)
		return -KOV_EINVAL;   /* a kernel thread has no lock table to register */
	k->lock_area = area;
	return 0;
}

#define LOCKS_MAX 1024
#define CHUNK 16

struct lock_read {
	struct km_lock_record *out;
	uint64_t max, n;
	struct km_lock_stats chunk[CHUNK];
	struct process *procs[SVC_MAX_PROCESSES];
};

static void keep(struct lock_read *r, uint32_t pid, const struct km_lock_stats *s)
{
	if (!s->lock || !s->kind || r->n >= r->max)
		return;
	struct km_lock_record *rec = &r->out[r->n++];
	rec->pid = pid;
	rec->pad = 0;
	rec->s = *s;
}

/* A process's records, read without allocating anything in it (the pages of its table it never
 * wrote hold no record), through a reference: not under the process table's lock. */
static void read_locks_of(struct process *p, struct lock_read *r)
{
	struct km_lock_area head;
	const struct km_proc *k = svc_process_km(p);
	if (!k || !k->lock_area || svc_process_exiting(p) ||
	    svc_process_peek(p, k->lock_area, &head, sizeof head) ||
	    head.magic != KM_LOCK_AREA_MAGIC || !head.used)
		return;
	uint64_t at = k->lock_area + sizeof head;
	for (uint32_t i = 0; i < head.capacity && i < 4096 && r->n < r->max; i += CHUNK) {
		uint32_t n = head.capacity - i < CHUNK ? head.capacity - i : CHUNK;
		if (svc_process_peek(p, at + (uint64_t)i * sizeof r->chunk[0], r->chunk, n * sizeof r->chunk[0]))
			return;
		for (uint32_t k = 0; k < n; k++)
			keep(r, svc_process_pid(p), &r->chunk[k]);
	}
}

static long read_locks(uint64_t ubuf, uint64_t max)
{
	if (max > LOCKS_MAX)
		max = LOCKS_MAX;
	struct lock_read *r = kmalloc(sizeof *r);
	struct km_lock_record *out = kmalloc((max ? max : 1) * sizeof *out);
	if (!r || !out) {
		kfree(r);
		kfree(out);
		return -KOV_ENOMEM;
	}
	r->out = out;
	r->max = max;
	r->n = 0;
	for (uint32_t i = 0; i < kernel_table.area.capacity; i++)
		keep(r, 0, &kernel_table.area.locks[i]);
	/* Referenced, not read under the process table's lock: a table of 4096 records is long
	 * to copy, and every spawn and exit would wait for it. */
	uint32_t np = svc_processes_get(r->procs, SVC_MAX_PROCESSES);
	for (uint32_t i = 0; i < np; i++) {
		read_locks_of(r->procs[i], r);
		svc_process_put(r->procs[i]);
	}
	long n = (long)r->n, rc = copy_to_user(ubuf, out, r->n * sizeof *out);
	kfree(out);
	kfree(r);
	return rc ? rc : n;
}

long km_locks_syscall(uint64_t nr, const uint64_t *a)
{
	if (!KOV_LOCK_INSTR)
		return -KOV_ENOTSUP;
	return nr == SYS_KM_LOCK_AREA ? lock_area(a[0]) : read_locks(a[0], a[1]);
}

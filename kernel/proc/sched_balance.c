/* Migration: idle CPUs pull queued threads from the busiest CPU, loaded CPUs push one to the
 * least loaded every BALANCE_TICKS ticks, and threads go where their affinity allows. */
#include "runqueue.h"
#include "kernel/arch/cpu.h"

/* With q->lock held: takes out the queued thread nearest the tail that may run on `cpu`
 * (the one that waited least, so the least likely to be due soon), or 0. */
static struct thread *take_for(struct runqueue *q, unsigned cpu)
{
	struct thread *found = 0, *found_prev = 0, *prev = 0;
	for (struct thread *t = q->head; t; prev = t, t = t->next)
		if ((__atomic_load_n(&t->affinity, __ATOMIC_RELAXED) & (1u << cpu)) &&
		    !__atomic_load_n(&t->on_timed, __ATOMIC_ACQUIRE)) {
			found = t;
			found_prev = prev;
		}
	if (!found)
		return 0;
	if (found_prev)
		found_prev->next = found->next;
	else
		q->head = found->next;
	if (q->tail == found)
		q->tail = found_prev;
	found->next = 0;
	q->nr--;
	return found;
}

/* Threads running and queued on cpu (a racy look). */
static unsigned load_of(unsigned cpu)
{
	const struct runqueue *q = &runqueues[cpu];
	return __atomic_load_n(&q->nr, __ATOMIC_RELAXED) + (q->current && q->current != q->idle);
}

/* Both run-queue locks, lower CPU first (interrupts off). */
static void lock_pair(unsigned a, unsigned b)
{
	spin_lock(&runqueues[a < b ? a : b].lock);
	spin_lock(&runqueues[a < b ? b : a].lock);
}

static void unlock_pair(unsigned a, unsigned b)
{
	spin_unlock(&runqueues[a].lock);
	spin_unlock(&runqueues[b].lock);
}

unsigned least_loaded(uint32_t mask, unsigned prefer)
{
	unsigned best = MAX_CPUS, best_load = ~0u;
	if (prefer < MAX_CPUS && (mask & (1u << prefer)) && percpu_area[prefer].online) {
		best = prefer;
		best_load = load_of(prefer);
	}
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		if (!(mask & (1u << c)) || !percpu_area[c].online || c == prefer)
			continue;
		unsigned l = load_of(c);
		if (l < best_load) {
			best = c;
			best_load = l;
		}
	}
	return best;
}

void place(struct thread *t)
{
	uint32_t mask = __atomic_load_n(&t->affinity, __ATOMIC_RELAXED);
	unsigned c = least_loaded(mask, t->cpu);
	if (c == MAX_CPUS)
		c = t->cpu;   /* no allowed CPU online (refused when set): stay */
	struct runqueue *q = &runqueues[c];
	spin_lock(&q->lock);
	if (c != t->cpu)
		t->migrations++;
	t->cpu = c;
	enqueue(q, t);
	spin_unlock(&q->lock);
	kick(c);
}

/* Moves one queued thread from CPU `from` to CPU `to` (interrupts off, neither lock held);
 * true if one could go. */
static bool move_one(unsigned from, unsigned to)
{
	struct runqueue *src = &runqueues[from], *dst = &runqueues[to];
	lock_pair(from, to);
	struct thread *t = take_for(src, to);
	if (t) {
		t->cpu = to;
		t->migrations++;
		enqueue(dst, t);
	}
	unlock_pair(from, to);
	return t != 0;
}

void balance_push(struct runqueue *q)
{
	unsigned me = this_cpu()->index;
	if (!q->nr)
		return;
	unsigned to = least_loaded(AFFINITY_ALL & ~(1u << me), MAX_CPUS);
	if (to < MAX_CPUS && load_of(me) >= load_of(to) + PUSH_IMBALANCE && move_one(me, to)) {
		q->pushed++;
		kick(to);
	}
	spin_lock(&q->lock);
	struct thread *stray = 0;
	for (struct thread *t = q->head; t && !stray; t = t->next)
		if (!(__atomic_load_n(&t->affinity, __ATOMIC_RELAXED) & (1u << me)) &&
		    !__atomic_load_n(&t->on_timed, __ATOMIC_ACQUIRE))
			stray = t;
	unsigned dest = stray ? least_loaded(stray->affinity, MAX_CPUS) : MAX_CPUS;
	spin_unlock(&q->lock);
	if (dest < MAX_CPUS && move_one(me, dest))   /* moves the tail-most one allowed there */
		kick(dest);
}

bool sched_pull(void)
{
	if (cpus_online < 2)
		return false;
	int irq = irq_save();
	unsigned me = this_cpu()->index, from = MAX_CPUS, most = 0;
	for (unsigned c = 0; c < MAX_CPUS; c++) {
		if (c == me || !percpu_area[c].online)
			continue;
		/* Worth taking only from a CPU that runs a thread and has another waiting. */
		unsigned queued = __atomic_load_n(&runqueues[c].nr, __ATOMIC_RELAXED);
		if (queued && load_of(c) >= 2 && queued > most) {
			most = queued;
			from = c;
		}
	}
	bool took = from < MAX_CPUS && move_one(from, me);
	if (took)
		my_rq()->pulled++;
	irq_restore(irq);
	return took;
}

void thread_set_affinity(struct thread *t, uint32_t mask)
{
	__atomic_store_n(&t->affinity, mask, __ATOMIC_RELEASE);
}

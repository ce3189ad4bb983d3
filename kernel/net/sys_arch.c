/* lwIP's sys_arch on KOV kernel threads (kernel/net/arch/sys_arch.h).
 *
 * Semaphores and mailboxes block their waiters in the kernel's blocked-thread queues, keyed by
 * the object's address, with deadlines from thread_block_until (tick resolution). A counter
 * changes before the wake-up is sent and waiters re-check it under the queue's lock, so no
 * wake-up is lost. A user thread whose process is exiting gives up a mailbox wait, so a
 * process blocked in accept() or recv() can still exit. */
#include "lwip/opt.h"
#include "lwip/sys.h"
#include "lwip/err.h"
#include "arch/sys_arch.h"
#include "netdev.h"
#include "../proc/thread.h"
#include "kernel/lock/sleeplock.h"
#include "common/lib/spinlock.h"
#include "../mm/kmem.h"
#include "../arch/timer.h"
#include "../arch/cpu.h"
#include "../arch/percpu.h"
#include "../proc/process.h"
#include "../arch/platform.h"
#include "kernel/arch/console.h"

/* `waiters` counts threads about to block or blocked: signallers skip the wake-up (and its
 * queue lock) when it is 0. Waiter: waiters++, fence, re-check; signaller: count++, fence,
 * read waiters — one of the two always sees the other. */
struct kov_sem {
	volatile uint32_t count;
	volatile uint32_t waiters;
};

struct kov_mbox {
	struct spinlock lock;
	uint32_t size, head;
	volatile uint32_t count;
	volatile uint32_t readers, writers;  /* waiting, as kov_sem.waiters */
	void **slots;
};

void sys_init(void)
{
}

u32_t sys_now(void)
{
	return (u32_t)(clock_ns() / 1000000);
}

static uint64_t rng_state;
unsigned int kov_net_random(void)
{
	/* xorshift seeded from the timebase: TCP sequence numbers and DHCP transaction ids only
	 * need to differ between boots and connections. */
	if (!rng_state)
		rng_state = mftb() | 1;
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (unsigned int)(rng_state >> 16);
}

static int errno_of_kernel_threads;
int *kov_net_errno(void)
{
	struct thread *t = current_thread();
	return t ? &t->net_errno : &errno_of_kernel_threads;
}

void lwip_port_assert(const char *msg, const char *file, int line)
{
	kprintf("net: lwIP assertion \"%s\" failed at %s:%d\n", msg, file, line);
	machine_halt();
}

/* ---- lightweight protection: a recursive spin lock ------------------------------------------
 * lwIP never runs in interrupt context here (a NIC interrupt only wakes the receive thread), so
 * interrupts stay on: under TCG every MSR write ends a translation block, and lwIP protects
 * each pbuf and pool operation. The spin lock holds off preemption while it is held. */

static struct spinlock prot_lock = SPINLOCK_INIT;
static const void *volatile prot_owner;
static int prot_depth;

sys_prot_t sys_arch_protect(void)
{
	/* The owner is the thread, not the CPU: a thread preempted before it takes the lock may
	 * resume on a CPU whose running thread holds it. (Before threads exist, the CPU.) */
	const void *me = current_thread();
	if (!me)
		me = this_cpu();
	if (prot_owner != me) {
		spin_lock(&prot_lock);
		prot_owner = me;
	}
	prot_depth++;
	return 0;
}

void sys_arch_unprotect(sys_prot_t unused)
{
	(void)unused;
	if (--prot_depth == 0) {
		prot_owner = 0;
		spin_unlock(&prot_lock);
	}
}

/* ---- semaphores ---------------------------------------------------------------------------- */

/* The "still empty?" checks run under the wait queue's lock after the waiter announced
 * itself; seq_cst loads order them after that announcement on SMP hardware. */
static bool sem_empty(const void *key)
{
	return __atomic_load_n(&((const struct kov_sem *)key)->count, __ATOMIC_SEQ_CST) == 0;
}

static bool sem_try_take(struct kov_sem *s)
{
	uint32_t c = __atomic_load_n(&s->count, __ATOMIC_ACQUIRE);
	while (c > 0)
		if (__atomic_compare_exchange_n(&s->count, &c, c - 1, false, __ATOMIC_ACQ_REL,
						__ATOMIC_ACQUIRE))
			return true;
	return false;
}

err_t sys_sem_new(sys_sem_t *sem, u8_t count)
{
	struct kov_sem *s = kmalloc(sizeof *s);
	if (!s)
		return ERR_MEM;
	s->count = count;
	*sem = s;
	return ERR_OK;
}

void sys_sem_free(sys_sem_t *sem)
{
	kfree(*sem);
	*sem = NULL;
}

void sys_sem_signal(sys_sem_t *sem)
{
	struct kov_sem *s = *sem;
	__atomic_add_fetch(&s->count, 1, __ATOMIC_SEQ_CST);
	if (__atomic_load_n(&s->waiters, __ATOMIC_SEQ_CST))
		thread_wake_one(s);
}

/* Waits until try(key, out) succeeds or the timeout (ms, 0 = none) passes; returns the ms
 * waited or SYS_ARCH_TIMEOUT. `give_up_on_exit`: a thread of an exiting process stops
 * waiting (mailboxes only: a semaphore wait is the stack's own and must complete). */
static u32_t wait_for(void *key, volatile uint32_t *waiters, bool (*try)(void *key, void **out),
		      void **out, bool (*empty)(const void *key), u32_t timeout_ms,
		      bool give_up_on_exit)
{
	uint64_t start = clock_ns();
	uint64_t deadline = timeout_ms ? start + (uint64_t)timeout_ms * 1000000 : 0;
	for (;;) {
		if (try(key, out))
			return (u32_t)((clock_ns() - start) / 1000000);
		if (give_up_on_exit) {
			struct process *p = current_thread()->proc;
			if (p && __atomic_load_n(&p->exiting, __ATOMIC_ACQUIRE))
				return SYS_ARCH_TIMEOUT;
		}
		if (deadline && clock_ns() >= deadline)
			return SYS_ARCH_TIMEOUT;
		__atomic_add_fetch(waiters, 1, __ATOMIC_SEQ_CST);
		if (!deadline)
			thread_block_on(key, empty);
		else
			thread_block_until(key, empty, deadline);
		__atomic_sub_fetch(waiters, 1, __ATOMIC_SEQ_CST);
	}
}

static bool sem_try(void *key, void **out)
{
	(void)out;
	return sem_try_take(key);
}

u32_t sys_arch_sem_wait(sys_sem_t *sem, u32_t timeout)
{
	return wait_for(*sem, &(*sem)->waiters, sem_try, 0, sem_empty, timeout, false);
}

/* ---- mutexes ------------------------------------------------------------------------------- */

err_t sys_mutex_new(sys_mutex_t *mutex)
{
	struct sleeplock *l = kmalloc(sizeof *l);
	if (!l)
		return ERR_MEM;
	*l = (struct sleeplock){ 0 };
	*mutex = l;
	return ERR_OK;
}

void sys_mutex_lock(sys_mutex_t *mutex)
{
	sleep_lock(*mutex);
}

void sys_mutex_unlock(sys_mutex_t *mutex)
{
	sleep_unlock(*mutex);
}

void sys_mutex_free(sys_mutex_t *mutex)
{
	kfree(*mutex);
	*mutex = NULL;
}

/* ---- mailboxes ----------------------------------------------------------------------------- */

err_t sys_mbox_new(sys_mbox_t *mbox, int size)
{
	if (size <= 0)
		size = 64;
	struct kov_mbox *m = kmalloc(sizeof *m);
	void **slots = kmalloc(sizeof(void *) * (size_t)size);
	if (!m || !slots) {
		kfree(m);
		kfree(slots);
		return ERR_MEM;
	}
	*m = (struct kov_mbox){ .lock = SPINLOCK_INIT, .size = (uint32_t)size, .slots = slots };
	*mbox = m;
	return ERR_OK;
}

void sys_mbox_free(sys_mbox_t *mbox)
{
	kfree((*mbox)->slots);
	kfree(*mbox);
	*mbox = NULL;
}

/* Wait keys: readers wait on the mailbox, writers on its slots array. */
static bool mbox_empty(const void *key)
{
	return __atomic_load_n(&((const struct kov_mbox *)key)->count, __ATOMIC_SEQ_CST) == 0;
}

static bool mbox_full(const void *key)
{
	const struct kov_mbox *m = (const struct kov_mbox *)((const char *)key -
		__builtin_offsetof(struct kov_mbox, slots));
	return __atomic_load_n(&m->count, __ATOMIC_SEQ_CST) == m->size;
}

static bool mbox_put(struct kov_mbox *m, void *msg)
{
	spin_lock(&m->lock);
	bool ok = m->count < m->size;
	if (ok) {
		m->slots[(m->head + m->count) % m->size] = msg;
		m->count++;
	}
	spin_unlock(&m->lock);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (ok && __atomic_load_n(&m->readers, __ATOMIC_SEQ_CST))
		thread_wake_one(m);
	return ok;
}

static bool mbox_get(struct kov_mbox *m, void **msg)
{
	spin_lock(&m->lock);
	bool ok = m->count > 0;
	if (ok) {
		void *v = m->slots[m->head];
		if (msg)
			*msg = v;
		m->head = (m->head + 1) % m->size;
		m->count--;
	}
	spin_unlock(&m->lock);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (ok && __atomic_load_n(&m->writers, __ATOMIC_SEQ_CST))
		thread_wake_one(&m->slots);
	return ok;
}

void sys_mbox_post(sys_mbox_t *mbox, void *msg)
{
	struct kov_mbox *m = *mbox;
	while (!mbox_put(m, msg)) {
		__atomic_add_fetch(&m->writers, 1, __ATOMIC_SEQ_CST);
		thread_block_on(&m->slots, mbox_full);
		__atomic_sub_fetch(&m->writers, 1, __ATOMIC_SEQ_CST);
	}
}

err_t sys_mbox_trypost(sys_mbox_t *mbox, void *msg)
{
	return mbox_put(*mbox, msg) ? ERR_OK : ERR_MEM;
}

err_t sys_mbox_trypost_fromisr(sys_mbox_t *mbox, void *msg)
{
	return sys_mbox_trypost(mbox, msg);
}

static bool mbox_try(void *key, void **out)
{
	return mbox_get(key, out);
}

u32_t sys_arch_mbox_fetch(sys_mbox_t *mbox, void **msg, u32_t timeout)
{
	return wait_for(*mbox, &(*mbox)->readers, mbox_try, msg, mbox_empty, timeout, true);
}

u32_t sys_arch_mbox_tryfetch(sys_mbox_t *mbox, void **msg)
{
	return mbox_get(*mbox, msg) ? 0 : SYS_MBOX_EMPTY;
}

/* ---- threads ------------------------------------------------------------------------------- */

sys_thread_t sys_thread_new(const char *name, lwip_thread_fn fn, void *arg, int stacksize, int prio)
{
	(void)stacksize;
	(void)prio;
	/* The stack's threads live on the boot CPU, where the NIC's interrupt is delivered. */
	struct thread *t = thread_create(name, fn, arg, NETDEV_STACK_CPU);
	if (!t) {
		kprintf("net: cannot create thread %s\n", name);
		machine_halt();
	}
	return t;
}

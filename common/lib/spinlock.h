/* Kernel spin locks on the shared lock word (common/lib/spinword.h): taking one also holds off
 * preemption on this CPU until it is released. Statistics go to the KM's kernel lock table. */
#ifndef KOV_SPINLOCK_H
#define KOV_SPINLOCK_H

#include "../lib/spinword.h"

/* Taking a lock also holds off preemption on this CPU until it is released (kernel). A
 * failed spin_trylock counts as a trylock failure in the lock's statistics. */
void spin_lock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
void spin_unlock(struct spinlock *l);

#endif

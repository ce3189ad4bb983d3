/* The device-interrupt handler table (kernel/arch/irq.h). Handlers are attached at boot, before
 * the sources are unmasked, and never detached, so dispatch reads the table without a lock. */
#include "irq.h"
#include "platform.h"
#include "common/lib/spinlock.h"

struct irq_slot {
	uint32_t source;
	irq_handler_fn fn;
	void *arg;
};

static struct irq_slot slots[IRQ_MAX_HANDLERS];
static volatile unsigned int nslots;
static struct spinlock attach_lock = SPINLOCK_INIT;

bool irq_attach(uint32_t source, irq_handler_fn fn, void *arg)
{
	if (!platform->irq_route)
		return false;
	spin_lock(&attach_lock);
	unsigned int n = nslots;
	if (n == IRQ_MAX_HANDLERS) {
		spin_unlock(&attach_lock);
		return false;
	}
	slots[n] = (struct irq_slot){ source, fn, arg };
	__atomic_store_n(&nslots, n + 1, __ATOMIC_RELEASE);
	spin_unlock(&attach_lock);
	return platform->irq_route(source);
}

bool irq_dispatch(uint32_t source)
{
	unsigned int n = __atomic_load_n(&nslots, __ATOMIC_ACQUIRE);
	bool handled = false;
	for (unsigned int i = 0; i < n; i++)
		if (slots[i].source == source) {
			slots[i].fn(slots[i].arg);
			handled = true;
		}
	return handled;
}

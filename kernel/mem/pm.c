/* The page manager: one object for the whole system, so every FCM that needs a frame comes
 * here (under its lock): the page-fetch contention the thesis observed lands on this object. */
#include "vm.h"
#include "../mm/page_alloc.h"
#include "../mm/kmem.h"
#include "../arch/cpu.h"

coid_t the_pm;

CO_METHOD(uint64_t, pm_alloc_frame, struct pm *pm)
{
	spin_lock(&pm->lock);
	void *page = page_alloc(1);
	if (page) {
		pm->out++;
		pm->allocations++;
	}
	spin_unlock(&pm->lock);
	return page ? phys_of(page) : 0;
}

CO_METHOD(void, pm_free_frame, struct pm *pm, uint64_t pa)
{
	spin_lock(&pm->lock);
	page_free(kernel_ptr(pa), 1);
	pm->out--;
	spin_unlock(&pm->lock);
}

CO_METHOD(uint64_t, pm_frames_out, struct pm *pm)
{
	return pm->out;
}

static const struct pm_ops pm_ops = { pm_alloc_frame, pm_free_frame, pm_frames_out };
const struct co_class pm_class = { "PM", &pm_ops, 3, 0 };

void pm_init(void)
{
	struct pm *pm = kmalloc(sizeof *pm);
	pm->ops = &pm_ops;
	the_pm = co_new_single(&pm_class, pm);
}

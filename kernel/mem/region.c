/* Regions: a range of a process's address space, with its protection, backed by an FCM. */
#include "vm.h"
#include "../mm/kmem.h"
#include "../arch/cpu.h"
#include "../abi/syscall_nr.h"

CO_METHOD(long, region_fault, struct region *r, uint64_t ea, bool write, coid_t hat)
{
	if (write && !(r->prot & PROT_WRITE))
		return -KOV_EFAULT;
	uint64_t page = ea & ~(PAGE_SIZE - 1);
	uint64_t pa = CO_CALL(struct fcm, r->fcm, get_page, page - r->start);
	if (!pa)
		return -KOV_ENOMEM;
	return CO_CALL(struct hat, hat, map, page, pa, r->prot) ? 0 : -KOV_ENOMEM;
}

static int region_children(void *rep, coid_t *children, int max)
{
	if (max > 0)
		children[0] = ((struct region *)rep)->fcm;
	return 1;
}

static const struct region_ops region_ops = { region_fault };
const struct co_class region_class = { "Region", &region_ops, 1, region_children };

coid_t region_create(uint64_t start, uint64_t size, unsigned prot, coid_t fcm)
{
	struct region *r = kmalloc(sizeof *r);
	if (!r)
		return 0;
	r->ops = &region_ops;
	r->start = start;
	r->size = size;
	r->prot = prot;
	r->fcm = fcm;
	coid_t c = co_new_single(&region_class, r);
	if (!c)
		kfree(r);
	return c;
}

extern const struct co_class pm_class, pm_percpu_class, fr_class, fcm_class, seghat_class, hat_class;

void vm_register_classes(void)
{
	co_register_class(&pm_class);
	co_register_class(&pm_percpu_class);
	co_register_class(&fr_class);
	co_register_class(&fcm_class);
	co_register_class(&region_class);
	co_register_class(&hat_class);
	co_register_class(&seghat_class);
}

/* The monitor's state for each process (struct km_proc, kov/km_internal.h): made and freed
 * with the process through the kernel/include/kov_hooks.h hooks, so the process carries one pointer to it. */
#include "km_internal.h"

struct km_proc *km_process_new(void)
{
	return kmalloc(sizeof(struct km_proc));
}

void km_process_free(struct km_proc *k)
{
	km_controller_gone(k);
	kfree(k);
}

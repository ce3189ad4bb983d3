#include "percpu.h"
#include "cpu.h"

struct percpu percpu_area[MAX_CPUS];
unsigned int cpus_online;

void percpu_init_self(unsigned int index, uint32_t hw_id)
{
	struct percpu *p = &percpu_area[index];
	p->index = index;
	p->hw_id = hw_id;
	__asm__("mr %0, 2" : "=r"(p->kernel_toc));
	mtspr(SPRN_SPRG0, p);
	__asm__ volatile("mr 13, %0" : : "r"(p) : "memory");
}

/* The kernel's services to the monitor (kernel/include/kov_services.h): thin wrappers over the
 * process, thread, lock, platform and network interfaces, so the monitor never sees their
 * structures. The kernel headers that declare what kov_services.h declares again are included
 * here, so that the compiler checks the two agree. The scan hand-off and process references live
 * with the processes (kernel/proc/process.c). */
#include <stddef.h>
#include "kernel/include/kov_services.h"
#include "mm/kmem.h"
#include "mm/uaccess.h"
#include "arch/console.h"
#include "arch/timer.h"
#include "lock/sleeplock.h"
#include "proc/process.h"
#include "proc/thread.h"
#include "proc/runqueue.h"
#include "arch/platform.h"
#include "arch/cpu.h"
#include "arch/percpu.h"
#include "arch/smp_kind.h"
#include "net/net.h"
#include "kernel/arch/symbols.h"
#include "abi/km_abi.h"
#include "common/lib/string.h"

uint32_t svc_process_list(struct km_process *out, uint32_t max)
{
	return process_list(out, max);
}

uint32_t svc_process_pid(const struct process *p)
{
	return p->pid;
}

const char *svc_process_name(const struct process *p)
{
	return p->name;
}

bool svc_process_exiting(const struct process *p)
{
	return p->exiting;
}

uint32_t svc_process_index(const struct process *p)
{
	return co_index(p->self);
}

struct km_proc *svc_process_km(const struct process *p)
{
	return p->km;
}

long svc_process_read(struct process *p, uint64_t uaddr, void *dst, uint64_t len)
{
	return process_read(p, uaddr, dst, len);
}

long svc_process_peek(struct process *p, uint64_t uaddr, void *dst, uint64_t len)
{
	return process_peek(p, uaddr, dst, len);
}

struct process *svc_current_process(void)
{
	return current_process();
}

bool svc_current_privileged(void)
{
	struct process *p = current_process();
	return p && p->privileged;
}

bool svc_block_until(const void *key, bool (*still_blocked)(const void *key), uint64_t deadline_ns)
{
	return thread_block_until(key, still_blocked, deadline_ns);
}

void svc_wake_all(const void *key)
{
	thread_wake_all(key);
}

void svc_cpu_kick(unsigned cpu)
{
	kick(cpu);
}

bool svc_cpu_yield_turn(void)
{
	return smp_yield_turn();
}

void svc_yield(void)
{
	thread_yield();
}

bool svc_cpu_online(unsigned cpu)
{
	return percpu_area[cpu].online;
}

void svc_cpu_set_km(unsigned cpu, struct km_cpu *c)
{
	percpu_area[cpu].km_cpu = c;
}

uint64_t svc_tick_period_tb(void)
{
	return this_cpu()->dec_period;
}

static struct sleeplock monitor_locks[SVC_LOCKS];

void svc_lock(enum svc_lock l)
{
	sleep_lock(&monitor_locks[l]);
}

void svc_unlock(enum svc_lock l)
{
	sleep_unlock(&monitor_locks[l]);
}

volatile uint32_t *svc_sleeplock_word(const void *lock)
{
	return &((struct sleeplock *)lock)->locked;
}

uint64_t svc_timebase_hz(void)
{
	return machine.tb_freq;
}

static void copy_str(char *dst, size_t n, const char *src)
{
	size_t len = src ? strnlen(src, n - 1) : 0;
	memcpy(dst, src, len);
	dst[len] = 0;
}

void svc_machine_describe(struct km_info *out)
{
	out->timebase_hz = machine.tb_freq;
	out->memory = machine.mem_total;
	out->pvr = machine.pvr;
	out->cpus = (uint16_t)cpus_online;
	copy_str(out->profile, sizeof out->profile, machine.profile);
	copy_str(out->model, sizeof out->model, machine.model);
	out->cpus_run = (uint8_t)smp_run_kind();
	uint64_t late = 0;
	for (unsigned i = 0; i < MAX_CPUS; i++) {
		const struct percpu *c = &percpu_area[i];
		if (!c->online)
			continue;
		out->wake_rescues += c->wake_rescues;
		out->wake_resets += c->wake_resets;
		out->wake_prods += c->wake_prods;
		out->ticks_pending += c->ticks_pending;
		out->ticks_skipped += c->ticks_skipped;
		out->turns_handed_rx += c->turns_handed;
		if (c->wake_late_max_tb > late)
			late = c->wake_late_max_tb;
	}
	out->wake_late_max_us = late / (machine.tb_freq / 1000000);
}

const void *svc_kernel_symbols(size_t *size)
{
	return symbol_table(size);
}

bool svc_net_info(struct km_netinfo *out)
{
	if (!net_info(out))
		return false;
	out->sockets_open = net_sockets_open();
	return true;
}

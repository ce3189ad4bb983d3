/* A kept service: one kernel thread per service waits for the program to end (which also reaps
 * it, so its memory and the monitor's state for it go at once) and starts it again. The pause
 * and the limit keep a program that fails at start from spinning the machine. */
#include "service.h"
#include "process.h"
#include "thread.h"
#include "../mm/kmem.h"
#include "../arch/timer.h"
#include "kernel/arch/console.h"
#include "common/lib/string.h"
#include "../abi/syscall_nr.h"

#define RESTART_PAUSE_NS 1000000000ull
#define RESTART_WINDOW_NS 60000000000ull

struct service {
	char program[32];
	char args[96];
	long pid;
};

static bool never_woken(const void *key)
{
	(void)key;
	return true;
}

static void keeper(void *arg)
{
	struct service *s = arg;
	uint64_t starts[SERVICE_RESTARTS] = { 0 };
	unsigned restarts = 0;
	for (;;) {
		long status = 0;
		if (process_wait((uint32_t)s->pid, 0, &status) < 0) {
			kprintf("kov: lost track of %s (pid %ld)\n", s->program, s->pid);
			return;
		}
		uint64_t now = clock_ns();
		uint64_t oldest = starts[restarts % SERVICE_RESTARTS];
		if (restarts >= SERVICE_RESTARTS && now - oldest < RESTART_WINDOW_NS) {
			kprintf("kov: %s ended (status %ld) %u times within a minute; left down\n",
				s->program, status, SERVICE_RESTARTS + 1);
			return;
		}
		kprintf("kov: %s (pid %ld) ended with status %ld; restarting it\n", s->program, s->pid,
			status);
		thread_block_until(s, never_woken, now + RESTART_PAUSE_NS);
		starts[restarts++ % SERVICE_RESTARTS] = clock_ns();
		s->pid = process_spawn(s->program, s->args, 0);
		if (s->pid < 0) {
			kprintf("kov: cannot restart %s: error %ld; left down\n", s->program, -s->pid);
			return;
		}
		kprintf("kov: %s restarted, pid %ld\n", s->program, s->pid);
	}
}

long service_keep(const char *program, const char *args)
{
	struct service *s = kmalloc(sizeof *s);
	if (!s)
		return -KOV_ENOMEM;
	size_t np = strlen(program), na = strlen(args);
	if (np >= sizeof s->program || na >= sizeof s->args) {
		kfree(s);
		return -KOV_EINVAL;
	}
	memcpy(s->program, program, np + 1);   /* kmalloc zeroed the rest */
	memcpy(s->args, args, na + 1);
	s->pid = process_spawn(program, args, 0);
	if (s->pid < 0) {
		long rc = s->pid;
		kfree(s);
		return rc;
	}
	if (!thread_create("service-keeper", keeper, s, -1))
		kprintf("kov: no thread to keep %s running; it will not be restarted\n", program);
	return s->pid;
}

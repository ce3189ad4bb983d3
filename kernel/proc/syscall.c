/* System calls. Every user pointer goes through uaccess (range check, then a copy that turns
 * an unmapped address into -KOV_EFAULT); every number is range-checked. A bad call returns an
 * error and changes nothing. */
#include "kernel/include/kov_hooks.h"
#include "syscall.h"
#include "../abi/syscall_nr.h"
#include "process.h"
#include "../mm/uaccess.h"
#include "../arch/platform.h"
#include "kernel/arch/console.h"
#include "common/lib/string.h"
#include "../arch/percpu.h"
#include "../arch/timer.h"
#include "../arch/cpu.h"
#include "thread.h"
#include "../abi/scan.h"
#include "../mem/vm.h"
#include "../mm/kmem.h"
#include "../mm/page_alloc.h"
#include "kernel/mem/initrd.h"
#include "../arch/platform_report.h"
#include "../abi/km_abi.h"

#define WRITE_MAX (64 * 1024)
#define WRITE_LINE_MAX 512       /* longer lines reach the console in pieces */

static long sys_write(uint64_t fd, uint64_t buf, uint64_t len)
{
	if (fd != 1 && fd != 2)
		return -KOV_EBADF;
	if (len > WRITE_MAX)
		return -KOV_EINVAL;
	/* Whole lines at a time under the console lock, so lines of other CPUs and kernel messages
	 * never land inside one: a line's start that does not end in the chunk waits for the
	 * next copy. Only a line longer than the chunk is cut. (Copied first, then locked: a copy
	 * may fault the page in.) */
	char chunk[WRITE_LINE_MAX];
	uint64_t have = 0;
	for (uint64_t done = 0; done < len || have;) {
		uint64_t n = len - done < sizeof chunk - have ? len - done : sizeof chunk - have;
		long rc = copy_from_user(chunk + have, buf + done, n);
		if (rc)
			return rc;
		done += n;
		have += n;
		uint64_t cut = have;   /* all of it once the caller's buffer is done */
		if (done < len)        /* else the chunk is full: up to its last newline */
			while (cut > 0 && chunk[cut - 1] != '\n')
				cut--;
		if (!cut)
			cut = have;
		console_write(chunk, cut);
		memmove(chunk, chunk + cut, have - cut);
		have -= cut;
	}
	return (long)len;
}

/* Any process may read the initial RAM disk's files: they are the programs it could run and
 * the files served to clients (httpd), nothing private. */
static long sys_file_read(uint64_t uname, uint64_t offset, uint64_t ubuf, uint64_t len)
{
	char name[48];
	long rc = string_from_user(name, uname, sizeof name);
	if (rc < 0)
		return rc;
	uint32_t size;
	const uint8_t *f = initrd_find(name, &size);
	if (!f)
		return -KOV_ENOENT;
	if (offset >= size)
		return 0;
	uint64_t n = size - offset < len ? size - offset : len;
	rc = copy_to_user(ubuf, f + offset, n);
	return rc ? rc : (long)n;
}

static long sys_spawn(uint64_t uprogram, uint64_t uargs)
{
	char program[48], args[256];
	long rc = string_from_user(program, uprogram, sizeof program);
	if (rc < 0)
		return rc;
	args[0] = 0;
	if (uargs && (rc = string_from_user(args, uargs, sizeof args)) < 0)
		return rc;
	return process_spawn(program, args, current_process()->pid);
}

static long sys_wait(uint64_t pid, uint64_t ustatus)
{
	if (pid == 0 || pid > UINT32_MAX)
		return -KOV_EINVAL;
	if (ustatus && !user_range_ok(ustatus, sizeof(int)))
		return -KOV_EFAULT;
	long status;
	long rc = process_wait((uint32_t)pid, current_process()->pid, &status);
	if (rc > 0 && ustatus) {
		int s = (int)status;
		long copied = copy_to_user(ustatus, &s, sizeof s);
		if (copied)
			return copied;
	}
	return rc;
}

static long free_pages_sum(void)
{
	return (long)(pages_free() + kmem_empty_pages() + CO_CALL(struct pm, the_pm, frames_cached));
}

static long pages_elsewhere_sum(void)
{
	return (long)(pages_total() - pages_free() - kmem_pages() -
		      CO_CALL(struct pm, the_pm, frames_out) -
		      CO_CALL(struct pm, the_pm, frames_cached));
}

/* A sum over the page counts that no move between them overlapped (page_alloc.h): read again,
 * after a yield that lets a held-up mover finish, while moves keep overlapping. */
static long page_counts_read(long (*sum)(void))
{
	for (int tries = 0; tries < 1000; tries++) {
		uint64_t stamp;
		if (page_moves_quiet(&stamp)) {
			long v = sum();
			if (!page_moves_since(stamp))
				return v;
		}
		thread_yield();
	}
	return -KOV_EAGAIN;
}

static long meminfo(uint64_t what)
{
	switch (what) {
	case MEMINFO_FREE_PAGES: return page_counts_read(free_pages_sum);
	case MEMINFO_PM_FRAMES: return (long)CO_CALL(struct pm, the_pm, frames_out);
	case MEMINFO_HEAP_BLOCKS: return (long)kmem_live_blocks();
	case MEMINFO_PROCESSES: return (long)CO_CALL(struct annex, process_annex, count);
	case MEMINFO_CPUS: return (long)cpus_online;
	case MEMINFO_SOCKETS: return (long)net_sockets_open();
	case MEMINFO_HEAP_MARK:
	case MEMINFO_HEAP_REPORT:
		if (!current_process()->privileged)
			return -KOV_EPERM;
		if (what == MEMINFO_HEAP_REPORT)
			return (long)kmem_sites_report();
		kmem_sites_mark();
		return 0;
	case MEMINFO_ULTT_TABLES: return (long)process_ultt_tables();
	case MEMINFO_HEAP_OWN: return (long)kmem_account_blocks(current_process()->heap_account);
	case MEMINFO_HEAP_UNOWNED: return (long)kmem_unowned_blocks();
	case MEMINFO_PAGES_ELSEWHERE: return page_counts_read(pages_elsewhere_sum);
	default: return -KOV_EINVAL;
	}
}

/* Futex keys: the VSID context and the user address, never a kernel pointer. */
static const void *futex_key(const struct process *p, uint64_t addr)
{
	return (const void *)((p->ctx << 32) | addr);
}

static bool futex_still_waiting(const void *key)
{
	(void)key;
	struct thread *t = current_thread();
	uint32_t v;
	if (t->proc->exiting || copy_from_user(&v, t->futex_addr, sizeof v))
		return false;
	return v == t->futex_expected;
}

static long sys_futex_wait(uint64_t addr, uint64_t expected)
{
	if ((addr & 3) || !user_range_ok(addr, 4))
		return -KOV_EFAULT;
	uint32_t v;
	if (copy_from_user(&v, addr, sizeof v))
		return -KOV_EFAULT;   /* nothing there: not a word to wait on (sysfuzz found 0) */
	struct thread *t = current_thread();
	t->futex_addr = addr;
	t->futex_expected = (uint32_t)expected;
	thread_block_on(futex_key(t->proc, addr), futex_still_waiting);
	return 0;
}

static long sys_futex_wake(uint64_t addr, uint64_t count)
{
	if ((addr & 3) || !user_range_ok(addr, 4))
		return -KOV_EFAULT;
	const void *key = futex_key(current_process(), addr);
	long n = 0;
	while ((uint64_t)n < count && thread_wake_one(key))
		n++;
	return n;
}

/* The request is checked before the privilege so that the fuzzer's wrong calls are refused for
 * what they are; the console says who asked before the machine goes. */
static long sys_power(uint64_t what, uint64_t magic)
{
	if ((what != POWER_OFF && what != POWER_REBOOT) || magic != POWER_MAGIC)
		return -KOV_EINVAL;
	struct process *p = current_process();
	if (!p->privileged)
		return -KOV_EPERM;
	if (what == POWER_REBOOT && !platform->reboot)
		return -KOV_ENOSYS;
	kprintf("kov: %s requested by pid %u (%s)\n", what == POWER_OFF ? "power-off" : "reboot",
		p->pid, p->name);
	if (what == POWER_OFF)
		machine_halt();
	machine_reboot();
}

/* The record (1.7 KiB) is built on the stack: the call moves no heap or page count, which
 * sysfuzz's leak check watches. */
static long sys_platform(uint64_t ubuf)
{
	if (!user_range_ok(ubuf, sizeof(struct km_platform)))
		return -KOV_EFAULT;
	struct km_platform k;
	platform_report_fill(&k);
	return copy_to_user(ubuf, &k, sizeof k);
}

#define SCAN_MAX_RECORDS 4096

static long sys_km_scan(uint64_t ubuf, uint64_t max, uint64_t utotals)
{
	struct process *p = current_process();
	if (!p->privileged)
		return -KOV_EPERM;
	if (max > SCAN_MAX_RECORDS)
		max = SCAN_MAX_RECORDS;
	if (!user_range_ok(ubuf, max * sizeof(struct scan_record)) ||
	    !user_range_ok(utotals, sizeof(struct scan_totals)))
		return -KOV_EFAULT;
	struct scan_record *buf = kmalloc((max ? max : 1) * sizeof *buf);
	if (!buf)
		return -KOV_ENOMEM;
	struct scan_totals t = km_scan(buf, (uint32_t)max);
	km_scan_user(buf, (uint32_t)max, &t);
	long rc = copy_to_user(ubuf, buf, t.written * sizeof *buf);
	if (!rc)
		rc = copy_to_user(utotals, &t, sizeof t);
	kfree(buf);
	return rc ? rc : (long)t.written;
}

/* The monitor's and the network's calls, out of syscall_dispatch's switch only to keep it short:
 * inlined there (one caller), it costs the calls above nothing, these a second switch. */
static inline long monitor_or_net_syscall(struct trap_frame *tf, uint64_t *a)
{
	switch (tf->gpr[0]) {
	case SYS_KM_INFO:
	case SYS_KM_CATALOGUE:
	case SYS_KM_KSYMS:
	case SYS_KM_PROCESSES:
	case SYS_NETINFO:
		return km_info_syscall(tf->gpr[0], a);
	case SYS_KM_CONFIGURE:
	case SYS_KM_CONFIG_GET:
	case SYS_KM_CONTROL:
	case SYS_KM_SAMPLES:
	case SYS_KM_COUNTS:
	case SYS_KM_LOST:
	case SYS_KM_STATE:
	case SYS_KM_LOCKS:
	case SYS_KM_INSTRUMENT:
	case SYS_KM_SWAP:
	case SYS_KM_THROTTLE:
		return current_process()->privileged ? km_syscall(tf->gpr[0], a) : -KOV_EPERM;
	case SYS_KM_LOCK_AREA:
		return km_syscall(tf->gpr[0], a);
	case SYS_KM_LOCK_OWNER:
		return km_lock_owner_syscall(tf, a[0]);
	case SYS_SOCKET:
	case SYS_BIND:
	case SYS_LISTEN:
	case SYS_ACCEPT:
	case SYS_CONNECT:
	case SYS_SEND:
	case SYS_RECV:
	case SYS_CLOSE:
	case SYS_POLL:
	case SYS_SETSOCKOPT:
	case SYS_SHUTDOWN:
	case SYS_GETSOCKNAME:
		return net_syscall(tf->gpr[0], a);
	default:
		return -KOV_ENOSYS;
	}
}

void syscall_dispatch(struct trap_frame *tf)
{
	uint64_t *a = &tf->gpr[3];
	struct process *p = current_process();
	long rc;
	switch (tf->gpr[0]) {
	case SYS_EXIT:
		process_exit((long)(int)a[0]);
	case SYS_WRITE:
		rc = sys_write(a[0], a[1], a[2]);
		break;
	case SYS_GETPID:
		rc = p->pid;
		break;
	case SYS_SPAWN:
		rc = sys_spawn(a[0], a[1]);
		break;
	case SYS_WAIT:
		rc = sys_wait(a[0], a[1]);
		break;
	case SYS_YIELD:
		thread_yield();
		rc = 0;
		break;
	case SYS_SBRK:
		rc = CO_CALL(struct process, p->self, sbrk, (long)a[0]);
		break;
	case SYS_CLOCK:
		rc = (long)clock_ns();
		break;
	case SYS_GETCPU:
		rc = this_cpu()->index;
		break;
	case SYS_MEMINFO:
		rc = meminfo(a[0]);
		break;
	case SYS_THREAD_CREATE:
		rc = process_thread_create(a[0], a[1], a[2], (long)a[3]);
		break;
	case SYS_SCHED_SETAFFINITY:
		rc = process_set_affinity(a[0], a[1]);
		break;
	case SYS_SCHED_GETAFFINITY:
		rc = process_get_affinity(a[0]);
		break;
	case SYS_SCHED_SETCLASS:
		rc = process_set_class(a[0], a[1]);
		break;
	case SYS_THREAD_EXIT:
		process_thread_exit((long)a[0]);
	case SYS_THREAD_JOIN:
		rc = a[0] > UINT32_MAX ? -KOV_ESRCH : process_thread_join((uint32_t)a[0]);
		break;
	case SYS_FUTEX_WAIT:
		rc = sys_futex_wait(a[0], a[1]);
		break;
	case SYS_FUTEX_WAKE:
		rc = sys_futex_wake(a[0], a[1]);
		break;
	case SYS_KM_SCAN:
		rc = sys_km_scan(a[0], a[1], a[2]);
		break;
	case SYS_FILE_READ:
		rc = sys_file_read(a[0], a[1], a[2], a[3]);
		break;
	case SYS_KILL:
		rc = a[0] > UINT32_MAX ? -KOV_ESRCH : process_kill((uint32_t)a[0]);
		break;
	case SYS_CO_INIT:
		rc = process_co_init(a[0]);
		break;
	case SYS_CO_RESET:
		rc = process_co_reset(a[0]);
		break;
	case SYS_CO_SCANNER:
		rc = process_co_scanner(a[0], a[1]);
		break;
	case SYS_CO_SCAN_WAIT:
		rc = process_co_scan_wait();
		break;
	case SYS_CO_COUNT_CMD:
		rc = process_co_count_cmd();
		break;
	case SYS_CO_SCAN_DONE:
		rc = process_co_scan_done(a[0]);
		break;
	case SYS_CO_SWAP_CMD:
		rc = process_co_swap_cmd(a[0], a[1]);
		break;
	case SYS_POWER:
		rc = sys_power(a[0], a[1]);
		break;
	case SYS_PLATFORM:
		rc = sys_platform(a[0]);
		break;
	default:
		rc = monitor_or_net_syscall(tf, a);
	}
	tf->gpr[3] = (uint64_t)rc;
}

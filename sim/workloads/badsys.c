/* Bad pointers and arguments to every system call: each must be refused with the right error
 * and leave the kernel (and this process) running. A crashing child is reaped with its
 * signal-like status. Exits 0 if every check held. */
#include <kov.h>
#include <socket.h>
#include "../../kernel/abi/syscall_nr.h"
#include "../../kernel/abi/scan.h"

static int failures, checks;
static volatile int ran_on = -1;

static void note_cpu(void *arg)
{
	(void)arg;
	ran_on = getcpu();
}

static void expect(const char *what, long got, long want)
{
	checks++;
	if (got != want) {
		failures++;
		printf("badsys: FAIL %s: got %ld, want %ld\n", what, got, want);
	}
}

int main(int argc, char **argv)
{
	char buf[16] = "ok\n";
	int status = 0;
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		struct scan_totals t;
		static struct scan_record r[2];
		struct km_info info;
		char name[8];
		/* The KM's calls are refused; the initial RAM disk's files are anyone's to read. */
		return __syscall(SYS_KM_SCAN, (long)r, 2, (long)&t, 0, 0) == -KOV_EPERM &&
		       km_info(&info) == -KOV_EPERM && km_ksyms(0, 0) == -KOV_EPERM &&
		       file_read("hello", 0, name, sizeof name) == sizeof name &&
		       !memcmp(name, "\177ELF", 4) ? 0 : 1;
	}
	char *heap_top = sbrk(0);
	expect("write null", write(1, 0, 4), -KOV_EFAULT);
	expect("write kernel address", write(1, (void *)0xC000000000000000ull, 8), -KOV_EFAULT);
	expect("write beyond user space", write(1, (void *)0x200000000ull, 8), -KOV_EFAULT);
	expect("write wrapping range", write(1, (void *)0xFFFFFFFFFFFFFFF0ull, 64), -KOV_EFAULT);
	expect("write above the break", write(1, heap_top + 4096, 8), -KOV_EFAULT);
	expect("write unmapped hole", write(1, (void *)0x80000000ull, 8), -KOV_EFAULT);
	expect("write bad fd", write(5, buf, 3), -KOV_EBADF);
	expect("write huge length", write(1, buf, 1L << 40), -KOV_EINVAL);
	expect("spawn null", spawn(0, 0), -KOV_EFAULT);
	expect("spawn kernel pointer", spawn((const char *)0xC000000000001000ull, 0), -KOV_EFAULT);
	expect("spawn missing program", spawn("no-such-program", 0), -KOV_ENOENT);
	expect("spawn bad args pointer", spawn("hello", (const char *)0x300000000ull), -KOV_EFAULT);
	expect("wait pid 0", wait_pid(0, 0), -KOV_EINVAL);
	expect("wait not a child", wait_pid(9999, 0), -KOV_ECHILD);
	expect("sbrk beyond the heap", (long)sbrk(1L << 40), -KOV_ENOMEM);
	expect("sbrk below the heap", (long)sbrk(-(1L << 40)), -KOV_ENOMEM);
	expect("unknown system call", __syscall(999, 0, 0, 0, 0, 0), -KOV_ENOSYS);
	expect("negative system call", __syscall(-1, 0, 0, 0, 0, 0), -KOV_ENOSYS);

	expect("scan with a bad buffer", __syscall(SYS_KM_SCAN, 0x10, 10, 0x20, 0, 0), -KOV_EFAULT);
	expect("scan into kernel memory", __syscall(SYS_KM_SCAN, (long)0xC000000000010000ull, 10,
						    (long)buf, 0, 0), -KOV_EFAULT);

	struct km_info info;
	expect("km_info to a kernel address", km_info((void *)0xC000000000000000ull), -KOV_EFAULT);
	expect("km_info", km_info(&info), 0);
	expect("km_info: the CPUs", info.cpus >= 1 && info.timebase_hz > 0 && info.memory > 0, 1);
	expect("km_catalogue into unmapped memory", km_catalogue((void *)0x80000000ull, 4), -KOV_EFAULT);
	expect("km_catalogue counts without copying", km_catalogue(0, 0), info.events);
	expect("km_processes into the kernel", km_processes((void *)0xC000000000000000ull, 1),
	       -KOV_EFAULT);
	long syms = km_ksyms(0, 0);
	expect("km_ksyms size only", syms > 16, 1);
	expect("km_ksyms into a short buffer copies nothing", km_ksyms(buf, sizeof buf), syms);
	expect("km_ksyms to a bad buffer", km_ksyms((void *)0x80000000ull, 1 << 20), -KOV_EFAULT);
	expect("file_read of a missing file", file_read("no-such", 0, buf, 4), -KOV_ENOENT);
	expect("file_read with a bad name", file_read((const char *)0x10, 0, buf, 4), -KOV_EFAULT);
	expect("file_read into the kernel", file_read("hello", 0, (void *)0xC000000000000000ull, 4),
	       -KOV_EFAULT);
	expect("file_read of the ELF magic", file_read("hello", 1, buf, 3), 3);
	expect("file_read: the bytes", buf[0] == 'E' && buf[1] == 'L' && buf[2] == 'F', 1);
	expect("file_read past the end", file_read("hello", 1ull << 40, buf, 4), 0);
	memcpy(buf, "ok\n", 4);
	expect("sockets without a network", socket(AF_INET, SOCK_STREAM, 0), -KOV_ENODEV);
	expect("netinfo without a network", netinfo((void *)0x10), -KOV_ENODEV);

	expect("co_init with a kernel table", __syscall(SYS_CO_INIT, (long)0xC000000000000000ull, 0, 0,
						     0, 0), -KOV_EFAULT);
	expect("co_reset outside the LTT", __syscall(SYS_CO_RESET, 0x10000000, 0, 0, 0, 0), -KOV_EINVAL);
	expect("co_reset misaligned", __syscall(SYS_CO_RESET, (long)USER_LTT_BASE + 8, 0, 0, 0, 0),
	       -KOV_EINVAL);
	expect("touch the LTT before co_init", write(1, (void *)USER_LTT_BASE, 8), -KOV_EFAULT);

	/* A grandchild of init may not use the monitor's calls (but may read the RAM disk). */
	int unprivileged = spawn("badsys", "child");
	expect("wait for the unprivileged child", wait_pid(unprivileged, &status), unprivileged);
	expect("scan refused to an unprivileged process", status, 0);

	/* A child whose status pointer is bad: the wait fails, the child is still reapable. */
	int pid = spawn("hello", "5");
	expect("spawn hello", pid > 0, 1);
	expect("wait bad status pointer", wait_pid(pid, (int *)0x10), -KOV_EFAULT);

	int crash = spawn("crash", 0);
	expect("wait for a crashing child", wait_pid(crash, &status), crash);
	expect("crash status", status, -11);
	int noexec = spawn("crash", "exec");
	expect("wait for an exec-violating child", wait_pid(noexec, &status), noexec);
	expect("no-execute status", status, -11);

	expect("meminfo CPUs", meminfo(MEMINFO_CPUS), info.cpus);
	/* A CPU number is a wish: CPU 7 on a smaller machine runs on one that exists. */
	int tid = thread_create(note_cpu, 0, 7);
	expect("thread on an absent CPU 7 starts", tid > 0, 1);
	expect("... and joins", tid > 0 ? thread_join(tid) : -1, 0);
	expect("... on an online CPU", ran_on >= 0 && ran_on < info.cpus, 1);
	expect("thread on cpu -2", thread_create(note_cpu, 0, -2), -KOV_EINVAL);
	expect("thread on cpu THREAD_CPU_MAX", thread_create(note_cpu, 0, THREAD_CPU_MAX), -KOV_EINVAL);
	expect("thread on a huge cpu", thread_create(note_cpu, 0, 1 << 30), -KOV_EINVAL);

	/* Still working after all that. */
	expect("write still works", write(1, buf, 3), 3);
	char *p = sbrk(8192);
	expect("sbrk grows", (long)((char *)sbrk(0) - p), 8192);
	p[8191] = 'x';
	expect("new heap is usable", p[8191], 'x');
	printf("badsys: %d of %d checks passed\n", checks - failures, checks);
	return failures ? 1 : 0;
}

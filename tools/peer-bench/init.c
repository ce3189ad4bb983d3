/* /init of the peer bench's initramfs (tools/peer-bench/run): Linux perf's cost per sample,
 * measured the way KOV's `kmcheck cost` measures its own, on the same emulated machine.
 *
 * A fixed loop of 20,000,000 user instructions (dependent adds, as in KOV's ipcbench) runs
 * with a hardware instructions counter that only counts (the base), then with the same
 * counter sampling every 20,000 instructions. Under QEMU's -icount shift=0 one instruction
 * is one nanosecond of virtual time, so the run's extra virtual time divided by the samples
 * taken is the instructions a sample costs: the interrupt, perf's handler, the ring write and
 * the call-chain walk. The loop runs 0 or 15 calls deep so that 16 user frames exist.
 *
 * Prints "peer: ..." lines on the console and powers the machine off. No arguments: the
 * kernel command line's "peer.runs=N" (repetitions, default 1) is read from /proc/cmdline. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#define LOOP_INSTRUCTIONS 20000000L   /* kmcheck cost 20000: 20,000 thousand */
#define PERIOD 20000                  /* kmcheck cost's threshold */
#define DEEP 15                       /* calls below the measured function: 16 frames */
#define RING_BYTES (4L << 20)         /* 1,000 samples of 16 frames need about 200 KiB */

struct result {
	uint64_t ns;         /* virtual time of the loop */
	uint64_t counted;    /* the counter's value at the end */
	uint64_t samples;    /* PERF_RECORD_SAMPLE records in the ring */
	uint64_t user;       /* those whose pc is a user address (the loop's) */
	uint64_t lost;       /* samples the kernel says it dropped (PERF_RECORD_LOST) */
	uint64_t throttled;  /* PERF_RECORD_THROTTLE: must stay 0 with throttling off */
	uint64_t frames;     /* call-chain entries over all samples, context markers excluded */
};

static const char *event_name = "PERF_COUNT_HW_INSTRUCTIONS";

/* A console for stdout: the initramfs holds /init only, so /dev comes from devtmpfs. */
static void setup_console(void)
{
	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	int fd = open("/dev/console", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
}

static int write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ssize_t n = write(fd, value, strlen(value));
	int err = n < 0 ? -errno : 0;
	close(fd);
	return err;
}

static long read_sysctl(const char *path)
{
	char buf[64] = "";
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	ssize_t n = read(fd, buf, sizeof buf - 1);
	close(fd);
	return n > 0 ? strtol(buf, NULL, 10) : -1;
}

/* Throttling off, so that every period that ends is a sample and its full cost is measured.
 * The rate limit is written first: the kernel refuses it once the CPU-time limit is 0. */
static void setup_perf_sysctls(void)
{
	static const char *const writes[][2] = {
		{ "/proc/sys/kernel/perf_event_paranoid", "-1" },
		{ "/proc/sys/kernel/perf_event_max_sample_rate", "10000000" },
		{ "/proc/sys/kernel/perf_cpu_time_max_percent", "0" },
		{ "/proc/sys/kernel/perf_event_mlock_kb", "65536" },
	};
	for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
		int err = write_sysctl(writes[i][0], writes[i][1]);
		printf("peer: sysctl %s = %s: %s (now %ld)\n", writes[i][0] + 17, writes[i][1],
		       err ? strerror(-err) : "ok", read_sysctl(writes[i][0]));
	}
}

/* Prints a one-line sysfs file: which PMU driver perf uses, which mitigations run on every
 * return to user mode (they are part of what a sample costs). */
static void print_file(const char *label, const char *path)
{
	char buf[256] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	printf("peer: %s %s\n", label, n > 0 ? buf : "(none)");
}

static uint64_t now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* The loop: passes of 7 dependent adds and a branch, 8 instructions each. */
__attribute__((noinline)) static long add_loop(long x)
{
	long passes = LOOP_INSTRUCTIONS / 8;
	__asm__ volatile(
		"	mtctr	%1\n"
		"1:	add	%0, %0, %0\n"
		"	add	%0, %0, %0\n"
		"	add	%0, %0, %0\n"
		"	add	%0, %0, %0\n"
		"	add	%0, %0, %0\n"
		"	add	%0, %0, %0\n"
		"	add	%0, %0, %0\n"
		"	bdnz	1b\n"
		: "+r"(x) : "r"(passes) : "ctr");
	return x;
}

/* noinline and not a tail call (the add after it), so each level keeps a frame. */
__attribute__((noinline)) static long at_depth(long x, int depth)
{
	if (depth == 0)
		return add_loop(x);
	long r = at_depth(x, depth - 1);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

/* The hardware instructions counter, user mode only, disabled until the loop; sampling
 * (period > 0) records what KOV's samples hold: pc, pid/tid, time, CPU and period. */
static int open_counter(long period, int chain)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = PERF_TYPE_HARDWARE;
	a.config = PERF_COUNT_HW_INSTRUCTIONS;
	a.disabled = 1;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	if (period > 0) {
		a.sample_period = (uint64_t)period;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD;
		if (chain > 0) {
			a.sample_type |= PERF_SAMPLE_CALLCHAIN;
			a.sample_max_stack = (uint16_t)chain;
			a.exclude_callchain_kernel = 1;
		}
		a.wakeup_events = 0;   /* no wake-ups: nobody polls; the ring is read at the end */
		a.watermark = 1;
		a.wakeup_watermark = (uint32_t)RING_BYTES;
	}
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

/* Counts the records the run left in the ring. A sample's call chain (a u64 count, then the
 * entries) follows ip, pid/tid, time, CPU and period: the order the sample type fixes. */
static void read_ring(struct perf_event_mmap_page *meta, struct result *r)
{
	unsigned char *data = (unsigned char *)meta + meta->data_offset;
	uint64_t size = meta->data_size;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	while (tail < head) {
		struct perf_event_header h;
		unsigned char rec[4096];
		for (size_t i = 0; i < sizeof h; i++)
			((unsigned char *)&h)[i] = data[(tail + i) % size];
		if (h.size < sizeof h || h.size > sizeof rec)
			break;
		for (size_t i = 0; i < h.size; i++)
			rec[i] = data[(tail + i) % size];
		uint64_t *u = (uint64_t *)(rec + sizeof h);
		if (h.type == PERF_RECORD_SAMPLE) {
			r->samples++;
			r->user += (int64_t)u[0] >= 0;   /* the kernel's addresses have the top bit set */
			uint64_t words = (h.size - sizeof h) / 8;
			for (uint64_t k = 0; words > 6 && k < u[5] && 6 + k < words; k++)
				r->frames += u[6 + k] < PERF_CONTEXT_MAX;   /* not a context marker */
		} else if (h.type == PERF_RECORD_LOST) {
			r->lost += u[1];
		} else if (h.type == PERF_RECORD_THROTTLE) {
			r->throttled++;
		}
		tail += h.size;
	}
}

/* One run of the loop at DEPTH calls, counted (period 0) or sampled. */
static int run_once(long period, int chain, int depth, struct result *r)
{
	memset(r, 0, sizeof *r);
	int fd = open_counter(period, chain);
	if (fd < 0)
		return -errno;
	long page = sysconf(_SC_PAGESIZE);
	size_t len = (size_t)(page + RING_BYTES);
	void *ring = period > 0 ? mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : NULL;
	if (ring == MAP_FAILED) {
		int err = -errno;
		close(fd);
		return err;
	}
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	uint64_t t0 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	long x = at_depth(1, depth);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	r->ns = now_ns() - t0;
	__asm__ volatile("" : : "r"(x));
	if (read(fd, &r->counted, sizeof r->counted) != sizeof r->counted)
		r->counted = 0;
	if (ring) {
		read_ring(ring, r);
		munmap(ring, len);
	}
	close(fd);
	return 0;
}

/* kmcheck cost's order: a first counted run warms up (page faults, caches), then the base,
 * then the sampled run. Prints one line in kmcheck's form. */
static int cost(const char *row, int chain, int depth)
{
	struct result warm, base, sampled;
	int err = run_once(0, 0, depth, &warm);
	if (!err)
		err = run_once(0, 0, depth, &base);
	if (!err)
		err = run_once(PERIOD, chain, depth, &sampled);
	if (err) {
		printf("peer: cost row=%s failed: perf_event_open/mmap of %s: %s\n", row, event_name,
		       strerror(-err));
		return 1;
	}
	uint64_t taken = sampled.samples + sampled.lost;
	uint64_t extra = sampled.ns > base.ns ? sampled.ns - base.ns : 0;
	printf("peer: cost row=%s depth=%d chain=%d samples=%lu user=%lu lost=%lu throttled=%lu "
	       "frames_per_sample=%lu base=%lu sampled=%lu counted=%lu per_sample=%lu\n", row, depth,
	       chain, (unsigned long)sampled.samples, (unsigned long)sampled.user,
	       (unsigned long)sampled.lost,
	       (unsigned long)sampled.throttled,
	       (unsigned long)(sampled.samples ? sampled.frames / sampled.samples : 0),
	       (unsigned long)base.ns, (unsigned long)sampled.ns, (unsigned long)base.counted,
	       (unsigned long)(taken ? extra / taken : 0));
	return taken == 0;
}

static int runs_from_cmdline(void)
{
	char buf[1024] = "";
	int fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		ssize_t n = read(fd, buf, sizeof buf - 1);
		buf[n > 0 ? n : 0] = 0;
		close(fd);
	}
	const char *p = strstr(buf, "peer.runs=");
	int runs = p ? atoi(p + 10) : 1;
	return runs > 0 && runs <= 20 ? runs : 1;
}

int main(void)
{
	setup_console();
	mkdir("/proc", 0755);
	mount("proc", "/proc", "proc", 0, NULL);
	struct utsname u;
	uname(&u);
	printf("peer: linux %s %s\n", u.release, u.machine);
	mkdir("/sys", 0755);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	print_file("pmu", "/sys/bus/event_source/devices/cpu/caps/pmu_name");
	print_file("meltdown", "/sys/devices/system/cpu/vulnerabilities/meltdown");
	print_file("spectre_v1", "/sys/devices/system/cpu/vulnerabilities/spectre_v1");
	print_file("cmdline", "/proc/cmdline");
	setup_perf_sysctls();
	int failures = 0, runs = runs_from_cmdline();
	for (int i = 0; i < runs; i++) {
		failures += cost("plain", 0, 0);
		failures += cost("chain1", 1, 0);
		failures += cost("chain16", 16, DEEP);
	}
	printf("peer: done, %d failures\n", failures);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}

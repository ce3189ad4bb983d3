/* /init of the peer bench's initramfs (tools/peer-bench/run): Linux perf's cost per sample,
 * measured the way KOV's `kmcheck cost` measures its own, on the same emulated machine.
 *
 * A fixed loop of 20,000,000 user instructions (dependent adds, as in KOV's ipcbench) runs
 * with a hardware instructions counter that only counts (the base), then with the same
 * counter sampling every 20,000 instructions. Under QEMU's -icount shift=0 one instruction
 * is one nanosecond of virtual time, so the run's extra virtual time divided by the samples
 * taken is the instructions a sample costs: the interrupt, perf's handler, the ring write and
 * the call-chain walk. The loop runs 0 or 15 calls deep so that 16 user frames exist.
 * A last row (cost_e2e) is end to end: the plain samples drained by a reader process as
 * `perf record` drains them and sent over TCP out of the machine.
 *
 * Prints "peer: ..." lines on the console and powers the machine off. No arguments: the
 * kernel command line's "peer.runs=N" (repetitions of the first rows, default 1) and
 * "peer.port=N" (the host's receiver, at 10.0.2.2) are read from /proc/cmdline. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <linux/reboot.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
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
__attribute__((noinline)) static long add_loop(long x, long instructions)
{
	long passes = instructions / 8;
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
__attribute__((noinline)) static long at_depth(long x, int depth, long instructions)
{
	if (depth == 0)
		return add_loop(x, instructions);
	long r = at_depth(x, depth - 1, instructions);
	__asm__ volatile("" : "+r"(r));
	return r + 1;
}

/* The hardware instructions counter, user mode only, disabled until the loop; sampling
 * (period > 0) records what KOV's samples hold: pc, pid/tid, time, CPU and period. */
static int open_counter(long period, int chain, uint32_t wakeup_bytes)
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
		a.wakeup_events = 0;   /* wake-ups by bytes, not by records */
		a.watermark = 1;
		a.wakeup_watermark = wakeup_bytes;
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

/* One run of the loop (INSTRUCTIONS long) at DEPTH calls, counted (period 0) or sampled. */
static int run_once_n(long period, int chain, int depth, long instructions, struct result *r)
{
	memset(r, 0, sizeof *r);
	/* No wake-ups: nobody polls; the ring is read at the end. */
	int fd = open_counter(period, chain, (uint32_t)RING_BYTES);
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
	long x = at_depth(1, depth, instructions);
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

static int run_once(long period, int chain, int depth, struct result *r)
{
	return run_once_n(period, chain, depth, LOOP_INSTRUCTIONS, r);
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

/* --- End to end: the samples leave the machine ------------------------------------------
 * The plain row's sampling while a reader process drains the ring as `perf record` does and
 * sends the records out of the machine: a 512 KiB ring (perf record's default for root) and a
 * wake-up when half of it is written (perf record leaves the watermark at the kernel's
 * default, half the ring); the reader polls the event's fd, writes the records between
 * data_tail and data_head out as they are (perf record's write() from the ring: the copy out
 * of the ring is the kernel's, into the socket), then advances data_tail. The records go over
 * TCP to the host (10.0.2.2 through QEMU's user network, the "peer.port=N" of the command
 * line) by the pseries machine's virtual Ethernet (spapr-vlan, driven by ibmveth, a module in
 * Debian's kernel package: run puts it in the initramfs as /ibmveth.ko); without it, to
 * /dev/null, said so. One CPU: the reader runs when the loop is interrupted, as KOV's daemon
 * does. The loop is 20 times longer than the other rows' so that the ring wakes the reader
 * several times; the time counted ends when the reader has sent the last record (the loop
 * process signals it after the loop and waits for its answer). */
#define E2E_INSTRUCTIONS (20 * LOOP_INSTRUCTIONS)
#define E2E_RING_BYTES (512L << 10)

struct sink {
	int fd;
	int tcp;                /* a TCP socket: wait until the kernel has sent all of it */
	char what[160];         /* for the console: where the records go, and why there */
};

static const char *cmdline_value(const char *key)
{
	static char buf[1024];
	if (!buf[0]) {
		int fd = open("/proc/cmdline", O_RDONLY);
		if (fd >= 0) {
			ssize_t n = read(fd, buf, sizeof buf - 1);
			buf[n > 0 ? n : 0] = 0;
			close(fd);
		}
	}
	const char *p = strstr(buf, key);
	return p ? p + strlen(key) : NULL;
}

/* Loads the virtual Ethernet's driver, gives the first interface that is not the loopback
 * 10.0.2.15/24 (QEMU's user network) and brings it up: what ifconfig does, by ioctl. */
static int net_up(char *why, size_t len, char *ifname)
{
	int m = open("/ibmveth.ko", O_RDONLY);
	if (m < 0) {
		snprintf(why, len, "no /ibmveth.ko in the initramfs (Debian's kernel drives no emulated NIC built in)");
		return -1;
	}
	long err = syscall(SYS_finit_module, m, "", 0);
	close(m);
	if (err && errno != EEXIST) {
		snprintf(why, len, "finit_module(ibmveth.ko): %s", strerror(errno));
		return -1;
	}
	struct if_nameindex *ifs = if_nameindex();
	ifname[0] = 0;
	for (struct if_nameindex *i = ifs; i && i->if_index; i++)
		if (strcmp(i->if_name, "lo")) {
			snprintf(ifname, IF_NAMESIZE, "%s", i->if_name);
			break;
		}
	if (ifs)
		if_freenameindex(ifs);
	if (!ifname[0]) {
		snprintf(why, len, "ibmveth loaded but no network interface appeared (no spapr-vlan device?)");
		return -1;
	}
	int s = socket(AF_INET, SOCK_DGRAM, 0);
	struct ifreq r;
	memset(&r, 0, sizeof r);
	snprintf(r.ifr_name, sizeof r.ifr_name, "%s", ifname);
	struct sockaddr_in *a = (struct sockaddr_in *)&r.ifr_addr;
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = inet_addr("10.0.2.15");
	int bad = ioctl(s, SIOCSIFADDR, &r);
	a->sin_addr.s_addr = inet_addr("255.255.255.0");
	bad = bad || ioctl(s, SIOCSIFNETMASK, &r);
	bad = bad || ioctl(s, SIOCGIFFLAGS, &r);
	r.ifr_flags |= IFF_UP | IFF_RUNNING;
	bad = bad || ioctl(s, SIOCSIFFLAGS, &r);
	if (bad)
		snprintf(why, len, "configuring %s: %s", ifname, strerror(errno));
	close(s);
	return bad ? -1 : 0;
}

/* The records' way out: TCP to the host's receiver, else /dev/null. */
static void open_sink(struct sink *k)
{
	char why[120] = "", ifname[IF_NAMESIZE] = "";
	const char *port = cmdline_value("peer.port=");
	k->tcp = 0;
	if (!port || atoi(port) <= 0) {
		snprintf(why, sizeof why, "no peer.port=N on the command line");
	} else if (net_up(why, sizeof why, ifname) == 0) {
		int s = socket(AF_INET, SOCK_STREAM, 0);
		struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };
		to.sin_addr.s_addr = inet_addr("10.0.2.2");
		if (connect(s, (struct sockaddr *)&to, sizeof to) == 0) {
			k->fd = s;
			k->tcp = 1;
			snprintf(k->what, sizeof k->what, "tcp 10.0.2.15 -> 10.0.2.2:%d, %s (ibmveth, spapr-vlan)",
				 atoi(port), ifname);
			return;
		}
		snprintf(why, sizeof why, "connect to 10.0.2.2:%d: %s", atoi(port), strerror(errno));
		close(s);
	}
	k->fd = open("/dev/null", O_WRONLY);
	snprintf(k->what, sizeof k->what, "/dev/null (fallback: %s)", why);
}

struct e2e_result {
	uint64_t samples, lost, throttled, bytes, wakeups, unsent, err;
	uint64_t flushed;   /* samples drained after the loop ended */
};

static int write_all(int fd, const unsigned char *p, uint64_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (uint64_t)w;
	}
	return 0;
}

/* perf record's push: what is between data_tail and data_head, written out in one or two
 * pieces (the ring wraps), then data_tail advanced. The records' headers are walked to count
 * the samples delivered. */
static void drain(struct perf_event_mmap_page *meta, int out, struct e2e_result *r)
{
	unsigned char *data = (unsigned char *)meta + meta->data_offset;
	uint64_t size = meta->data_size;
	uint64_t head = __atomic_load_n(&meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = meta->data_tail;
	if (head == tail)
		return;
	for (uint64_t t = tail; t < head;) {
		struct perf_event_header h;
		for (size_t i = 0; i < sizeof h; i++)
			((unsigned char *)&h)[i] = data[(t + i) % size];
		if (h.size < sizeof h)
			break;
		if (h.type == PERF_RECORD_SAMPLE) {
			r->samples++;
		} else if (h.type == PERF_RECORD_LOST) {
			uint64_t lost = 0;
			for (size_t i = 0; i < 8; i++)
				((unsigned char *)&lost)[i] = data[(t + 16 + i) % size];
			r->lost += lost;
		} else if (h.type == PERF_RECORD_THROTTLE) {
			r->throttled++;
		}
		t += h.size;
	}
	uint64_t from = tail % size, n = head - tail;
	uint64_t first = n < size - from ? n : size - from;
	if (write_all(out, data + from, first) || write_all(out, data, n - first))
		r->err++;
	r->bytes += n;
	__atomic_store_n(&meta->data_tail, head, __ATOMIC_RELEASE);
}

/* The reader process: maps the ring, says so, then drains at each wake-up until the loop
 * process asks for the rest (a byte on `go`); answers with its counts on `done`. */
static void reader(int fd, int go, int done, const struct sink *k)
{
	long page = sysconf(_SC_PAGESIZE);
	struct e2e_result r;
	memset(&r, 0, sizeof r);
	void *ring = mmap(NULL, (size_t)(page + E2E_RING_BYTES), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	char ok = ring != MAP_FAILED;
	if (write(done, &ok, 1) != 1 || !ok)
		_exit(1);
	for (;;) {
		struct pollfd p[2] = { { fd, POLLIN, 0 }, { go, POLLIN, 0 } };
		if (poll(p, 2, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents & POLLIN)
			r.wakeups++;
		uint64_t before = r.samples;
		drain(ring, k->fd, &r);
		if (p[1].revents) {   /* the loop has ended: what is left, then done */
			drain(ring, k->fd, &r);
			r.flushed = r.samples - before;
			break;
		}
	}
	/* Sent means handed to the NIC: the socket's not-yet-sent bytes go to 0 (bounded). */
	int unsent = 0;
	for (long i = 0; k->tcp && i < 100000; i++) {
		if (ioctl(k->fd, SIOCOUTQNSD, &unsent) || unsent == 0)
			break;
		sched_yield();
	}
	r.unsent = (uint64_t)unsent;
	if (write(done, &r, sizeof r) != sizeof r)
		_exit(1);
	_exit(0);
}

static int cost_e2e(void)
{
	struct sink k;
	open_sink(&k);
	printf("peer: e2e sink %s\n", k.what);
	struct result warm, base;
	int err = run_once_n(0, 0, 0, E2E_INSTRUCTIONS, &warm);
	if (!err)
		err = run_once_n(0, 0, 0, E2E_INSTRUCTIONS, &base);
	int fd = err ? -1 : open_counter(PERIOD, 0, (uint32_t)(E2E_RING_BYTES / 2));
	int go[2], done[2];
	if (!err && (fd < 0 || pipe(go) || pipe(done)))
		err = -errno;
	if (err) {
		printf("peer: cost row=e2e failed: perf_event_open/pipe of %s: %s\n", event_name, strerror(-err));
		return 1;
	}
	pid_t pid = fork();
	if (pid == 0) {
		close(go[1]);
		close(done[0]);
		reader(fd, go[0], done[1], &k);
	}
	char ok = 0;
	struct e2e_result r;
	memset(&r, 0, sizeof r);
	if (pid < 0 || read(done[0], &ok, 1) != 1 || !ok) {
		printf("peer: cost row=e2e failed: the reader could not map the ring\n");
		return 1;
	}
	ioctl(fd, PERF_EVENT_IOC_RESET, 0);
	uint64_t t0 = now_ns();
	ioctl(fd, PERF_EVENT_IOC_ENABLE, 0);
	long x = at_depth(1, 0, E2E_INSTRUCTIONS);
	ioctl(fd, PERF_EVENT_IOC_DISABLE, 0);
	uint64_t t1 = now_ns();
	if (write(go[1], "", 1) != 1 || read(done[0], &r, sizeof r) != sizeof r)
		r.err++;
	uint64_t t2 = now_ns(), ns = t2 - t0;
	__asm__ volatile("" : : "r"(x));
	waitpid(pid, NULL, 0);
	uint64_t counted = 0;
	if (read(fd, &counted, sizeof counted) != sizeof counted)
		counted = 0;
	close(fd);
	close(go[0]);
	close(go[1]);
	close(done[0]);
	close(done[1]);
	close(k.fd);   /* the host's receiver sees the end of the stream */
	uint64_t taken = r.samples + r.lost, extra = ns > base.ns ? ns - base.ns : 0;
	printf("peer: cost row=e2e depth=0 chain=0 samples=%lu user=- lost=%lu throttled=%lu "
	       "frames_per_sample=0 base=%lu sampled=%lu counted=%lu per_sample=%lu bytes=%lu "
	       "bytes_per_sample=%lu.%lu wakeups=%lu unsent=%lu write_errors=%lu tcp=%d "
	       "flushed=%lu flush_ns=%lu\n",
	       (unsigned long)r.samples, (unsigned long)r.lost, (unsigned long)r.throttled,
	       (unsigned long)base.ns, (unsigned long)ns, (unsigned long)base.counted,
	       (unsigned long)(taken ? extra / taken : 0), (unsigned long)r.bytes,
	       (unsigned long)(r.samples ? r.bytes / r.samples : 0),
	       (unsigned long)(r.samples ? r.bytes * 10 / r.samples % 10 : 0),
	       (unsigned long)r.wakeups, (unsigned long)r.unsent, (unsigned long)r.err, k.tcp,
	       (unsigned long)r.flushed, (unsigned long)(t2 - t1));
	return taken == 0;
}

static int runs_from_cmdline(void)
{
	const char *p = cmdline_value("peer.runs=");
	int runs = p ? atoi(p) : 1;
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
	failures += cost_e2e();
	printf("peer: done, %d failures\n", failures);
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}

/* Known call paths for the call-chain tests (tests/qemu/chains.sh). Three phases, in turn:
 *  - user: main -> chain_a -> chain_b -> chain_c -> the ChainBench object's method `spin` (a
 *    compute loop), so user samples end in the method with the object on its frame;
 *  - system call: main -> chain_a -> chain_b -> chain_read -> file_read (the FILE_READ system
 *    call copying this program's file from the RAM disk). System calls run with interrupts
 *    on, so counter samples land in the kernel's path, across the system-call boundary;
 *  - page faults: main -> chain_a -> chain_b -> chain_touch, touching fresh heap pages (48 MiB
 *    over about 15 s, then no more): the kernel serves each fault with interrupts on, so counter
 *    samples land in its path (storage_fault under exception_dispatch, the objects Region,
 *    FCM, PM), and their chains go on across the interrupt boundary into the user frames
 *    chain_touch <- chain_b <- chain_a <- main.
 * Usage: chainbench [rounds (0 = forever)] [loop iterations per spin (2000000)] */
#include "workload.h"
#include <socket.h>

struct spinner;
struct spinner_ops { long (*spin)(struct spinner *s, long n); };
struct spinner { const struct spinner_ops *ops; volatile long acc; };

CO_METHOD(long, spinner_spin, struct spinner *s, long n)
{
	long a = s->acc;
	for (long i = 0; i < n; i++)
		a = a * 31 + i;
	s->acc = a;
	return a;
}

static const struct spinner_ops ops = { spinner_spin };
static const struct co_class spinner_class = { "ChainBench", &ops, 1, 0 };
static struct spinner the_spinner = { &ops, 1 };
static coid_t spinner;
static long work = 2000000;
static char buf[65536];
static volatile long sink;

/* Not inlined and not tail calls (the empty asm after each call): every function keeps its
 * own frame, so the chain is exactly main, chain_a, chain_b, then chain_c or chain_read. */
#define KEEP_FRAME() __asm__ volatile("" ::: "memory")

__attribute__((noinline)) static long chain_c(long n)
{
	long r = CO_CALL(struct spinner, spinner, spin, n);
	KEEP_FRAME();
	return r + 1;
}

__attribute__((noinline)) static long chain_read(long n)
{
	long total = 0;
	for (long i = 0; i < n / 20000 + 1; i++) {
		long got = file_read("chainbench", 0, buf, sizeof buf);
		KEEP_FRAME();
		total += got > 0 ? got : 0;
	}
	return total;
}

/* Touches fresh memory, a page at a time: each first touch is a page fault that the kernel
 * serves with interrupts on (Region, FCM and PM), so counter samples land in that path. A
 * process's heap is 64 MiB: the heap grows by at most TOUCH_TOTAL, a chunk per TOUCH_EVERY_NS,
 * so faults go on for about 15 s, long enough for a test's recording to see them (1 MiB a round
 * up to 160 MiB ran out of heap within seconds, and chainbench died on sbrk's -ENOMEM, taken for
 * an address, in the middle of chains.sh's recording). */
#define TOUCH_CHUNK (128l << 10)
#define TOUCH_TOTAL (48l << 20)
#define TOUCH_EVERY_NS 40000000ull
static long touched;
static uint64_t last_touch_ns;

__attribute__((noinline)) static long chain_touch(long n)
{
	uint64_t now = clock_ns();
	if (touched >= TOUCH_TOTAL || now - last_touch_ns < TOUCH_EVERY_NS)
		return n;
	last_touch_ns = now;
	volatile char *p = sbrk(TOUCH_CHUNK);
	if ((long)p < 0 || !p) {
		printf("chainbench: sbrk(%ld) failed (%ld) after %ld bytes\n", TOUCH_CHUNK, (long)p, touched);
		touched = TOUCH_TOTAL;
		return n;
	}
	for (long i = 0; i < TOUCH_CHUNK; i += 4096)
		p[i] = 1;
	touched += TOUCH_CHUNK;
	KEEP_FRAME();
	return n + 1;
}

__attribute__((noinline)) static long chain_b(long n, int phase)
{
	long r = phase == 2 ? chain_touch(n) : phase ? chain_read(n) : chain_c(n);
	KEEP_FRAME();
	return r + 1;
}

__attribute__((noinline)) static long chain_a(long n, int phase)
{
	long r = chain_b(n, phase);
	KEEP_FRAME();
	return r + 1;
}

int main(int argc, char **argv)
{
	long rounds = wl_number(argc > 1 ? argv[1] : 0, 0);
	work = wl_number(argc > 2 ? argv[2] : 0, 2000000);
	spinner = wl_static_object(&spinner_class, &the_spinner);
	if (!spinner) {
		printf("chainbench: cannot create the object\n");
		return 1;
	}
	printf("chainbench: pid %d object rep=0x%lx index=%u\n", getpid(),
	       (unsigned long)co_rep(spinner), co_index(spinner));
	for (long r = 0; rounds == 0 || r < rounds; r++) {
		sink += chain_a(work, 0);
		sink += chain_a(work, 1);
		sink += chain_a(work, 2);
		/* A pause each round: the program's scanner thread answers the daemon's scans in
		 * time, so the daemon knows the ChainBench object its samples name. */
		struct pollfd none = { -1, 0, 0 };   /* ignored: the wait is a sleep */
		poll(&none, 1, 2);
	}
	return 0;
}

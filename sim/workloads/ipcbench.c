/* A dependent add chain inside an object's method: each add needs the previous result, so the
 * processor completes one per cycle at best. Under sim/run --icount QEMU advances its cycle
 * count with the instruction count, so the monitor must report an IPC of 1.
 * With a depth D the chain runs D calls below the method (the monitor's stack walk then crosses
 * D + 1 frames to find the object: the sampling-cost benchmark uses 15).
 * Usage: ipcbench [instructions in thousands (10000)] [rounds (1; 0 = forever)] [depth (0)] */
#include "workload.h"

struct chain;
struct chain_ops { long (*run)(struct chain *c, long thousands); };
struct chain { const struct chain_ops *ops; long result; };

/* noinline and not a tail call, so each level keeps a frame. */
__attribute__((noinline)) static long add_chain(long x, long thousands, long depth)
{
	if (depth > 0) {
		long r = add_chain(x, thousands, depth - 1);
		__asm__ volatile("" : "+r"(r));
		return r + 1;
	}
	for (long i = 0; i < thousands; i++) {
		/* 1000 instructions: 125 passes of 7 dependent adds and a branch. */
		__asm__ volatile(WL_ADDS_1000
			: "+r"(x) : : "r0", "ctr");
	}
	return x;
}

static long depth;

CO_METHOD(long, chain_run, struct chain *c, long thousands)
{
	c->result = add_chain(c->result, thousands, depth);
	return c->result;
}

static const struct chain_ops ops = { chain_run };
static const struct co_class chain_class = { "AddChain", &ops, 1, 0 };
static struct chain the_chain = { &ops, 1 };

int main(int argc, char **argv)
{
	long thousands = wl_number(argc > 1 ? argv[1] : 0, 10000);
	long rounds = wl_number(argc > 2 ? argv[2] : 0, 1);
	depth = wl_number(argc > 3 ? argv[3] : 0, 0);
	coid_t chain = wl_static_object(&chain_class, &the_chain);
	if (!chain) {
		printf("ipcbench: cannot create the object\n");
		return 1;
	}
	printf("ipcbench: pid %d object rep=0x%lx index=%u instructions=%ld000\n", getpid(),
	       (unsigned long)co_rep(chain), co_index(chain), thousands);
	for (long r = 0; rounds == 0 || r < rounds; r++) {
		uint64_t t0 = clock_ns();
		CO_CALL(struct chain, chain, run, thousands);
		if (rounds)
			printf("ipcbench: round %ld done in %lu ns\n", r + 1,
			       (unsigned long)(clock_ns() - t0));
	}
	return 0;
}

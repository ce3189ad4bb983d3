/* A loop that beats against a sampling period (issue 12): two objects of one class take turns,
 * A running its method's inner loop `a` times, then B `b` times, round after round. The inner
 * loop is 8 instructions (7 adds and a bdnz) and is a translation block of its own under QEMU
 * TCG, whose instruction counter advances only at block ends: sample points are placed to
 * within 8 instructions, and a round is 8(a + b) instructions plus two calls. With a sampling
 * period that is a multiple of the round the samples land at the same point of it every time
 * unless the period is randomized; randomized, A's share of the samples is about a / (a + b).
 * Usage: beatbench [a (1500)] [b (500)] [rounds (12000)] */
#include "workload.h"

struct phase;
struct phase_ops { long (*run)(struct phase *p, long n); };
struct phase { const struct phase_ops *ops; long done; };

CO_METHOD(long, phase_run, struct phase *p, long n)
{
	long x = 0;
	__asm__ volatile("mtctr %1\n"
			 "1: addi %0,%0,1\n addi %0,%0,1\n addi %0,%0,1\n addi %0,%0,1\n"
			 " addi %0,%0,1\n addi %0,%0,1\n addi %0,%0,1\n bdnz 1b"
			 : "+r"(x) : "r"(n) : "ctr");
	p->done += n;
	return x;
}

static const struct phase_ops ops = { phase_run };
static const struct co_class phase_class = { "BeatPhase", &ops, 1, 0 };
static struct phase rep_a = { &ops, 0 }, rep_b = { &ops, 0 };

int main(int argc, char **argv)
{
	long a = wl_number(argc > 1 ? argv[1] : 0, 1500);
	long b = wl_number(argc > 2 ? argv[2] : 0, 500);
	long rounds = wl_number(argc > 3 ? argv[3] : 0, 12000);
	if (a < 1 || b < 1) {
		printf("beatbench: a and b must be at least 1\n");
		return 2;
	}
	coid_t oa = wl_static_object(&phase_class, &rep_a), ob = wl_static_object(&phase_class, &rep_b);
	if (!oa || !ob) {
		printf("beatbench: cannot create the objects\n");
		return 1;
	}
	printf("beatbench: pid %d A rep=0x%lx B rep=0x%lx a=%ld b=%ld rounds=%ld\n", getpid(),
	       (unsigned long)co_rep(oa), (unsigned long)co_rep(ob), a, b, rounds);
	for (long r = 0; r < rounds; r++) {
		CO_CALL(struct phase, oa, run, a);
		CO_CALL(struct phase, ob, run, b);
	}
	return 0;
}

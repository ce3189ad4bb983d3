/* A method whose stack's back chain leads past the top of the stack, to user addresses no
 * region maps: the monitor's stack walk must read there with its fault-safe user loads and end
 * the walk (TRUNCATED) instead of faulting in the interrupt. The method points r1 at a made
 * frame on main's stack whose back chain is 64 KiB past the stack's top, runs a loop that uses
 * no stack, and puts r1 back. (Past the heap's break would not do: reads there are served.)
 * Usage: badframe [instructions in thousands (2000)] */
#include "workload.h"

#define PAST_TOP 0xF0010000ull   /* the back chain: 64 KiB above the stack region (exec.c) */

struct spinner;
struct spinner_ops { long (*run)(struct spinner *s, long thousands); };
struct spinner { const struct spinner_ops *ops; uint64_t *frame; };

/* The loop runs with r1 at frame; nothing in it may touch the stack. The call before it gives
 * the method a frame of its own, so a sample's walk reads the made frame's back chain. */
CO_METHOD(long, spinner_run, struct spinner *s, long thousands)
{
	long x = getpid();
	__asm__ volatile(
		"	mr	11, 1\n"
		"	mr	1, %2\n"
		"2:\n"
		WL_ADDS_1000
		"	addic.	%1, %1, -1\n"
		"	bgt	2b\n"
		"	mr	1, 11\n"
		: "+r"(x), "+r"(thousands) : "r"(s->frame) : "r0", "r11", "ctr", "cr0", "memory");
	return x;
}

static const struct spinner_ops ops = { spinner_run };
static const struct co_class spinner_class = { "BadFrame", &ops, 1, 0 };
static struct spinner the_spinner = { &ops, 0 };

int main(int argc, char **argv)
{
	long thousands = wl_number(argc > 1 ? argv[1] : 0, 2000);
	uint64_t area[80];
	uint64_t *frame = (uint64_t *)(((uintptr_t)area + 15) & ~(uintptr_t)15);
	memset(frame, 0, 64 * sizeof *frame);
	frame[0] = PAST_TOP;   /* back chain: unmapped */
	the_spinner.frame = frame;
	coid_t s = wl_static_object(&spinner_class, &the_spinner);
	if (!s) {
		printf("badframe: cannot create the object\n");
		return 1;
	}
	printf("badframe: pid %d frame=0x%lx back chain=0x%lx\n", getpid(),
	       (unsigned long)(uintptr_t)frame, (unsigned long)frame[0]);
	CO_CALL(struct spinner, s, run, thousands);
	printf("badframe: done\n");
	return 0;
}

/* Per-phase frame times (viewer/phase.h). */
#include <string.h>
#include <time.h>
#include "viewer/phase.h"
#include "client/client.h"

const char *const phase_name[PHASES] = {
	"poll", "tree_build", "bar", "object_tree", "panes", "top", "selected", "overlay", "present",
};

uint64_t bench_thread_cpu_ns(void)
{
	struct timespec ts;
	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void phase_begin(struct phase_clock *c)
{
	memset(c->ms, 0, sizeof c->ms);
	memset(c->cpu_ms, 0, sizeof c->cpu_ms);
	c->last = kov_now_ns();
	c->last_cpu = bench_thread_cpu_ns();
}

void phase_mark(struct phase_clock *c, enum phase p)
{
	uint64_t now = kov_now_ns(), cpu = bench_thread_cpu_ns();
	c->ms[p] += (double)(now - c->last) / 1e6;
	c->cpu_ms[p] += (double)(cpu - c->last_cpu) / 1e6;
	c->last = now;
	c->last_cpu = cpu;
}

/* The monitor's bound on its own cost, the way perf bounds its interrupt time
 * (perf_cpu_time_max_percent): every window the monitor measures what sampling cost, and when
 * that passes a limit it multiplies every sampling period by a factor (a power of two) large
 * enough to bring the cost back under three quarters of the limit; when the cost stays low for
 * a few windows it halves the factor, back to 1, the periods asked for.
 *
 * What a window's cost is: the larger of
 *   - the busiest CPU's overflow-handler time over its own time (no CPU gives the limit to
 *     interrupts), and
 *   - all of the monitor's time (handlers, the drains of the rings, and the daemon's work on
 *     the samples it drained) over the machine's time (CPUs x window, or the one host
 *     thread's window where the CPUs take turns on it): the daemon is one thread, and what
 *     it costs is a share of the machine, wherever it runs.
 *
 * Costs and limits are in basis points (1/100 of a percent). Portable: the kernel decides with
 * it at its ticks, and the host's unit tests drive it with synthetic windows. */
#ifndef KOV_THROTTLE_H
#define KOV_THROTTLE_H

#include <stdbool.h>
#include <stdint.h>

/* The default limit, 10% of the CPUs' time. The thesis measured its monitor at 5.2-7.45% in
 * all (PMU 1.0-3.0%, data traffic and scans 2.1-2.3%, table 4.1): its configurations run
 * unthrottled under this limit, with room. perf's default (25%) bounds interrupt time alone
 * and is a last resort against interrupt storms; KOV's limit covers the whole pipeline and is
 * the budget a user leaves to monitoring. */
#define THROTTLE_DEFAULT_LIMIT_BP 1000u
#define THROTTLE_MAX_LIMIT_BP 10000u      /* 100%: past it the limit means nothing */
#define THROTTLE_MAX_FACTOR 4096u         /* periods at most 4096 times what was asked */
#define THROTTLE_CALM_WINDOWS 3           /* windows under the calm level before halving */
#define THROTTLE_MAX_CALM_WINDOWS 96      /* ... at most, after halvings that did not hold */

struct throttle {
	uint32_t limit_bp;                /* 0: throttling off (the factor stays 1) */
	uint32_t factor;                  /* periods are multiplied by this; a power of two */
	uint32_t calm;                    /* consecutive windows under the calm level */
	uint32_t calm_needed;             /* before the next halving: doubled each time a halving
	                                     had to be undone within as many windows, halved
	                                     (down to THROTTLE_CALM_WINDOWS) when one holds */
	uint32_t since_halving;           /* windows since the last halving (0: none pending) */
	uint32_t last_cost_bp;            /* the last window's cost */
};

/* One window's measurements. */
struct throttle_window {
	uint64_t ticks;                   /* a CPU's own time in the window (timebase): the
	                                     window's length where each CPU has a core or host
	                                     thread of its own */
	uint64_t machine_ticks;           /* the machine's time in the window: CPUs x ticks there;
	                                     the one host thread's window where the CPUs take
	                                     turns on it */
	uint64_t handler_max;             /* the busiest CPU's handler time in the window */
	uint64_t total;                   /* handler, drain and daemon time, all CPUs */
};

/* One CPU's figures over a window (timebase): time in the overflow handler, the rest of
 * monitoring's time charged on it (the daemon's drains), and time it spent idle. */
struct throttle_cpu {
	uint64_t handler, other, idle;
};

/* The window of `ticks` from n CPUs' figures. `turns`: whether the CPUs take turns on one host
 * thread (QEMU's round robin), where the timebase runs on through the other CPUs' turns: with k
 * of them busy on average, a busy CPU runs for ticks / k of its own, the machine has the host
 * thread's ticks in all, and a thread's span of CPU time (the daemon's) holds k times its
 * own. A CPU that ran alone had the whole window. */
void throttle_window_of(struct throttle_window *w, uint64_t ticks, const struct throttle_cpu *cpus,
	unsigned n, bool turns);

void throttle_init(struct throttle *t, uint32_t limit_bp);

/* The window's cost in basis points (capped at 1,000,000, i.e. 100 times the machine). */
uint32_t throttle_cost_bp(const struct throttle_window *w);

/* Decides after a window: returns the new factor (also left in t->factor) and records the
 * window's cost in t->last_cost_bp. With the limit off the factor returns to 1. */
uint32_t throttle_decide(struct throttle *t, const struct throttle_window *w);

/* threshold x factor, saturated at 2^63: a period the sampler can draw from. */
static inline uint64_t throttle_period(uint64_t threshold, uint32_t factor)
{
	if (factor <= 1)
		return threshold;
	return threshold > (1ull << 63) / factor ? 1ull << 63 : threshold * factor;
}

#endif

/* The monitor's state, and what it does every turn of the daemon's loop: drain the samples,
 * and at the end of each report interval send what the interval counted (monitor.h). */
#include "monitor.h"
#include "subscribers.h"

struct monitor_state monitor;
uint8_t monitor_out[PROTO_MAX_FRAME];

void monitor_poll(uint64_t now)
{
	if (!monitor.streams)
		return;
	throttle_mark();
	subscribers_hold(true);
	samples_drain();
	subscribers_hold(false);
	throttle_poll();
	if (now < monitor.next_interval_ns)
		return;
	uint64_t tb = timebase_now();
	counts_push();
	if (monitor.streams & PROTO_STREAM_LOCKS)
		locks_push(monitor.interval_tb, tb);
	if (monitor.streams & PROTO_STREAM_INVOCATIONS)
		invocations_push(tb);
	lost_push(monitor.interval_tb, tb);
	monitor.interval_tb = tb;
	monitor.next_interval_ns = now + (uint64_t)monitor.interval_us * 1000;
}

int monitor_wait_ms(void)
{
	if (!monitor.streams)
		return -1;
	return monitor.backlog ? 0 : 20;   /* more samples waiting: come straight back */
}

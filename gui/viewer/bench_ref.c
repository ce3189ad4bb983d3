/* --bench's reference work (viewer.h's bench_reference_ms): the same fixed computation after
 * every frame, timed in the drawing thread's CPU time like the frames. On a shared host a
 * thread's CPU time is not only its own work: beside a test suite on this 2-core host the
 * same work took up to 11x its median, and a frame that is slow when the reference is too
 * was slowed by the host, not by what it drew (callgrind counts the same instructions in every
 * frame but the first). */
#include <stdint.h>
#include "viewer/viewer.h"

enum { REF_PIXELS = 1 << 16, REF_PASSES = 4 };

static uint32_t px[REF_PIXELS];
static volatile uint32_t sink;             /* so that the work is not optimized away */

double bench_reference_ms(void)
{
	uint64_t c0 = bench_thread_cpu_ns();
	/* Blending passes over a 256 KB image, as drawing does: memory and arithmetic. */
	uint32_t x = 1;
	for (int pass = 0; pass < REF_PASSES; pass++)
		for (int i = 0; i < REF_PIXELS; i++) {
			x = x * 1103515245u + 12345u;
			uint32_t d = px[i], a = x >> 24, keep = 255 - a;
			px[i] = (a + (d >> 24) * keep / 255) << 24 | ((x >> 8) & 255) * a / 255 << 16 |
				(((d >> 8) & 255) * keep / 255) << 8 | ((d & 255) * keep / 255);
		}
	sink = px[x % REF_PIXELS];
	return (double)(bench_thread_cpu_ns() - c0) / 1e6;
}

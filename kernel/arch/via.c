/* VIA access and bounded waits shared by the CUDA and PMU99 drivers. The waits count timebase
 * ticks, not loop turns: QEMU answers some handshakes only after virtual time passes (CUDA's
 * shift-register interrupt comes tens of microseconds late). */
#include "via.h"
#include "cpu.h"
#include "platform.h"

uint8_t real_ci_read8(uint64_t phys);
void real_ci_write8(uint64_t phys, uint8_t value);

uint64_t via_base;

uint8_t via_read(enum via_reg reg)
{
	return real_ci_read8(via_base + ((uint64_t)reg << 9));
}

void via_write(enum via_reg reg, uint8_t v)
{
	real_ci_write8(via_base + ((uint64_t)reg << 9), v);
}

static uint64_t deadline(unsigned timeout_us)
{
	uint64_t hz = machine.tb_freq ? machine.tb_freq : 33333333;
	return mftb() + hz / 1000000 * timeout_us + 1;
}

bool via_wait_b(uint8_t mask, uint8_t want, unsigned timeout_us)
{
	uint64_t end = deadline(timeout_us);
	while ((via_read(VIA_B) & mask) != want)
		if ((int64_t)(mftb() - end) > 0)
			return false;
	return true;
}

bool via_wait_sr(unsigned timeout_us)
{
	uint64_t end = deadline(timeout_us);
	while (!(via_read(VIA_IFR) & VIA_IFR_SR))
		if ((int64_t)(mftb() - end) > 0)
			return false;
	return true;
}

/* The Power Mac's system controller behind the VIA (kernel/arch/via.h): power, restart and the
 * battery-backed clock. Two kinds exist: CUDA (older Macs, QEMU's plain mac99) and PMU99 (the
 * Power Mac G5, QEMU's mac99,via=pmu); platform_mac99.c picks the one the device tree names.
 * Every call polls with bounded waits and interrupts off, so it may be used at any time. */
#ifndef KOV_MAC_POWER_H
#define KOV_MAC_POWER_H

#include <stdint.h>
#include <stdbool.h>
#include "common/lib/civil_time.h"

struct mac_power {
	const char *name;                    /* "CUDA", "PMU99" */
	/* Prepares the VIA's port B for the controller's handshake. */
	void (*init)(void);
	/* Asks the controller to cut power; returns if it did not take the request. */
	void (*power_off)(void);
	/* Asks the controller to restart the machine; returns if it did not take the request. */
	void (*reboot)(void);
	/* The clock, in seconds since 1970-01-01 UTC; false if the controller did not answer. */
	bool (*rtc_read)(int64_t *unix_seconds);
};

extern const struct mac_power via_cuda, via_pmu;

/* Both clocks answer four big-endian bytes of seconds since 1904-01-01. */
static inline int64_t mac_clock_to_unix(const uint8_t be[4])
{
	uint32_t mac = (uint32_t)be[0] << 24 | (uint32_t)be[1] << 16 | (uint32_t)be[2] << 8 | be[3];
	return (int64_t)mac - MAC_EPOCH_TO_UNIX;
}

#endif

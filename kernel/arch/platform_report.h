/* What the kernel can say about the machine's platform paths: the clock it read at boot, and
 * for each path (console, interrupts, power, second CPU, DMA, ...) whether it was exercised
 * under emulation, is new on this machine, or cannot be checked here. */
#ifndef KOV_PLATFORM_REPORT_H
#define KOV_PLATFORM_REPORT_H

#include <stdint.h>
#include <stdbool.h>

/* Reads the real-time clock and prints "rtc: YYYY-MM-DD HH:MM:SS UTC (CONTROLLER)". */
void rtc_boot_read(void);

/* The clock as read at boot (seconds since 1970 UTC); false if it could not be read. */
bool rtc_boot_time(int64_t *unix_seconds);

/* The values are SYS_PLATFORM's (KM_PATH_* in kernel/abi/km_abi.h). */
enum path_state {
	PATH_EXERCISED,      /* this path ran under QEMU, in the configuration named */
	PATH_NEW,            /* exercised under QEMU, but this machine is not QEMU: first contact */
	PATH_UNEXERCISED,    /* no emulated machine has run it (or it is not implemented) */
	PATH_UNCHECKABLE,    /* runs here, but this machine cannot show whether it works */
};

struct platform_path {
	const char *name;
	enum path_state state;
	char detail[112];
};

#define PLATFORM_PATHS_MAX 12

/* Fills paths (at most PLATFORM_PATHS_MAX) for the machine in hand; returns how many. Needs
 * km_probe to have run (the events line). */
unsigned platform_paths(struct platform_path *paths);

const char *path_state_name(enum path_state s);   /* "exercised", "new", ... */

/* Prints one "platform: NAME: STATE; DETAIL" line per path. */
void platform_report(void);

/* The same for SYS_PLATFORM, into a kernel copy of struct km_platform. */
struct km_platform;
void platform_report_fill(struct km_platform *out);

#endif

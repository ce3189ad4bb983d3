/* The platform's self-report over the DCI (since 1.8; kernel/arch/platform_report.h):
 * PLATFORM_GET asks, PLATFORM answers with the clock the kernel read at boot and one record
 * per platform path saying what is known of it on the machine in hand. */
#ifndef KOV_PROTO_PLATFORM_H
#define KOV_PROTO_PLATFORM_H

#include "proto_msg.h"

#define PROTO_PLATFORM_NAME_MAX 24
#define PROTO_PLATFORM_DETAIL_MAX 160

/* A path's state; the values are the kernel's (KM_PATH_*, dci/abi_pins.c). */
enum proto_path_state {
	PROTO_PATH_EXERCISED,        /* ran under QEMU in the configuration the detail names */
	PROTO_PATH_NEW,              /* exercised under QEMU only; this machine is not QEMU's */
	PROTO_PATH_UNEXERCISED,      /* no emulated machine runs it, or it is not implemented */
	PROTO_PATH_UNCHECKABLE,      /* runs here, but this machine cannot show that it works */
	PROTO_PATH_STATES
};
const char *proto_path_state_name(unsigned state);   /* "exercised", "new on this machine", ... */

struct proto_platform_head {         /* PLATFORM (1.8) */
	uint64_t rtc_boot;           /* the clock read at boot, seconds since 1970 UTC (0: none) */
	uint8_t rtc_ok;              /* 1: rtc_boot is a reading; 0: no clock or no answer */
	uint8_t emulated;            /* 1: the machine is one of QEMU's */
	struct proto_str platform;   /* "pseries", "mac99" */
	struct proto_str power_ctl;  /* "RTAS", "PMU99", "CUDA", "none" */
};
struct proto_platform_path {         /* PLATFORM record */
	uint8_t state;               /* enum proto_path_state */
	struct proto_str name;       /* "power-off", "second CPU start", ... */
	struct proto_str detail;
};

int proto_begin_platform(struct proto_builder *b, void *buf, size_t cap, uint32_t req,
			 uint16_t flags, const struct proto_platform_head *h);
int proto_add_platform_path(struct proto_builder *b, const struct proto_platform_path *r);
int proto_decode_platform(const struct proto_frame *f, struct proto_platform_head *h,
			  struct proto_iter *it);
bool proto_next_platform_path(struct proto_iter *it, struct proto_platform_path *r);

#endif

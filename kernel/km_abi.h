/* Records the kernel hands to privileged user programs (the DCI daemon) through the KM's
 * information system calls; shared by the kernel and libc-instr. Strings are NUL-terminated
 * and cut to fit. */
#ifndef KOV_KM_ABI_H
#define KOV_KM_ABI_H

#include <stdint.h>

/* SYS_KM_INFO: the target's description (the handshake's target block). */
struct km_info {
	uint64_t timebase_hz;
	uint64_t timebase_now;
	uint64_t memory;            /* bytes of RAM */
	uint64_t uptime_ns;
	uint32_t pvr;
	uint16_t cpus;              /* online CPUs */
	uint16_t events;            /* entries in the event catalogue (SYS_KM_CATALOGUE) */
	char profile[16];           /* "smp", "g5" */
	char model[64];             /* device-tree model */
	char pmu[32];               /* PMU backend: "ppc970" */
	char build_id[64];          /* kernel build id (git describe) */
};

/* SYS_KM_CATALOGUE: one per event, in catalogue order (the index is the event number). */
#define KM_EV_COUNTS_HERE 0x01u     /* the same bits as the protocol's PROTO_EV_* */
#define KM_EV_CAN_SAMPLE 0x02u
#define KM_EV_SAMPLES_HERE 0x04u
struct km_event_info {
	uint32_t code;              /* backend encoding (software events: enum sw_event) */
	uint8_t source;             /* 0 hardware counter, 1 kernel software event */
	uint8_t flags;              /* KM_EV_* */
	uint16_t pad;
	char name[48];
	char description[128];
	char why_not[128];          /* "" when it counts and samples here */
};

/* SYS_KM_PROCESSES: one per live process. */
#define KM_PROC_RUNNING 1           /* has live threads */
#define KM_PROC_EXITED 2            /* exited, not yet waited for */
struct km_process {
	uint32_t pid, ppid;
	uint32_t threads;           /* live threads */
	uint32_t state;             /* KM_PROC_* */
	char name[32];
};

/* SYS_NETINFO: the network interface and the stack's counters. */
struct km_netinfo {
	uint32_t ipv4;              /* host byte order; 0 until configured */
	uint32_t netmask, gateway;
	uint8_t mac[6];
	uint8_t link_up;
	uint8_t dhcp;               /* address from DHCP (1) or static (0) */
	char driver[16];            /* "spapr-vlan", "sungem" */
	uint64_t rx_packets, rx_bytes, rx_dropped;
	uint64_t tx_packets, tx_bytes, tx_dropped;
	uint64_t interrupts;        /* receive interrupts taken (0 when polled) */
	uint64_t polls;             /* receive polls that found work without an interrupt */
	uint32_t sockets_open;
	uint32_t pad;
};

#endif

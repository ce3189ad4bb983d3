/* The network stack's side of a NIC: what a driver (kernel/drivers/) hands to the TCP/IP stack.
 *
 * A driver probes the device tree, fills a struct netdev and registers it. Received frames go
 * up from a kernel thread, never from interrupt context: the driver's interrupt handler masks
 * the device's interrupt and calls netdev_rx_interrupt(); the receive thread then calls the
 * driver's poll(), which hands each frame to netdev_deliver() and re-enables the interrupt
 * when the ring is empty. A device whose interrupts the platform cannot route is polled by the
 * same thread every tick instead (has_irq false), and that is reported. */
#ifndef KOV_NETDEV_H
#define KOV_NETDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NETDEV_MTU 1500
#define NETDEV_FRAME_MAX 1518        /* Ethernet header + MTU + VLAN tag, no FCS */

struct netdev_stats {
	uint64_t rx_packets, rx_bytes, rx_dropped;
	uint64_t tx_packets, tx_bytes, tx_dropped;
	uint64_t interrupts;         /* receive interrupts taken */
	uint64_t polls;              /* polls that found frames without an interrupt */
};

struct netdev {
	const char *driver;          /* "spapr-vlan" */
	uint8_t mac[6];
	bool has_irq;                /* interrupts routed; else polled every tick */
	/* Sends one Ethernet frame (len <= NETDEV_FRAME_MAX, no FCS); the driver copies it before
	 * returning. Returns 0, or -1 if the device had no room (the caller counts the drop). */
	int (*transmit)(struct netdev *d, const void *frame, size_t len);
	/* Thread context: hands up to `budget` received frames to netdev_deliver(), returns how
	 * many. Without rx_ready/rx_irq it re-enables the device's receive interrupt itself once
	 * it has nothing left. */
	int (*poll)(struct netdev *d, int budget);
	/* Optional, for interrupt mitigation: whether a received frame is waiting (a memory read,
	 * no device access that costs), and masking/unmasking the receive interrupt. With them the
	 * stack keeps the interrupt masked while frames keep coming and polls from the idle loop
	 * (kernel/net/netdev.c). */
	bool (*rx_ready)(struct netdev *d);
	void (*rx_irq)(struct netdev *d, bool on);
	void *priv;                  /* the driver's state */
	struct netdev_stats stats;   /* drivers count rx/tx; the stack counts drops it makes */
	void *stack;                 /* the stack's per-interface state */
};

/* Makes d the system's interface (one for now); call from the driver's probe. */
void netdev_register(struct netdev *d);
/* The registered interface, 0 if none. */
struct netdev *netdev_get(void);
/* Interrupt context: the device has received frames (its interrupt is masked by the driver). */
void netdev_rx_interrupt(struct netdev *d);
/* Thread context, from poll(): one received frame; the stack copies it. */
void netdev_deliver(struct netdev *d, const void *frame, size_t len);

/* Idle loop of the boot CPU, before it sleeps: true if it woke the receive thread (the CPU
 * should run it instead of sleeping). */
bool netdev_idle(void);

/* The CPU the stack's threads live on and the NIC interrupts: the boot CPU. */
#define NETDEV_STACK_CPU 0

#endif

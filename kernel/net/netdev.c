/* The NIC side of the stack (netdev.h): the registered interface, its receive thread,
 * and lwIP's netif over it (frames in through tcpip_input, out through the driver). */
#include "lwip/opt.h"
#include "lwip/netif.h"
#include "lwip/pbuf.h"
#include "lwip/tcpip.h"
#include "lwip/dhcp.h"
#include "lwip/etharp.h"
#include "netif/ethernet.h"
#include "net.h"
#include "netdev.h"
#include "../proc/thread.h"
#include "../arch/timer.h"
#include "kernel/arch/console.h"
#include "../arch/platform.h"
#include "../proc/process.h"
#include "../lib/bootargs.h"
#include "common/lib/string.h"
#include "../arch/cpu.h"
#include "../arch/smp_kind.h"

static struct netdev *the_netdev;
static struct netif the_netif;
static uint32_t rx_pending;   /* accessed with __atomic builtins */
static uint64_t start_ns;
static bool configured_by_dhcp;

void netdev_register(struct netdev *d)
{
	if (!the_netdev)
		the_netdev = d;
}

struct netdev *netdev_get(void)
{
	return the_netdev;
}

static void rx_kick(void);

void netdev_rx_interrupt(struct netdev *d)
{
	d->stats.interrupts++;
	rx_kick();
}

static bool nothing_pending(const void *key)
{
	return __atomic_load_n((const uint32_t *)key, __ATOMIC_ACQUIRE) == 0;
}

void netdev_deliver(struct netdev *d, const void *frame, size_t len)
{
	struct pbuf *p = pbuf_alloc(PBUF_RAW, (u16_t)(len + ETH_PAD_SIZE), PBUF_POOL);
	if (!p) {
		d->stats.rx_dropped++;
		return;
	}
	pbuf_take_at(p, frame, (u16_t)len, ETH_PAD_SIZE);
	if (the_netif.input(p, &the_netif) != ERR_OK) {
		pbuf_free(p);
		d->stats.rx_dropped++;
	}
}

/* Frames come up from here, not from interrupt context. With interrupt mitigation (the
 * driver has rx_ready and rx_irq) the receive interrupt stays masked while frames keep coming:
 * after a drain that found frames the thread waits for the idle loop (netdev_idle) or the next
 * tick instead of an interrupt, so a stream of ACKs costs no interrupts and no mask/unmask
 * calls. Only a drain that finds nothing unmasks it, or one on a CPU with other threads to
 * run: that CPU will not go idle soon, and a frame left for the tick would wait a whole tick
 * (a DCI ping took 20 ms under CPU-bound load). Without mitigation, the driver's poll
 * re-arms the interrupt itself; without an interrupt, the thread polls every tick. */
enum rx_mode { RX_IRQ, RX_POLLING };
static volatile enum rx_mode rx_mode = RX_IRQ;

static void rx_kick(void)
{
	__atomic_store_n(&rx_pending, 1, __ATOMIC_RELEASE);
	thread_wake_one(&rx_pending);
}

static void rx_thread(void *arg)
{
	struct netdev *d = arg;
	bool mitigate = d->has_irq && d->rx_ready && d->rx_irq;
	uint64_t tick_ns = 1000000000ull / timer_hz();
	for (;;) {
		__atomic_store_n(&rx_pending, 0, __ATOMIC_RELEASE);
		int n, total = 0;
		while ((n = d->poll(d, 64)) == 64)
			total += n;
		total += n;
		if (!d->has_irq && total > 0)
			d->stats.polls++;
		if (!d->has_irq) {
			thread_block_until(&rx_pending, nothing_pending, clock_ns() + tick_ns);
		} else if (!mitigate) {
			thread_block_on(&rx_pending, nothing_pending);
		} else if (total > 0 && !sched_cpu_busy()) {
			rx_mode = RX_POLLING;
			thread_block_until(&rx_pending, nothing_pending, clock_ns() + tick_ns);
		} else {
			rx_mode = RX_IRQ;
			d->rx_irq(d, true);
			if (d->rx_ready(d)) {   /* came in before the unmask: no interrupt for it */
				d->rx_irq(d, false);
				continue;
			}
			thread_block_on(&rx_pending, nothing_pending);
		}
	}
}

bool netdev_idle(void)
{
	struct netdev *d = the_netdev;
	if (!d || !d->rx_ready)
		return false;
	if (!d->has_irq) {   /* a polled device: look whenever the CPU is idle */
		if (!d->rx_ready(d))
			return false;
		rx_kick();
		return true;
	}
	if (rx_mode != RX_POLLING)
		return false;
	int irq = irq_save();
	bool woke = false;
	if (d->rx_ready(d)) {
		rx_kick();
		woke = true;
	} else if (d->has_irq && d->rx_irq) {
		/* Going to sleep: hand receiving back to the interrupt. */
		rx_mode = RX_IRQ;
		d->rx_irq(d, true);
		if (d->rx_ready(d)) {
			rx_kick();
			woke = true;
		}
	}
	irq_restore(irq);
	return woke;
}

static err_t link_output(struct netif *netif, struct pbuf *p)
{
	struct netdev *d = netif->state;
	uint8_t copy[NETDEV_FRAME_MAX];
	u16_t len = (u16_t)(p->tot_len - ETH_PAD_SIZE);
	const void *frame = (const uint8_t *)p->payload + ETH_PAD_SIZE;
	if (p->next) {   /* lwIP makes TCP segments whole; ARP and others may come in pieces */
		if (len > sizeof copy || pbuf_copy_partial(p, copy, len, ETH_PAD_SIZE) != len) {
			d->stats.tx_dropped++;
			return ERR_BUF;
		}
		frame = copy;
	}
	if (len > NETDEV_FRAME_MAX) {
		d->stats.tx_dropped++;
		return ERR_BUF;
	}
	if (d->transmit(d, frame, len) != 0) {
		d->stats.tx_dropped++;
		return ERR_MEM;
	}
	return ERR_OK;
}

static err_t netif_setup(struct netif *netif)
{
	struct netdev *d = netif->state;
	netif->name[0] = 'e';
	netif->name[1] = 'n';
	netif->hwaddr_len = 6;
	memcpy(netif->hwaddr, d->mac, 6);
	netif->mtu = NETDEV_MTU;
	netif->flags = NETIF_FLAG_BROADCAST | NETIF_FLAG_ETHARP | NETIF_FLAG_ETHERNET;
	netif->output = etharp_output;
	netif->linkoutput = link_output;
	netif_set_hostname(netif, "kov");
	return ERR_OK;
}

static void status_changed(struct netif *netif)
{
	if (ip4_addr_isany_val(*netif_ip4_addr(netif)))
		return;
	const ip4_addr_t *a = netif_ip4_addr(netif), *m = netif_ip4_netmask(netif),
			 *g = netif_ip4_gw(netif);
	unsigned prefix = 0;
	for (uint32_t mask = lwip_ntohl(ip4_addr_get_u32(m)); mask & 0x80000000u; mask <<= 1)
		prefix++;
	kprintf("net: %u.%u.%u.%u/%u gateway %u.%u.%u.%u (%s, %lu ms after start)\n",
		ip4_addr1(a), ip4_addr2(a), ip4_addr3(a), ip4_addr4(a), prefix, ip4_addr1(g),
		ip4_addr2(g), ip4_addr3(g), ip4_addr4(g), configured_by_dhcp ? "dhcp" : "static",
		(unsigned long)((clock_ns() - start_ns) / 1000000));
}

/* Parses "a.b.c.d"; false if it is not one. */
static bool parse_ip(const char *s, ip4_addr_t *out)
{
	uint32_t v = 0;
	for (int part = 0; part < 4; part++) {
		unsigned n = 0, digits = 0;
		while (*s >= '0' && *s <= '9' && digits < 4) {
			n = n * 10 + (unsigned)(*s++ - '0');
			digits++;
		}
		if (!digits || n > 255 || (part < 3 && *s++ != '.'))
			return false;
		v = v << 8 | n;
	}
	if (*s)
		return false;
	ip4_addr_set_u32(out, lwip_htonl(v));
	return true;
}

static volatile bool stack_ready;

static void stack_started(void *arg)
{
	struct netdev *d = arg;
	ip4_addr_t ip, mask, gw;
	char spec[20];
	bool fixed = bootarg_str(machine.bootargs, "ip", spec, sizeof spec) && parse_ip(spec, &ip);
	if (fixed) {
		IP4_ADDR(&mask, 255, 255, 255, 0);
		IP4_ADDR(&gw, ip4_addr1(&ip), ip4_addr2(&ip), ip4_addr3(&ip), 2);
	} else {
		ip4_addr_set_zero(&ip);
		ip4_addr_set_zero(&mask);
		ip4_addr_set_zero(&gw);
	}
	netif_add(&the_netif, &ip, &mask, &gw, d, netif_setup, tcpip_input);
	d->stack = &the_netif;
	netif_set_status_callback(&the_netif, status_changed);
	netif_set_default(&the_netif);
	netif_set_up(&the_netif);
	netif_set_link_up(&the_netif);
	configured_by_dhcp = !fixed;
	if (!fixed)
		dhcp_start(&the_netif);
	else
		status_changed(&the_netif);
	__atomic_store_n(&stack_ready, true, __ATOMIC_RELEASE);
	thread_wake_all((const void *)&stack_ready);
}

static bool stack_not_ready(const void *key)
{
	return !__atomic_load_n((const volatile bool *)key, __ATOMIC_ACQUIRE);
}

/* Where the CPUs take turns, a received frame waits for the stack's CPU's turn; the others
 * hand theirs on when they find one (smp_hand_on_turn). A step is a frame taken or an interrupt:
 * a frame left behind by the stack's CPU's turn makes each other CPU hand on once, not at every
 * interrupt until the frame is taken. */
static bool rx_waiting(unsigned *cpu, uint64_t *step)
{
	struct netdev *d = the_netdev;
	if (!d->rx_ready(d))
		return false;
	*cpu = NETDEV_STACK_CPU;
	*step = __atomic_load_n(&d->stats.rx_packets, __ATOMIC_RELAXED) +
		__atomic_load_n(&d->stats.interrupts, __ATOMIC_RELAXED);
	return true;
}

bool net_start(void)
{
	struct netdev *d = the_netdev;
	if (!d)
		return false;
	start_ns = clock_ns();
	kprintf("net: %s %02x:%02x:%02x:%02x:%02x:%02x, %s\n", d->driver, d->mac[0], d->mac[1],
		d->mac[2], d->mac[3], d->mac[4], d->mac[5],
		d->has_irq ? "interrupt-driven receive"
			   : "receive polled from the idle loop and every tick (no interrupt)");
	tcpip_init(stack_started, d);
	/* Sockets may be used as soon as this returns. */
	while (stack_not_ready((const void *)&stack_ready))
		thread_block_on((const void *)&stack_ready, stack_not_ready);
	if (d->rx_ready)
		smp_watch_turns(rx_waiting);
	if (!thread_create("netrx", rx_thread, d, NETDEV_STACK_CPU)) {
		kprintf("net: cannot create the receive thread\n");
		return false;
	}
	return true;
}

bool net_info(struct km_netinfo *out)
{
	struct netdev *d = the_netdev;
	if (!d || !__atomic_load_n(&stack_ready, __ATOMIC_ACQUIRE))
		return false;
	memset(out, 0, sizeof *out);
	out->ipv4 = lwip_ntohl(ip4_addr_get_u32(netif_ip4_addr(&the_netif)));
	out->netmask = lwip_ntohl(ip4_addr_get_u32(netif_ip4_netmask(&the_netif)));
	out->gateway = lwip_ntohl(ip4_addr_get_u32(netif_ip4_gw(&the_netif)));
	memcpy(out->mac, d->mac, 6);
	out->link_up = netif_is_link_up(&the_netif);
	out->dhcp = configured_by_dhcp;
	size_t n = strlen(d->driver);
	memcpy(out->driver, d->driver, n < sizeof out->driver ? n : sizeof out->driver - 1);
	out->rx_packets = d->stats.rx_packets;
	out->rx_bytes = d->stats.rx_bytes;
	out->rx_dropped = d->stats.rx_dropped;
	out->tx_packets = d->stats.tx_packets;
	out->tx_bytes = d->stats.tx_bytes;
	out->tx_dropped = d->stats.tx_dropped;
	out->interrupts = d->stats.interrupts;
	out->polls = d->stats.polls;
	return true;
}

/* PAPR virtual LAN ("IBM,l-lan", QEMU's spapr-vlan): the pseries machine's NIC.
 *
 * The device reaches memory only through its TCE window, so every page the driver shares is
 * mapped there first (H_PUT_TCE, I/O address = the page's index in our block). The driver
 * gives the device a buffer list page (receive-queue descriptor, filter descriptor, then the
 * receive buffers' descriptors), a receive queue of 16-byte entries and receive buffers whose
 * first 8 bytes name them (the device copies those into the queue entry). Sends are one
 * hypercall with a descriptor of a copy of the frame; the device has taken the data when it
 * returns. Receive interrupts (H_VIO_SIGNAL) are masked while the receive thread drains. */
#include "nic.h"
#include "kernel/net/netdev.h"
#include "../arch/hcall.h"
#include "../arch/irq.h"
#include "../arch/platform.h"
#include "../mm/page_alloc.h"
#include "common/lib/spinlock.h"
#include "kernel/arch/console.h"
#include "../arch/cpu.h"
#include "common/lib/string.h"

#define BD_VALID 0x8000000000000000ull
#define BD_TOGGLE 0x4000000000000000ull
#define BD(len, ioba) (BD_VALID | ((uint64_t)(len) << 32) | (uint32_t)(ioba))

#define RXQ_TOGGLE 0x80
#define RXQ_VALID 0x40

#define RX_BUF_SIZE 2048
#define RX_BUFS 128
#define RXQ_ENTRIES 512                       /* more than buffers: the queue never overruns */
#define PAGES_LIST 1
#define PAGES_FILTER 1
#define PAGES_RXQ (RXQ_ENTRIES * 16 / 4096)
#define PAGES_RX (RX_BUFS * RX_BUF_SIZE / 4096)
#define PAGES_TX 1
#define PAGES (PAGES_LIST + PAGES_FILTER + PAGES_RXQ + PAGES_RX + PAGES_TX)

struct rxq_entry {
	uint8_t control;
	uint8_t reserved;
	uint16_t offset;
	uint32_t length;
	uint64_t handle;
};

struct vlan {
	struct netdev dev;
	uint32_t unit;                /* the device's unit address ("reg") */
	uint32_t liobn;               /* its TCE window */
	uint8_t *block;               /* PAGES pages, mapped at I/O address 0 */
	volatile struct rxq_entry *rxq;
	unsigned int rxq_next;
	uint8_t rxq_toggle;           /* the toggle bit valid entries carry in this pass */
	uint8_t *rx, *tx;
	struct spinlock tx_lock;
};

static struct vlan vlan;

static uint64_t ioba_of(const void *p)
{
	return (uint64_t)((const uint8_t *)p - vlan.block);
}

static void signal_interrupts(bool on)
{
	hcall(H_VIO_SIGNAL, vlan.unit, on ? 1 : 0, 0, 0, 0, 0);
}

static void rx_interrupt(void *arg)
{
	(void)arg;
	signal_interrupts(false);
	netdev_rx_interrupt(&vlan.dev);
}

static bool add_rx_buffer(uint8_t *buf)
{
	*(uint64_t *)buf = ioba_of(buf);   /* the handle the queue entry will carry */
	return hcall(H_ADD_LOGICAL_LAN_BUFFER, vlan.unit, BD(RX_BUF_SIZE, ioba_of(buf)), 0, 0,
		     0, 0) == H_SUCCESS;
}

static bool rxq_ready(void)
{
	uint8_t c = vlan.rxq[vlan.rxq_next].control;
	return (c & RXQ_VALID) && (c & RXQ_TOGGLE) == vlan.rxq_toggle;
}

static int vlan_poll(struct netdev *d, int budget)
{
	int n = 0;
	while (n < budget && rxq_ready()) {
		__asm__ volatile("lwsync" : : : "memory");   /* entry before its contents */
		volatile struct rxq_entry *e = &vlan.rxq[vlan.rxq_next];
		uint64_t handle = e->handle;
		uint32_t len = e->length, off = e->offset;
		uint8_t *buf = vlan.block + handle;
		bool sane = handle >= ioba_of(vlan.rx) &&
			    handle < ioba_of(vlan.rx) + RX_BUFS * RX_BUF_SIZE &&
			    (handle - ioba_of(vlan.rx)) % RX_BUF_SIZE == 0 &&
			    off + len <= RX_BUF_SIZE;
		if (sane) {
			d->stats.rx_packets++;
			d->stats.rx_bytes += len;
			netdev_deliver(d, buf + off, len);
		} else {
			d->stats.rx_dropped++;
		}
		e->control = 0;
		if (++vlan.rxq_next == RXQ_ENTRIES) {
			vlan.rxq_next = 0;
			vlan.rxq_toggle ^= RXQ_TOGGLE;
		}
		if (sane && !add_rx_buffer(buf))
			d->stats.rx_dropped++;
		n++;
	}
	return n;
}

static bool vlan_rx_ready(struct netdev *d)
{
	(void)d;
	return rxq_ready();
}

static void vlan_rx_irq(struct netdev *d, bool on)
{
	(void)d;
	signal_interrupts(on);
}

static int vlan_transmit(struct netdev *d, const void *frame, size_t len)
{
	spin_lock(&vlan.tx_lock);
	memcpy(vlan.tx, frame, len);
	__asm__ volatile("sync" : : : "memory");
	long rc = hcall8(H_SEND_LOGICAL_LAN, vlan.unit, BD(len, ioba_of(vlan.tx)), 0, 0, 0, 0, 0, 0);
	spin_unlock(&vlan.tx_lock);
	if (rc != H_SUCCESS)
		return -1;
	d->stats.tx_packets++;
	d->stats.tx_bytes += len;
	return 0;
}

static int find_node(const struct fdt *f)
{
	int vdev = fdt_path(f, "/vdevice");
	if (vdev < 0)
		return -1;
	for (int n = fdt_first_child(f, vdev); n >= 0; n = fdt_next_sibling(f, n))
		if (fdt_has_string(f, n, "compatible", "IBM,l-lan"))
			return n;
	return -1;
}

bool spapr_vlan_probe(const struct fdt *f)
{
	if (strcmp(platform->name, "pseries") != 0)
		return false;
	int node = find_node(f);
	if (node < 0)
		return false;
	int len;
	const uint8_t *mac = fdt_prop(f, node, "local-mac-address", &len);
	const void *window = fdt_prop(f, node, "ibm,my-dma-window", 0);
	if (!fdt_prop_u32(f, node, "reg", &vlan.unit) || !mac || (len != 6 && len != 8) || !window) {
		kprintf("net: spapr-vlan node is missing reg, local-mac-address or its DMA window\n");
		return false;
	}
	memcpy(vlan.dev.mac, mac + (len - 6), 6);
	vlan.liobn = (uint32_t)fdt_cells(window, 0, 1);

	vlan.block = page_alloc(PAGES);
	if (!vlan.block) {
		kprintf("net: spapr-vlan: no memory for buffers\n");
		return false;
	}
	memset(vlan.block, 0, PAGES * 4096);
	for (uint64_t i = 0; i < PAGES; i++)
		if (hcall(H_PUT_TCE, vlan.liobn, i * 4096, phys_of(vlan.block + i * 4096) | 3, 0, 0,
			  0) != H_SUCCESS) {
			kprintf("net: spapr-vlan: H_PUT_TCE failed\n");
			return false;
		}
	uint8_t *list = vlan.block, *filter = list + 4096;
	vlan.rxq = (volatile struct rxq_entry *)(filter + 4096);
	vlan.rx = (uint8_t *)vlan.rxq + PAGES_RXQ * 4096;
	vlan.tx = vlan.rx + PAGES_RX * 4096;
	vlan.rxq_toggle = RXQ_TOGGLE;
	vlan.tx_lock = (struct spinlock)SPINLOCK_INIT;

	uint64_t mac64 = 0;
	for (int i = 0; i < 6; i++)
		mac64 = mac64 << 8 | vlan.dev.mac[i];
	long rc = hcall(H_REGISTER_LOGICAL_LAN, vlan.unit, ioba_of(list),
			BD(RXQ_ENTRIES * 16, ioba_of((const void *)vlan.rxq)), ioba_of(filter),
			mac64, 0);
	if (rc != H_SUCCESS) {
		kprintf("net: spapr-vlan: H_REGISTER_LOGICAL_LAN failed (%ld)\n", rc);
		return false;
	}
	for (int i = 0; i < RX_BUFS; i++)
		if (!add_rx_buffer(vlan.rx + i * RX_BUF_SIZE)) {
			kprintf("net: spapr-vlan: the device took only %d receive buffers\n", i);
			break;
		}

	vlan.dev.driver = "spapr-vlan";
	vlan.dev.transmit = vlan_transmit;
	vlan.dev.poll = vlan_poll;
	vlan.dev.rx_ready = vlan_rx_ready;
	vlan.dev.rx_irq = vlan_rx_irq;
	vlan.dev.priv = &vlan;
	const uint32_t *irq = fdt_prop(f, node, "interrupts", &len);
	vlan.dev.has_irq = irq && len >= 4 && irq_attach((uint32_t)fdt_cells(irq, 0, 1), rx_interrupt, 0);
	if (vlan.dev.has_irq)
		signal_interrupts(true);
	netdev_register(&vlan.dev);
	return true;
}

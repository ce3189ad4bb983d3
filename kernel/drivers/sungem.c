/* Apple GMAC (Sun GEM core, PCI 106b:0021): the Power Mac G5's NIC, QEMU's mac99 "sungem".
 *
 * Registers are little-endian 32-bit words in BAR 0, reached through the kernel's
 * cache-inhibited I/O window (kernel/mm/mmu.h). Rings of 16-byte little-endian descriptors in
 * ordinary memory; the device reads and writes them and the buffers by bus-master DMA at
 * physical addresses (QEMU's mac99 has no IOMMU; on a real G5 the U3 DART stays off, so
 * platform_mac99.c keeps memory below 2 GiB where the device reaches it). The receive interrupt (RXDONE, a level-sensitive PCI line through the mac-io
 * OpenPIC) is masked in the device while the receive thread drains; without a routable
 * interrupt the ring is polled from the idle loop and every tick. */
#include "nic.h"
#include "kernel/net/netdev.h"
#include "../arch/platform.h"
#include "../mm/page_alloc.h"
#include "common/lib/spinlock.h"
#include "kernel/arch/console.h"
#include "../arch/cpu.h"
#include "../mm/mmu.h"
#include "common/lib/string.h"
#include "../arch/irq.h"

#define GEM_VENDOR 0x106b
#define GEM_DEVICE 0x0021

/* Register offsets in BAR 0. */
#define GREG_SWRST 0x1010
#define GREG_IMASK 0x0010
#define GREG_STAT 0x000C                 /* reading it clears the latched causes */
#define STAT_RXDONE 0x10
#define STAT_RXNOBUF 0x20                /* the receive ring filled up */
#define TXDMA_KICK 0x2000
#define TXDMA_CFG 0x2004
#define TXDMA_DBLOW 0x2008
#define TXDMA_DBHI 0x200C
#define TXDMA_TXDONE 0x2100
#define RXDMA_CFG 0x4000
#define RXDMA_DBLOW 0x4004
#define RXDMA_DBHI 0x4008
#define RXDMA_KICK 0x4100
#define RXDMA_DONE 0x4104
#define MAC_TXCFG 0x6030
#define MAC_RXCFG 0x6034
#define MAC_MAXFSZ 0x6054
#define MAC_ADDR0 0x6080

#define SWRST_TX 0x1
#define SWRST_RX 0x2
#define CFG_ENABLE 0x1
#define RING_SIZE_CODE 2             /* (code + 5) bits: 128 descriptors */
#define RING 128
#define RXCFG_STRIP_FCS 0x4

#define TXD_SOF 0x80000000ull
#define TXD_EOF 0x40000000ull
#define RXD_OWN 0x8000000000000000ull    /* set: the descriptor belongs to the device */
#define RXD_LEN(w) (((w) >> 16) & 0x7ff)

#define BUF_SIZE 2048

struct desc {
	uint64_t word;                   /* little-endian: control (TX) or status (RX) */
	uint64_t buffer;                 /* little-endian physical address */
};

struct gem {
	struct netdev dev;
	uint64_t bar;                    /* physical */
	struct desc *tx, *rx;
	uint8_t *tx_buf, *rx_buf;
	unsigned int tx_next, rx_next;
	bool rx_starved;                 /* STAT_RXNOBUF seen, not yet answered */
	struct spinlock tx_lock;
};

static struct gem gem;

static uint32_t rd(uint32_t reg)
{
	uint32_t v = __builtin_bswap32(*(volatile uint32_t *)io_ptr(gem.bar + reg));
	__asm__ volatile("eieio" : : : "memory");
	return v;
}

static void wr(uint32_t reg, uint32_t v)
{
	*(volatile uint32_t *)io_ptr(gem.bar + reg) = __builtin_bswap32(v);
	__asm__ volatile("eieio" : : : "memory");
}

static uint64_t le64(uint64_t v)
{
	return __builtin_bswap64(v);
}

/* Every read of the status register clears its latched causes, so each one goes through here
 * and keeps the one cause gem_poll must still act on. */
static uint32_t status(void)
{
	uint32_t s = rd(GREG_STAT);
	if (s & STAT_RXNOBUF)
		gem.rx_starved = true;
	return s;
}

/* The receive kick names the first descriptor the device may not fill. It moves in steps of
 * four, one group behind the driver, because the DMA engine fetches descriptors four at a
 * time (what the Sun GEM drivers of the BSDs and Linux do); QEMU's model leaves one more
 * descriptor unused. */
static uint32_t rx_kick(void)
{
	return ((gem.rx_next & ~3u) + RING - 4) % RING;
}

static void rx_give(unsigned int i)
{
	gem.rx[i].buffer = le64(phys_of(gem.rx_buf + (uint64_t)i * BUF_SIZE));
	__asm__ volatile("sync" : : : "memory");
	gem.rx[i].word = le64(RXD_OWN | ((uint64_t)BUF_SIZE << 16));
}

static bool gem_rx_ready(struct netdev *d)
{
	(void)d;
	return !(le64(gem.rx[gem.rx_next].word) & RXD_OWN);
}

static int gem_poll(struct netdev *d, int budget)
{
	int n = 0;
	while (n < budget && gem_rx_ready(d)) {
		__asm__ volatile("lwsync" : : : "memory");
		unsigned int i = gem.rx_next;
		uint32_t len = (uint32_t)RXD_LEN(le64(gem.rx[i].word));
		if (len >= 14 && len <= NETDEV_FRAME_MAX + 4) {
			if (len > NETDEV_FRAME_MAX)
				len = NETDEV_FRAME_MAX;   /* an FCS the device did not strip */
			d->stats.rx_packets++;
			d->stats.rx_bytes += len;
			netdev_deliver(d, gem.rx_buf + (uint64_t)i * BUF_SIZE, len);
		} else {
			d->stats.rx_dropped++;
		}
		rx_give(i);
		gem.rx_next = (i + 1) % RING;
		n++;
	}
	if (n == 0)
		return 0;
	__asm__ volatile("sync" : : : "memory");
	wr(RXDMA_KICK, rx_kick());
	/* QEMU's model refuses frames while its ring is full and queues them, and a kick does not
	 * release that queue (only a write of the DMA or MAC receive configuration does): without
	 * this the link stalls until the peer retransmits. The value is unchanged, so on the real
	 * GEM, which just resumes after a kick, it should change nothing (not tried there). */
	int irq = irq_save();              /* the interrupt handler also reads the status */
	status();
	bool starved = gem.rx_starved;
	gem.rx_starved = false;
	irq_restore(irq);
	if (starved)
		wr(RXDMA_CFG, CFG_ENABLE | RING_SIZE_CODE << 1);
	return n;
}

static void gem_rx_irq(struct netdev *d, bool on)
{
	(void)d;
	if (on)
		status();                        /* forget causes already handled */
	wr(GREG_IMASK, on ? ~(uint32_t)STAT_RXDONE : 0xffffffff);
}

static void gem_interrupt(void *arg)
{
	(void)arg;
	wr(GREG_IMASK, 0xffffffff);              /* drops the level until the ring is drained */
	status();
	netdev_rx_interrupt(&gem.dev);
}

static int gem_transmit(struct netdev *d, const void *frame, size_t len)
{
	spin_lock(&gem.tx_lock);
	unsigned int i = gem.tx_next, next = (i + 1) % RING;
	if (next == (rd(TXDMA_TXDONE) & (RING - 1))) {
		spin_unlock(&gem.tx_lock);
		return -1;   /* ring full */
	}
	uint8_t *buf = gem.tx_buf + (uint64_t)i * BUF_SIZE;
	memcpy(buf, frame, len);
	gem.tx[i].buffer = le64(phys_of(buf));
	gem.tx[i].word = le64(TXD_SOF | TXD_EOF | len);
	__asm__ volatile("sync" : : : "memory");
	gem.tx_next = next;
	wr(TXDMA_KICK, next);
	spin_unlock(&gem.tx_lock);
	d->stats.tx_packets++;
	d->stats.tx_bytes += len;
	return 0;
}

/* OpenBIOS enables the BAR but not bus mastering, without which the device's DMA goes
 * nowhere. UniNorth/U3 host bridges take a configuration address at base + 0x800000 (for a
 * device on the host's own bus: a one-hot slot bit, the function, the register's upper bits)
 * and the data at base + 0xC00000 + the register's low 3 bits, little-endian. */
static bool enable_bus_master(const struct fdt *f, int node, uint32_t pci_hi)
{
	int host = fdt_parent(f, node);
	uint32_t base;
	int len;
	const void *reg = host >= 0 ? fdt_prop(f, host, "reg", &len) : 0;
	if (!reg || len < 4 || ((pci_hi >> 16) & 0xff) != 0)
		return false;
	uint32_t cells = 1;
	fdt_prop_u32(f, fdt_root(f), "#address-cells", &cells);
	uint64_t base64 = fdt_cells(reg, 0, cells == 2 ? 2 : 1);
	if (base64 >> 32)
		return false;
	base = (uint32_t)base64;
	unsigned slot = (pci_hi >> 11) & 0x1f, func = (pci_hi >> 8) & 7;
	if (slot < 11)
		return false;   /* not expressible as a one-hot slot bit */
	volatile uint32_t *addr = io_ptr(base + 0x800000ull);
	volatile uint32_t *data = io_ptr(base + 0xC00000ull + 4);   /* register 4: command */
	*addr = __builtin_bswap32((1u << slot) | func << 8 | 0x04);
	__asm__ volatile("sync" : : : "memory");
	uint32_t cmd = __builtin_bswap32(*data) & 0xffff;
	*data = __builtin_bswap32(cmd | 0x6);        /* memory space, bus master */
	__asm__ volatile("sync" : : : "memory");
	return (__builtin_bswap32(*data) & 0x6) == 0x6;
}

/* A PCI device's "interrupts" is its pin; the host bridge's interrupt-map turns (address,
 * pin) into the interrupt controller's source. Returns false if the map has no entry. */
static bool pci_irq_source(const struct fdt *f, int node, uint32_t pci_hi, uint32_t *source)
{
	int host = fdt_parent(f, node), len, mlen;
	uint32_t pin;
	if (host < 0 || !fdt_prop_u32(f, node, "interrupts", &pin))
		return false;
	const void *map = fdt_prop(f, host, "interrupt-map", &len);
	const void *mask = fdt_prop(f, host, "interrupt-map-mask", &mlen);
	uint32_t m_hi = mask && mlen >= 16 ? (uint32_t)fdt_cells(mask, 0, 1) : 0xffffffffu;
	uint32_t m_pin = mask && mlen >= 16 ? (uint32_t)fdt_cells(mask, 3, 1) : 0xffffffffu;
	for (int at = 0; map && (at + 5) * 4 <= len;) {
		uint32_t hi = (uint32_t)fdt_cells(map, at, 1), p = (uint32_t)fdt_cells(map, at + 3, 1);
		int pic = fdt_node_by_phandle(f, (uint32_t)fdt_cells(map, at + 4, 1));
		uint32_t cells = 2;
		if (pic < 0 || !fdt_prop_u32(f, pic, "#interrupt-cells", &cells))
			return false;
		if ((at + 5 + (int)cells) * 4 > len)
			return false;
		if ((hi & m_hi) == (pci_hi & m_hi) && (p & m_pin) == (pin & m_pin)) {
			*source = (uint32_t)fdt_cells(map, at + 5, 1);
			return true;
		}
		at += 5 + (int)cells;
	}
	return false;
}

/* The GMAC's node: matched by PCI ids anywhere in the tree. */
static int find_node(const struct fdt *f, int node)
{
	uint32_t vendor, device;
	if (fdt_prop_u32(f, node, "vendor-id", &vendor) && fdt_prop_u32(f, node, "device-id", &device) &&
	    vendor == GEM_VENDOR && device == GEM_DEVICE)
		return node;
	for (int c = fdt_first_child(f, node); c >= 0; c = fdt_next_sibling(f, c)) {
		int found = find_node(f, c);
		if (found >= 0)
			return found;
	}
	return -1;
}

/* BAR 0 from "assigned-addresses" (PCI address cells: phys.hi, phys.mid, phys.lo; size 2). */
static bool bar0(const struct fdt *f, int node, uint64_t *out)
{
	int len;
	const void *aa = fdt_prop(f, node, "assigned-addresses", &len);
	for (int i = 0; aa && (i + 1) * 20 <= len; i++) {
		uint32_t hi = (uint32_t)fdt_cells(aa, i * 5, 1);
		if ((hi & 0xff) == 0x10 && ((hi >> 24) & 3) == 2) {   /* BAR 0, 32-bit memory */
			*out = fdt_cells(aa, i * 5 + 1, 2);
			return true;
		}
	}
	return false;
}

bool sungem_probe(const struct fdt *f)
{
	if (strcmp(platform->name, "mac99") != 0)
		return false;
	int node = find_node(f, fdt_root(f));
	if (node < 0)
		return false;
	int reg_len;
	const void *reg = fdt_prop(f, node, "reg", &reg_len);
	if (!reg || reg_len < 4 || !enable_bus_master(f, node, (uint32_t)fdt_cells(reg, 0, 1))) {
		kprintf("net: sungem: cannot reach its PCI configuration space\n");
		return false;
	}
	if (!bar0(f, node, &gem.bar)) {
		kprintf("net: sungem: no BAR 0 in assigned-addresses\n");
		return false;
	}
	/* Rings and buffers: one page of descriptors each way, RING buffers each way. */
	uint64_t pages = 2 + 2 * (RING * BUF_SIZE / PAGE_SIZE);
	uint8_t *mem = page_alloc(pages);
	if (!mem) {
		kprintf("net: sungem: no memory for rings\n");
		return false;
	}
	memset(mem, 0, pages * PAGE_SIZE);
	gem.tx = (struct desc *)mem;
	gem.rx = (struct desc *)(mem + PAGE_SIZE);
	gem.tx_buf = mem + 2 * PAGE_SIZE;
	gem.rx_buf = gem.tx_buf + RING * BUF_SIZE;
	gem.tx_lock = (struct spinlock)SPINLOCK_INIT;

	wr(GREG_SWRST, SWRST_TX | SWRST_RX);
	for (int i = 0; i < 1000 && (rd(GREG_SWRST) & (SWRST_TX | SWRST_RX)); i++)
		;
	uint32_t a0 = rd(MAC_ADDR0), a1 = rd(MAC_ADDR0 + 4), a2 = rd(MAC_ADDR0 + 8);
	uint8_t mac[6] = { (uint8_t)(a2 >> 8), (uint8_t)a2, (uint8_t)(a1 >> 8), (uint8_t)a1,
			   (uint8_t)(a0 >> 8), (uint8_t)a0 };
	memcpy(gem.dev.mac, mac, 6);

	for (unsigned int i = 0; i < RING; i++)
		rx_give(i);
	__asm__ volatile("sync" : : : "memory");
	wr(GREG_IMASK, 0xffffffff);                 /* unmasked once the handler is attached */
	wr(TXDMA_DBLOW, (uint32_t)phys_of(gem.tx));
	wr(TXDMA_DBHI, (uint32_t)(phys_of(gem.tx) >> 32));
	wr(RXDMA_DBLOW, (uint32_t)phys_of(gem.rx));
	wr(RXDMA_DBHI, (uint32_t)(phys_of(gem.rx) >> 32));
	wr(MAC_MAXFSZ, NETDEV_FRAME_MAX + 4);
	wr(TXDMA_CFG, CFG_ENABLE | RING_SIZE_CODE << 1);
	wr(RXDMA_CFG, CFG_ENABLE | RING_SIZE_CODE << 1);
	wr(MAC_TXCFG, CFG_ENABLE);
	wr(MAC_RXCFG, CFG_ENABLE | RXCFG_STRIP_FCS);
	wr(RXDMA_KICK, rx_kick());

	gem.dev.driver = "sungem";
	gem.dev.transmit = gem_transmit;
	gem.dev.poll = gem_poll;
	gem.dev.rx_ready = gem_rx_ready;
	gem.dev.priv = &gem;
	uint32_t source;
	gem.dev.has_irq = pci_irq_source(f, node, (uint32_t)fdt_cells(reg, 0, 1), &source) &&
			  irq_attach(source, gem_interrupt, 0);
	if (gem.dev.has_irq) {
		gem.dev.rx_irq = gem_rx_irq;
		gem_rx_irq(&gem.dev, true);
	}
	netdev_register(&gem.dev);
	return true;
}

/* Power Mac G5 and QEMU's mac99: bare metal. The console is the ESCC (Zilog 8530) channel A
 * inside the mac-io chip; power, restart and the clock go through the system controller behind
 * the VIA (PMU99 or CUDA: mac_power.h). All device addresses come from the device tree the
 * Open Firmware stage flattened. */
#include "platform.h"
#include "cpu.h"
#include "common/lib/string.h"
#include "openpic.h"
#include "mac_power.h"
#include "via.h"

uint8_t real_ci_read8(uint64_t phys);
void real_ci_write8(uint64_t phys, uint8_t value);

#define MACIO_ESCC_OFFSET   0x13000
#define ESCC_CHA_CTRL       0x20
#define ESCC_CHA_DATA       0x30
#define ESCC_TX_READY       0x04
#define MACIO_VIA_OFFSET    0x16000

static uint64_t macio_base = 0x80000000;
static uint64_t escc_base;
static const struct mac_power *power;
static uint64_t pic_base;

static bool mac99_probe(const struct fdt *f)
{
	int root = fdt_root(f);
	return fdt_has_string(f, root, "compatible", "MacRISC") ||
	       fdt_has_string(f, root, "compatible", "Power Macintosh");
}

/* Depth-first search for the first node whose name starts with `prefix`. */
static int find_node_named(const struct fdt *f, int node, const char *prefix)
{
	size_t n = strlen(prefix);
	for (int child = fdt_first_child(f, node); child >= 0; child = fdt_next_sibling(f, child)) {
		const char *name = fdt_node_name(f, child);
		if (name && strncmp(name, prefix, n) == 0 && (name[n] == 0 || name[n] == '@'))
			return child;
		int found = find_node_named(f, child, prefix);
		if (found >= 0)
			return found;
	}
	return -1;
}

/* The controller the device tree names, and where its VIA is. */
static void find_power_controller(const struct fdt *f, int macio)
{
	int node = macio >= 0 ? find_node_named(f, macio, "via-pmu") : -1;
	power = node >= 0 ? &via_pmu : 0;
	if (!power) {
		node = macio >= 0 ? find_node_named(f, macio, "via-cuda") : -1;
		power = node >= 0 ? &via_cuda : 0;
	}
	int len;
	const void *reg = node >= 0 ? fdt_prop(f, node, "reg", &len) : 0;
	via_base = macio_base + (reg && len >= 4 ? fdt_cells(reg, 0, 1) : MACIO_VIA_OFFSET);
	machine.power_ctl = power ? power->name : "none";
	if (power)
		power->init();
}

static void mac99_console_init(const struct fdt *f)
{
	int macio = find_node_named(f, fdt_root(f), "mac-io");
	int len;
	/* PCI assigned-addresses: phys.hi, phys.mid, phys.lo, size.hi, size.lo. */
	const void *aa = macio >= 0 ? fdt_prop(f, macio, "assigned-addresses", &len) : 0;
	if (aa && len >= 20)
		macio_base = (fdt_cells(aa, 1, 1) << 32) | fdt_cells(aa, 2, 1);
	escc_base = macio_base + MACIO_ESCC_OFFSET;
	int escc = macio >= 0 ? find_node_named(f, macio, "escc") : -1;
	const void *reg = escc >= 0 ? fdt_prop(f, escc, "reg", &len) : 0;
	if (reg && len >= 4)
		escc_base = macio_base + fdt_cells(reg, 0, 1);
	find_power_controller(f, macio);
	int pic = macio >= 0 ? find_node_named(f, macio, "interrupt-controller") : -1;
	reg = pic >= 0 ? fdt_prop(f, pic, "reg", &len) : 0;
	if (reg && len >= 4)
		pic_base = macio_base + fdt_cells(reg, 0, 1);
}

/* The OpenPIC is taken over when interrupts are set up (after the MMU is on). */
static void mac99_interrupts_init_cpu(void)
{
	if (pic_base)
		openpic_init(pic_base);
}

static void mac99_console_write(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		while (!(real_ci_read8(escc_base + ESCC_CHA_CTRL) & ESCC_TX_READY))
			;
		real_ci_write8(escc_base + ESCC_CHA_DATA, (uint8_t)s[i]);
	}
}

static bool mac99_start_cpu(uint32_t hw_id, uint64_t entry, uint64_t arg)
{
	(void)hw_id, (void)entry, (void)arg;
	return false;   /* QEMU's mac99 has one CPU; a dual G5 needs the K2 reset lines (not yet) */
}

/* 970 HID0 power management: NAP (bit 9 in IBM numbering) lets MSR[POW] stop the core until
 * the next interrupt; DPM enables dynamic power management. HID0 must be written with the
 * sequence the 970 manual gives (sync; mtspr; six reads; isync). */
#define HID0_NAP (1ull << 54)
#define HID0_DPM (1ull << 52)

static void hid0_write(uint64_t v)
{
	__asm__ volatile("sync\n mtspr %0, %1\n"
			 "mfspr %1, %0\n mfspr %1, %0\n mfspr %1, %0\n"
			 "mfspr %1, %0\n mfspr %1, %0\n mfspr %1, %0\n isync"
			 : : "i"(SPRN_HID0), "r"(v) : "memory");
}

/* Naps until an interrupt; the exception code clears POW in the saved MSR so the interrupt
 * returns here. QEMU's 970 model cannot nap (its HID0 ignores these bits), so under QEMU
 * this returns at once and the idle loop spins. */
static void mac99_idle(void)
{
	static bool nap_enabled;
	if (!nap_enabled) {
		hid0_write(mfspr(SPRN_HID0) | HID0_NAP | HID0_DPM);
		nap_enabled = true;
	}
	irq_disable();
	uint64_t msr = mfmsr() | MSR_EE | MSR_POW;
	__asm__ volatile("sync\n mtmsrd %0\n isync" : : "r"(msr) : "memory");
	irq_enable();
}

__attribute__((noreturn)) static void mac99_power_off(void)
{
	if (power)
		power->power_off();
	for (;;)
		;
}

static void mac99_reboot(void)
{
	if (power)
		power->reboot();
}

static bool mac99_rtc_read(int64_t *unix_seconds)
{
	return power && power->rtc_read(unix_seconds);
}

const struct platform platform_mac99 = {
	.name = "mac99",
	.profile = "g5",
	.probe = mac99_probe,
	.console_init = mac99_console_init,
	.console_write = mac99_console_write,
	.start_cpu = mac99_start_cpu,
	.idle = mac99_idle,
	.interrupts_init_cpu = mac99_interrupts_init_cpu,
	.external_interrupt = openpic_interrupt,
	.irq_route = openpic_route,
	.hpt = HPT_NATIVE,
	.dma_limit = 2ull << 30,
	.power_off = mac99_power_off,
	.reboot = mac99_reboot,
	.rtc_read = mac99_rtc_read,
};

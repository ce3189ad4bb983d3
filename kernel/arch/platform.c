/* Platform selection and the machine description shared by all platforms. */
#include "platform.h"
#include "cpu.h"
#include "common/lib/bytes.h"
#include "common/lib/string.h"
#include "console.h"
#include "../lib/mem_limit.h"

extern const struct platform platform_pseries, platform_mac99;
static const struct platform *const platforms[] = { &platform_pseries, &platform_mac99 };

const struct platform *platform;
struct machine_info machine;
struct fdt boot_fdt;

static uint32_t root_cells(const struct fdt *f, const char *name, uint32_t dflt)
{
	uint32_t v;
	return fdt_prop_u32(f, fdt_root(f), name, &v) ? v : dflt;
}

static void read_memory(const struct fdt *f)
{
	uint32_t ac = root_cells(f, "#address-cells", 2), sc = root_cells(f, "#size-cells", 1);
	for (int node = fdt_find_by_type(f, -1, "memory"); node >= 0;
	     node = fdt_find_by_type(f, node, "memory")) {
		int len;
		const void *reg = fdt_prop(f, node, "reg", &len);
		int entry = (int)(ac + sc) * 4;
		if (!reg || ac > 2 || sc > 2 || entry == 0)
			continue;
		for (int i = 0; (i + 1) * entry <= len && machine.mem_count < MAX_MEM_REGIONS; i++) {
			uint64_t base = fdt_cells(reg, i * (int)(ac + sc), (int)ac);
			uint64_t size = fdt_cells(reg, i * (int)(ac + sc) + (int)ac, (int)sc);
			machine.mem_unused += mem_limit_cut(base, &size, platform->dma_limit);
			if (size == 0)
				continue;
			machine.mem[machine.mem_count++] = (struct mem_region){ base, size };
			machine.mem_total += size;
		}
	}
}

static void read_cpus(const struct fdt *f)
{
	uint32_t boot_id = be32_load((const uint8_t *)f->blob + 28); /* boot_cpuid_phys */
	machine.cpu_count = 0;
	for (int node = fdt_find_by_type(f, -1, "cpu"); node >= 0;
	     node = fdt_find_by_type(f, node, "cpu")) {
		uint32_t id = 0;
		if (!fdt_prop_u32(f, node, "reg", &id))
			continue;
		if (machine.tb_freq == 0) {
			uint64_t tb;
			if (fdt_prop_u64(f, node, "timebase-frequency", &tb))
				machine.tb_freq = tb;
		}
		if (machine.cpu_count == sizeof machine.cpu_hw_id / sizeof machine.cpu_hw_id[0])
			break;
		machine.cpu_hw_id[machine.cpu_count++] = id;
	}
	/* Put the boot CPU first so that logical CPU 0 is the one running now. */
	for (unsigned i = 1; i < machine.cpu_count; i++) {
		if (machine.cpu_hw_id[i] == boot_id) {
			machine.cpu_hw_id[i] = machine.cpu_hw_id[0];
			machine.cpu_hw_id[0] = boot_id;
		}
	}
	if (machine.cpu_count == 0) {
		machine.cpu_hw_id[0] = boot_id;
		machine.cpu_count = 1;
	}
}

bool platform_init(const void *blob)
{
	if (fdt_open(&boot_fdt, blob, 16u << 20) != 0)
		return false;
	for (unsigned i = 0; i < sizeof platforms / sizeof platforms[0]; i++) {
		if (platforms[i]->probe(&boot_fdt)) {
			platform = platforms[i];
			break;
		}
	}
	if (!platform)
		return false;
	platform->console_init(&boot_fdt);
	machine.profile = platform->profile;
	machine.pvr = (uint32_t)mfspr(SPRN_PVR);
	const char *model = fdt_prop_str(&boot_fdt, fdt_root(&boot_fdt), "model");
	machine.model = model ? model : "unknown";
	int chosen = fdt_path(&boot_fdt, "/chosen");
	const char *args = chosen >= 0 ? fdt_prop_str(&boot_fdt, chosen, "bootargs") : 0;
	machine.bootargs = args ? args : "";
	read_memory(&boot_fdt);
	read_cpus(&boot_fdt);
	return true;
}

/* True if the string list property `name` of node contains `want`. */
bool fdt_has_string(const struct fdt *f, int node, const char *name, const char *want)
{
	int len;
	const char *p = fdt_prop(f, node, name, &len);
	while (p && len > 0) {
		size_t n = strnlen(p, (size_t)len);
		if (n == (size_t)len)
			break;
		if (strcmp(p, want) == 0)
			return true;
		p += n + 1;
		len -= (int)n + 1;
	}
	return false;
}

/* The hypervisor watchdog (wake_guard.c) is stopped first: QEMU's pseries was seen to keep it
 * across the reset and hit the next boot with a system reset (1 boot in about 70). */
void machine_reboot(void)
{
	irq_disable();
	if (platform && platform->watchdog_stop)
		platform->watchdog_stop();
	if (platform && platform->reboot)
		platform->reboot();
	kprintf("kov: the %s did not restart the machine; halting\n",
		machine.power_ctl ? machine.power_ctl : "platform");
	machine_halt();
}

void machine_halt(void)
{
	irq_disable();
	if (platform && platform->power_off)
		platform->power_off();
	for (;;)
		;
}

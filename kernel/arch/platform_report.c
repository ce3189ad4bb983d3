/* The boot clock line and the platform's self-report. A path's state rests on what the tests
 * under QEMU run (power_g5.sh and the other g5 tests on mac99, power_smp.sh and the rest on
 * pseries): on the machine QEMU emulates those paths were exercised; elsewhere they are new. */
#include "platform_report.h"
#include "platform.h"
#include "console.h"
#include "common/lib/civil_time.h"
#include "common/lib/format.h"
#include "common/lib/string.h"
#include "kernel/include/kov_hooks.h"
#include "kernel/abi/km_abi.h"

_Static_assert((int)PATH_EXERCISED == (int)KM_PATH_EXERCISED && (int)PATH_NEW == (int)KM_PATH_NEW &&
	       (int)PATH_UNEXERCISED == (int)KM_PATH_UNEXERCISED &&
	       (int)PATH_UNCHECKABLE == (int)KM_PATH_UNCHECKABLE,
	       "SYS_PLATFORM passes the states as they are");

static int64_t boot_rtc;
static bool boot_rtc_ok;

void rtc_boot_read(void)
{
	char when[24];
	if (!platform->rtc_read) {
		kprintf("rtc: none on this platform\n");
		return;
	}
	boot_rtc_ok = platform->rtc_read(&boot_rtc);
	if (!boot_rtc_ok) {
		kprintf("rtc: the %s did not answer\n", machine.power_ctl);
		return;
	}
	struct civil_time t = civil_from_unix(boot_rtc);
	kprintf("rtc: %s UTC (%s)\n", civil_format(&t, when, sizeof when), machine.power_ctl);
}

bool rtc_boot_time(int64_t *unix_seconds)
{
	*unix_seconds = boot_rtc;
	return boot_rtc_ok;
}

const char *path_state_name(enum path_state s)
{
	switch (s) {
	case PATH_EXERCISED: return "exercised";
	case PATH_NEW: return "new on this machine";
	case PATH_UNEXERCISED: return "not exercised";
	case PATH_UNCHECKABLE: return "cannot be checked here";
	}
	return "?";
}

/* QEMU's machines say who they are: pseries in its compatible, mac99 by a model no 64-bit Mac
 * has (PowerMac3,1 was a G4). */
static bool emulated(void)
{
	if (strcmp(platform->name, "pseries") == 0)
		return fdt_has_string(&boot_fdt, fdt_root(&boot_fdt), "compatible", "qemu,pseries");
	return strcmp(machine.model, "PowerMac3,1") == 0;
}

static struct platform_path *add(struct platform_path *p, unsigned *n, const char *name,
				 enum path_state state, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static struct platform_path *add(struct platform_path *p, unsigned *n, const char *name,
				 enum path_state state, const char *fmt, ...)
{
	if (*n >= PLATFORM_PATHS_MAX)
		return 0;
	struct platform_path *e = &p[(*n)++];
	e->name = name;
	e->state = state == PATH_EXERCISED && !emulated() ? PATH_NEW : state;
	va_list ap;
	va_start(ap, fmt);
	format_buf_v(e->detail, sizeof e->detail, fmt, ap);
	va_end(ap);
	return e;
}

/* Power off, restart and clock through the system controller, as power_g5.sh and
 * image_g5.sh run them (pseries: power_smp.sh). */
static void power_paths(struct platform_path *p, unsigned *n, const char *qemu)
{
	const char *ctl = machine.power_ctl;
	if (strcmp(ctl, "none") == 0) {
		static const char *const names[] = { "power-off", "reboot", "clock" };
		for (unsigned i = 0; i < 3; i++)
			add(p, n, names[i], PATH_UNEXERCISED, "no system controller in the device tree");
		return;
	}
	enum path_state st = PATH_EXERCISED;
	add(p, n, "power-off", st, "%s, under QEMU %s", ctl, qemu);
	add(p, n, "reboot", st, "%s, under QEMU %s", ctl, qemu);
	char when[24] = "no answer at boot";
	if (boot_rtc_ok) {
		struct civil_time t = civil_from_unix(boot_rtc);
		civil_format(&t, when, sizeof when);
	}
	add(p, n, "clock", st, "%s, under QEMU %s; read %s", ctl, qemu, when);
}

static void mac99_paths(struct platform_path *p, unsigned *n)
{
	bool pmu = strcmp(machine.power_ctl, "PMU99") == 0;
	add(p, n, "console", PATH_EXERCISED, "ESCC channel A, under QEMU mac99");
	add(p, n, "interrupts", PATH_EXERCISED, "mac-io OpenPIC, under QEMU mac99");
	add(p, n, "ethernet", PATH_EXERCISED, "sungem, DMA at physical addresses, under QEMU mac99");
	power_paths(p, n, pmu ? "mac99,via=pmu" : "mac99");
	add(p, n, "second CPU start", PATH_UNEXERCISED,
	    "QEMU mac99 has one CPU; K2 GPIO reset release and timebase sync not implemented; "
	    "%u CPU(s) here, 1 runs", machine.cpu_count);
	add(p, n, "DART", PATH_UNEXERCISED,
	    "bypassed, memory limited to 2 GiB (QEMU mac99 has at most 2); %lu MiB used, %lu MiB "
	    "above left out", (unsigned long)(machine.mem_total >> 20),
	    (unsigned long)(machine.mem_unused >> 20));
	add(p, n, "nap in idle", PATH_UNCHECKABLE, "HID0[NAP] set; QEMU's 970 ignores it");
}

static void pseries_paths(struct platform_path *p, unsigned *n)
{
	add(p, n, "console", PATH_EXERCISED, "hypervisor terminal, under QEMU pseries");
	add(p, n, "interrupts", PATH_EXERCISED, "XICS through hypercalls, under QEMU pseries");
	add(p, n, "CPU start", PATH_EXERCISED, "RTAS start-cpu, %u CPU(s) here", machine.cpu_count);
	power_paths(p, n, "pseries");
}

unsigned platform_paths(struct platform_path *paths)
{
	unsigned n = 0;
	if (strcmp(platform->name, "mac99") == 0)
		mac99_paths(paths, &n);
	else
		pseries_paths(paths, &n);
	unsigned hw, measured, assumed;
	km_hw_basis(&hw, &measured, &assumed);
	struct platform_path *ev = add(paths, &n, "PMU events", PATH_UNCHECKABLE,
		"%u of %u hardware events measured here by the boot probe, %u assumed", measured,
		hw, assumed);
	if (ev && measured)
		ev->state = PATH_EXERCISED;   /* the probe ran on this very machine */
	return n;
}

void platform_report(void)
{
	struct platform_path paths[PLATFORM_PATHS_MAX];
	unsigned n = platform_paths(paths);
	kprintf("platform: %s (%s), %s\n", platform->name, machine.model,
		emulated() ? "emulated by QEMU" : "not QEMU: paths exercised only under QEMU are new");
	for (unsigned i = 0; i < n; i++)
		kprintf("platform: %s: %s; %s\n", paths[i].name, path_state_name(paths[i].state),
			paths[i].detail);
}

void platform_report_fill(struct km_platform *out)
{
	struct platform_path paths[PLATFORM_PATHS_MAX];
	memset(out, 0, sizeof *out);
	out->rtc_boot = boot_rtc;
	out->rtc_ok = boot_rtc_ok;
	out->emulated = emulated();
	format_buf(out->platform, sizeof out->platform, "%s", platform->name);
	format_buf(out->power_ctl, sizeof out->power_ctl, "%s", machine.power_ctl);
	unsigned n = platform_paths(paths);
	for (unsigned i = 0; i < n && i < KM_PLATFORM_PATHS; i++) {
		format_buf(out->paths[i].name, sizeof out->paths[i].name, "%s", paths[i].name);
		out->paths[i].state = paths[i].state;
		format_buf(out->paths[i].detail, sizeof out->paths[i].detail, "%s", paths[i].detail);
		out->n_paths = i + 1;
	}
}

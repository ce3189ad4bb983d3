/* QEMU pseries (PAPR guest): console, CPU start and power through hypercalls and RTAS. */
#include "platform.h"
#include "hcall.h"
#include "rtas.h"
#include "cpu.h"
#include "percpu.h"
#include "irq.h"
#include "wake_guard.h"
#include "common/lib/civil_time.h"

static uint64_t vterm = 0x71000000;

static bool pseries_probe(const struct fdt *f)
{
	return fdt_has_string(f, fdt_root(f), "compatible", "qemu,pseries") ||
	       fdt_path(f, "/rtas") >= 0;
}

static void pseries_console_init(const struct fdt *f)
{
	int node = fdt_path(f, "/vdevice/vty");
	uint32_t reg;
	if (node >= 0 && fdt_prop_u32(f, node, "reg", &reg))
		vterm = reg;
	rtas_init(f);
	machine.power_ctl = "RTAS";
}

/* H_PUT_TERM_CHAR takes up to 16 bytes packed big-endian into two registers. */
static void pseries_console_write(const char *s, size_t n)
{
	while (n > 0) {
		size_t chunk = n < 16 ? n : 16;
		uint64_t w[2] = { 0, 0 };
		for (size_t i = 0; i < chunk; i++)
			w[i / 8] |= (uint64_t)(uint8_t)s[i] << (56 - 8 * (i % 8));
		long rc;
		do
			rc = hcall(H_PUT_TERM_CHAR, vterm, chunk, w[0], w[1], 0, 0);
		while (rc == H_BUSY);
		if (rc != H_SUCCESS)
			return;
		s += chunk;
		n -= chunk;
	}
}

static bool pseries_start_cpu(uint32_t hw_id, uint64_t entry, uint64_t arg)
{
	return rtas_call("start-cpu", 3, 1, 0, hw_id, (uint32_t)entry, (uint32_t)arg) == 0;
}

/* H_CEDE returns once an interrupt is pending, with MSR[EE] set so it is taken at once. */
static void pseries_idle(void)
{
	irq_disable();
	wake_cede();
	irq_enable();
}

/* XICS through hypercalls: an IPI is the target's MFRR set below its CPPR; it arrives as an
 * external interrupt from source 2, which ends an H_CEDE as any interrupt does. */
#define XICS_IPI_SOURCE 2
#define XICS_IPI_PRIORITY 5
#define XICS_NO_IPI 0xff

static void pseries_interrupts_init_cpu(void)
{
	hcall(H_CPPR, 0xff, 0, 0, 0, 0, 0);   /* accept every priority */
}

static void pseries_kick(uint32_t hw_id)
{
	if (hcall(H_IPI, hw_id, XICS_IPI_PRIORITY, 0, 0, 0, 0) != H_SUCCESS)
		hcall(H_PROD, hw_id, 0, 0, 0, 0, 0);
}

/* H_CONFER to every CPU (-1): QEMU ends this CPU's run with EXCP_YIELD, and its round robin
 * (thread=single) goes on to the next CPU at once instead of at the next timer event. */
static void pseries_yield_turn(void)
{
	hcall(H_CONFER, (uint64_t)-1, 0, 0, 0, 0, 0);
}

/* H_PROD clears QEMU's halted state of the CPU (wake_guard.h says why that matters). */
static void pseries_unhalt(uint32_t hw_id)
{
	hcall(H_PROD, hw_id, 0, 0, 0, 0, 0);
}

/* H_WATCHDOG (PAPR): start watchdog 1 with the "dump restart" action, a system reset on
 * every CPU at expiry; starting it again moves the expiry. */
#define WDT_OP_START 0x100
#define WDT_OP_STOP 0x200
#define WDT_ACTION_DUMP_RESTART 0x3

static bool pseries_watchdog_start(unsigned int ms)
{
	return hcall(H_WATCHDOG, WDT_OP_START | WDT_ACTION_DUMP_RESTART, 1, ms, 0, 0, 0) == H_SUCCESS;
}

static void pseries_watchdog_stop(void)
{
	hcall(H_WATCHDOG, WDT_OP_STOP, 1, 0, 0, 0, 0);
}

static void pseries_external_interrupt(void)
{
	for (;;) {
		uint64_t out[3];
		if (hcall_out(out, H_XIRR, 0, 0, 0, 0) != H_SUCCESS)
			return;
		uint32_t xirr = (uint32_t)out[0], source = xirr & 0xffffff;
		if (source == 0)
			return;   /* nothing (more) pending */
		if (source == XICS_IPI_SOURCE) {
			hcall(H_IPI, this_cpu()->hw_id, XICS_NO_IPI, 0, 0, 0, 0);
			this_cpu()->ipis++;
		} else if (!irq_dispatch(source)) {
			this_cpu()->stray_interrupts++;
		}
		hcall(H_EOI, xirr, 0, 0, 0, 0, 0);
	}
}

/* A device source: ibm,set-xive sends it to the boot CPU's server at the IPI priority (which
 * every CPU accepts), ibm,int-on unmasks it. */
static bool pseries_irq_route(uint32_t source)
{
	if (rtas_call("ibm,set-xive", 3, 1, 0, source, machine.cpu_hw_id[0], XICS_IPI_PRIORITY) != 0)
		return false;
	return rtas_call("ibm,int-on", 1, 1, 0, source) == 0;
}

__attribute__((noreturn)) static void pseries_power_off(void)
{
	rtas_call("power-off", 2, 1, 0, 0xffffffffu, 0xffffffffu);
	for (;;)
		;
}

static void pseries_reboot(void)
{
	rtas_call("system-reboot", 0, 1, 0);
}

/* get-time-of-day answers status, year, month, day, hour, minute, second, nanoseconds. */
static bool pseries_rtc_read(int64_t *unix_seconds)
{
	uint32_t r[8];
	if (rtas_call("get-time-of-day", 0, 8, r) != 0)
		return false;
	struct civil_time t = { (int32_t)r[1], (uint8_t)r[2], (uint8_t)r[3], (uint8_t)r[4],
				(uint8_t)r[5], (uint8_t)r[6] };
	return r[2] <= 12 && r[3] <= 31 && r[4] < 24 && r[5] < 60 && r[6] < 60 &&
	       civil_to_unix(&t, unix_seconds);
}

const struct platform platform_pseries = {
	.name = "pseries",
	.profile = "smp",
	.probe = pseries_probe,
	.console_init = pseries_console_init,
	.console_write = pseries_console_write,
	.start_cpu = pseries_start_cpu,
	.idle = pseries_idle,
	.kick = pseries_kick,
	.unhalt = pseries_unhalt,
	.yield_turn = pseries_yield_turn,
	.watchdog_start = pseries_watchdog_start,
	.watchdog_stop = pseries_watchdog_stop,
	.interrupts_init_cpu = pseries_interrupts_init_cpu,
	.external_interrupt = pseries_external_interrupt,
	.irq_route = pseries_irq_route,
	.hpt = HPT_HYPERVISOR,
	.power_off = pseries_power_off,
	.reboot = pseries_reboot,
	.rtc_read = pseries_rtc_read,
};

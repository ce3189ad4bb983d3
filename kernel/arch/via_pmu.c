/* PMU99, the G5's power manager, over the VIA (Linux drivers/macintosh/via-pmu.c and QEMU
 * hw/misc/macio/pmu.c describe the protocol). A byte goes either way through the shift
 * register; each is handed over by pulling TREQ low, waiting for the PMU to pull TACK low,
 * releasing TREQ and waiting for TACK to come back. A command is its byte, its argument bytes
 * and then its reply bytes, their counts fixed per command (the PMU's own table; the commands
 * used here have no length byte). */
#include "mac_power.h"
#include "via.h"
#include "cpu.h"
#include "common/lib/spinlock.h"

#define PMU_TACK 0x08   /* port B input from the PMU, active low */
#define PMU_TREQ 0x10   /* port B output to the PMU, active low */
#define PMU_WAIT_US 100000

#define PMU_SET_INTR_MASK 0x70   /* 1 argument byte, no reply */
#define PMU_READ_RTC      0x38   /* no arguments, 4 reply bytes: seconds since 1904 */
#define PMU_SHUTDOWN      0x7e   /* "MATT", 1 reply byte */
#define PMU_RESET         0xd0   /* no arguments, no reply */
#define PMU_INT_ADB  0x10
#define PMU_INT_TICK 0x80

static struct spinlock pmu_lock;

static bool handshake(void)
{
	via_write(VIA_B, via_read(VIA_B) & ~PMU_TREQ);
	bool taken = via_wait_b(PMU_TACK, 0, PMU_WAIT_US);
	via_write(VIA_B, via_read(VIA_B) | PMU_TREQ);
	return taken && via_wait_b(PMU_TACK, PMU_TACK, PMU_WAIT_US);
}

static bool send_byte(uint8_t x)
{
	via_write(VIA_ACR, via_read(VIA_ACR) | VIA_ACR_SR_OUT | VIA_ACR_SR_EXT);
	via_write(VIA_SR, x);
	return handshake();
}

static bool recv_byte(uint8_t *x)
{
	via_write(VIA_ACR, (via_read(VIA_ACR) & ~VIA_ACR_SR_OUT) | VIA_ACR_SR_EXT);
	(void)via_read(VIA_SR);
	if (!handshake())
		return false;
	*x = via_read(VIA_SR);
	return true;
}

/* One command; false if the PMU stopped answering part-way (it then resynchronises on its
 * own: the next TREQ starts a new command once TACK is high). */
static bool pmu_command(uint8_t cmd, const uint8_t *args, unsigned nargs, uint8_t *reply,
			unsigned nreply)
{
	int irq = irq_save();
	spin_lock(&pmu_lock);
	bool ok = via_wait_b(PMU_TACK, PMU_TACK, PMU_WAIT_US) && send_byte(cmd);
	for (unsigned i = 0; ok && i < nargs; i++)
		ok = send_byte(args[i]);
	for (unsigned i = 0; ok && i < nreply; i++)
		ok = recv_byte(&reply[i]);
	spin_unlock(&pmu_lock);
	irq_restore(irq);
	return ok;
}

/* TREQ is ours (released), TACK the PMU's, as Linux's init_pmu sets them. */
static void pmu_init(void)
{
	via_write(VIA_B, via_read(VIA_B) | PMU_TREQ);
	via_write(VIA_DIRB, (uint8_t)((via_read(VIA_DIRB) | PMU_TREQ) & ~PMU_TACK));
}

/* Like Linux, first mask the PMU's own events so none is pending across the last command. */
static void quiet(void)
{
	uint8_t mask = PMU_INT_ADB | PMU_INT_TICK;
	pmu_command(PMU_SET_INTR_MASK, &mask, 1, 0, 0);
}

static void pmu_power_off(void)
{
	static const uint8_t matt[4] = { 'M', 'A', 'T', 'T' };
	uint8_t status;
	quiet();
	pmu_command(PMU_SHUTDOWN, matt, 4, &status, 1);
}

static void pmu_reboot(void)
{
	quiet();
	pmu_command(PMU_RESET, 0, 0, 0, 0);
}

static bool pmu_rtc_read(int64_t *unix_seconds)
{
	uint8_t b[4];
	if (!pmu_command(PMU_READ_RTC, 0, 0, b, 4))
		return false;
	*unix_seconds = mac_clock_to_unix(b);
	return true;
}

const struct mac_power via_pmu = {
	.name = "PMU99",
	.init = pmu_init,
	.power_off = pmu_power_off,
	.reboot = pmu_reboot,
	.rtc_read = pmu_rtc_read,
};

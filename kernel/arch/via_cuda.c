/* CUDA, the system controller of QEMU's plain mac99 (and of Macs before the G5), over the VIA
 * (Linux drivers/macintosh/via-cuda.c and QEMU hw/misc/macio/cuda.c describe it). The host
 * sends a packet by pulling TIP low with the first byte in the shift register and toggling
 * TACK for each further byte, then releases both; CUDA pulls TREQ low when it has a packet to
 * send back, which the host clocks in the same way until CUDA releases TREQ with the last
 * byte. Every step waits for the shift register's flag in IFR. */
#include "mac_power.h"
#include "via.h"
#include "cpu.h"
#include "common/lib/spinlock.h"

#define CUDA_TREQ 0x08   /* port B input from CUDA, active low */
#define CUDA_TACK 0x10
#define CUDA_TIP  0x20   /* port B outputs to CUDA; TIP active low */
#define CUDA_WAIT_US 100000
#define CUDA_PACKET_TYPE 1
#define CUDA_GET_TIME     0x03   /* reply: type, flag, command, 4 bytes of seconds since 1904 */
#define CUDA_POWERDOWN    0x0a
#define CUDA_RESET_SYSTEM 0x11
#define CUDA_REPLY_MAX 16
#define CUDA_PACKET_MAX 256   /* longer than any packet CUDA sends */

static struct spinlock cuda_lock;

static void release(void)
{
	via_write(VIA_B, via_read(VIA_B) | CUDA_TIP | CUDA_TACK);
}

/* Clocks in the packet CUDA announced with TREQ; its length, or -1. */
static int receive(uint8_t *reply, unsigned cap)
{
	if (!via_wait_b(CUDA_TREQ, 0, CUDA_WAIT_US))
		return -1;
	via_write(VIA_ACR, via_read(VIA_ACR) & ~VIA_ACR_SR_OUT);
	(void)via_read(VIA_SR);
	via_write(VIA_B, via_read(VIA_B) & ~CUDA_TIP);
	unsigned n = 0;
	for (;;) {
		/* A controller that never releases TREQ must not hold the kernel here. */
		if (n == CUDA_PACKET_MAX || !via_wait_sr(CUDA_WAIT_US)) {
			release();
			return -1;
		}
		uint8_t byte = via_read(VIA_SR);
		if (n < cap)
			reply[n] = byte;
		n++;
		if (via_read(VIA_B) & CUDA_TREQ)
			break;   /* that was the last byte */
		via_write(VIA_B, via_read(VIA_B) ^ CUDA_TACK);
	}
	release();
	if (via_wait_sr(CUDA_WAIT_US))
		(void)via_read(VIA_SR);
	return n > cap ? (int)cap : (int)n;
}

static bool send(const uint8_t *packet, unsigned n)
{
	via_write(VIA_ACR, via_read(VIA_ACR) | VIA_ACR_SR_OUT);
	for (unsigned i = 0; i < n; i++) {
		via_write(VIA_SR, packet[i]);
		if (i == 0)
			via_write(VIA_B, via_read(VIA_B) & ~CUDA_TIP);
		else
			via_write(VIA_B, via_read(VIA_B) ^ CUDA_TACK);
		if (!via_wait_sr(CUDA_WAIT_US)) {
			release();
			return false;
		}
		(void)via_read(VIA_SR);
	}
	via_write(VIA_ACR, via_read(VIA_ACR) & ~VIA_ACR_SR_OUT);
	(void)via_read(VIA_SR);
	release();
	if (via_wait_sr(CUDA_WAIT_US))
		(void)via_read(VIA_SR);
	return true;
}

/* One CUDA command and its reply (type, flag, command, data); the reply's length or -1. */
static int cuda_command(uint8_t cmd, uint8_t *reply, unsigned cap)
{
	uint8_t packet[2] = { CUDA_PACKET_TYPE, cmd };
	uint8_t stale[CUDA_REPLY_MAX];
	int irq = irq_save();
	spin_lock(&cuda_lock);
	/* A packet CUDA already announced (an ADB event, say) is read first and dropped. */
	for (int i = 0; i < 4 && !(via_read(VIA_B) & CUDA_TREQ); i++)
		receive(stale, sizeof stale);
	int n = send(packet, 2) ? receive(reply, cap) : -1;
	spin_unlock(&cuda_lock);
	irq_restore(irq);
	return n;
}

/* Port B's direction is the firmware's (OpenBIOS and QEMU's reset make TIP and TACK
 * outputs); only the idle levels are set here. */
static void cuda_init(void)
{
	release();
}

static void cuda_power_off(void)
{
	uint8_t reply[CUDA_REPLY_MAX];
	cuda_command(CUDA_POWERDOWN, reply, sizeof reply);
}

static void cuda_reboot(void)
{
	uint8_t reply[CUDA_REPLY_MAX];
	cuda_command(CUDA_RESET_SYSTEM, reply, sizeof reply);
}

static bool cuda_rtc_read(int64_t *unix_seconds)
{
	uint8_t r[CUDA_REPLY_MAX];
	int n = cuda_command(CUDA_GET_TIME, r, sizeof r);
	if (n < 7 || r[0] != CUDA_PACKET_TYPE || r[2] != CUDA_GET_TIME)
		return false;
	*unix_seconds = mac_clock_to_unix(&r[3]);
	return true;
}

const struct mac_power via_cuda = {
	.name = "CUDA",
	.init = cuda_init,
	.power_off = cuda_power_off,
	.reboot = cuda_reboot,
	.rtc_read = cuda_rtc_read,
};

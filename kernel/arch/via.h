/* The 6522 VIA in the mac-io chip through which the Power Mac's system controller (CUDA on
 * older machines and QEMU's plain mac99, PMU99 on the G5 and mac99,via=pmu) is reached: both
 * speak over its shift register with handshake lines on port B, polled here (the kernel never
 * takes the VIA's interrupt). Registers are 512 bytes apart; accesses go cache-inhibited with
 * translation off (realmode_io.S), so they work before and after the MMU is on. */
#ifndef KOV_VIA_H
#define KOV_VIA_H

#include <stdint.h>
#include <stdbool.h>

enum via_reg { VIA_B = 0, VIA_DIRB = 2, VIA_SR = 10, VIA_ACR = 11, VIA_IFR = 13, VIA_IER = 14 };

#define VIA_ACR_SR_EXT 0x0c   /* shift on the controller's clock */
#define VIA_ACR_SR_OUT 0x10   /* shift out (host to controller) */
#define VIA_IFR_SR     0x04   /* the shift register filled or emptied */

/* The VIA's physical base (mac-io base + the node's reg), set by platform_mac99.c. */
extern uint64_t via_base;

uint8_t via_read(enum via_reg reg);
void via_write(enum via_reg reg, uint8_t v);

/* Waits until (port B & mask) == want, at most timeout_us; false on timeout. */
bool via_wait_b(uint8_t mask, uint8_t want, unsigned timeout_us);

/* Waits for the shift-register flag in IFR, at most timeout_us; false on timeout. */
bool via_wait_sr(unsigned timeout_us);

#endif

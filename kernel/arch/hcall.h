/* PAPR hypervisor calls, as QEMU's pseries machine implements them. */
#ifndef KOV_HCALL_H
#define KOV_HCALL_H

#include <stdint.h>

#define H_SUCCESS    0
#define H_BUSY       1
#define H_PTEG_FULL  (-6)

#define H_REMOVE         0x04
#define H_ENTER          0x08
#define H_EOI            0x64
#define H_CPPR           0x68
#define H_IPI            0x6C
#define H_XIRR           0x74
#define H_CEDE           0xE0
#define H_CONFER         0xE4
#define H_PROD           0xE8   /* PAPR: 0xE4 is H_CONFER (it was used here by mistake) */
#define H_GET_TERM_CHAR  0x54
#define H_PUT_TERM_CHAR  0x58
#define H_PUT_TCE        0x20
#define H_VIO_SIGNAL     0x104
#define H_REGISTER_LOGICAL_LAN   0x114
#define H_FREE_LOGICAL_LAN       0x118
#define H_ADD_LOGICAL_LAN_BUFFER 0x11C
#define H_SEND_LOGICAL_LAN       0x120
#define H_WATCHDOG       0x45C
#define KVMPPC_H_RTAS    0xF000  /* QEMU's private call that runs an RTAS service */

long hcall(uint64_t opcode, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
	   uint64_t a6);
/* For calls with up to eight arguments (H_SEND_LOGICAL_LAN). */
long hcall8(uint64_t opcode, uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4, uint64_t a5,
	    uint64_t a6, uint64_t a7, uint64_t a8);
long hcall_out(uint64_t out[3], uint64_t opcode, uint64_t a1, uint64_t a2, uint64_t a3,
	       uint64_t a4);
/* H_CEDE; hcall_cede_return is the address it returns to, *sp the stack pointer there
 * (wake_guard.c resumes a CPU there). */
long hcall_cede(uint64_t *sp);
extern char hcall_cede_return[];

#endif

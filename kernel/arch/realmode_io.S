/* Cache-inhibited device access with translation off on the 970. Real-mode accesses are
 * cacheable unless HID4[RM_CI] is set, so each access sets it around a single load or store,
 * with the synchronisation the 970 requires for HID4 changes (and an ERAT flush by slbia). */
#include "asm.h"

#define HID4_RM_CI_SHIFTED 0x100	/* RM_CI is bit 40; set via a 32-bit rotate */

/* Data translation goes off for the access (instruction fetch may stay translated). */
#define RM_CI_ON                     \
	mfmsr	r7;                  \
	li	r0, MSR_DR;          \
	andc	r0, r7, r0;          \
	sync;                        \
	mtmsrd	r0;                  \
	isync;                       \
	mfspr	r6, SPRN_HID4;       \
	rldicl	r5, r6, 32, 0;       \
	ori	r5, r5, HID4_RM_CI_SHIFTED; \
	rldicl	r5, r5, 32, 0;       \
	sync;                        \
	mtspr	SPRN_HID4, r5;       \
	isync;                       \
	slbia;                       \
	isync

#define RM_CI_OFF                    \
	sync;                        \
	mtspr	SPRN_HID4, r6;       \
	isync;                       \
	slbia;                       \
	isync;                       \
	mtmsrd	r7;                  \
	isync

	.text
/* uint8_t real_ci_read8(uint64_t phys) */
FUNC(real_ci_read8)
	clrldi	r3, r3, 4
	RM_CI_ON
	lbz	r3, 0(r3)
	RM_CI_OFF
	blr
ENDFUNC(real_ci_read8)

/* void real_ci_write8(uint64_t phys, uint8_t value) */
FUNC(real_ci_write8)
	clrldi	r3, r3, 4
	RM_CI_ON
	stb	r4, 0(r3)
	RM_CI_OFF
	blr
ENDFUNC(real_ci_write8)

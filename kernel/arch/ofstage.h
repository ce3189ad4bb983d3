/* What the Open Firmware stage did (for the boot log; zero when booted without firmware). */
#ifndef KOV_OFSTAGE_H
#define KOV_OFSTAGE_H

#include <stdint.h>

struct of_stage_stats {
	uint64_t tb_start, tb_flattened, tb_done;   /* timebase at each step */
	uint32_t nodes, props, fdt_size;
};

extern struct of_stage_stats of_stage_stats;

#endif

/* libFuzzer target: the recording reader (gui/client/recording.c), as kovctl replay and the
 * viewer's --replay use it: the magic, then records until the end or the first damaged one.
 * Every frame it hands out must have validated, and fit in the file. */
#include <stdio.h>
#include <stdlib.h>
#include "client/recording.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	FILE *f = fmemopen((void *)data, size, "rb");
	if (!f)
		return 0;
	if (kov_rec_open(f)) {
		struct kov_frame fr;
		uint64_t ns;
		while (kov_rec_next(f, &fr, &ns) == 1) {
			if (proto_validate(&fr.f) != 0 || fr.len != PROTO_HEADER_SIZE + fr.f.size ||
			    fr.len > size)
				abort();
			kov_frame_free(&fr);
		}
	}
	fclose(f);
	return 0;
}

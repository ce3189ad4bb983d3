/* libFuzzer target: the recording reader (gui/client/recording.c), as kovctl replay and the
 * viewer's --replay use it: the magic, then records until the end or the first damaged one.
 * Every frame it hands out must have validated, and fit in the file; and no record's frame,
 * however damaged, may be refused as INTERNAL (the codec's own failure), which the reader
 * would otherwise hide behind its "damaged" verdict. */
#include <stdio.h>
#include <stdlib.h>
#include "client/recording.h"
#include "common/lib/bytes.h"

/* The records after the 8-byte magic: u64 time, u32 length, the frame. */
static void no_internal(const uint8_t *data, size_t size)
{
	for (size_t at = 8; at + 12 <= size;) {
		uint32_t len = be32_load(data + at + 8);
		at += 12;
		if (len > size - at)
			len = (uint32_t)(size - at);
		struct proto_frame f;
		if (proto_frame_parse(data + at, len, &f) > 0 && proto_validate(&f) == -PROTO_E_INTERNAL)
			abort();
		at += len;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	no_internal(data, size);
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

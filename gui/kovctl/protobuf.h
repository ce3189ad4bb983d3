/* A protocol-buffers writer (the wire format of protobuf's encoding guide), enough for pprof's
 * profile.proto: varints, 64-bit zigzag-free integers as varints, strings and nested
 * messages, into a growing buffer; and gzip (RFC 1952) of stored deflate blocks, which every
 * inflater reads. */
#ifndef KOV_KOVCTL_PROTOBUF_H
#define KOV_KOVCTL_PROTOBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct pb {
	uint8_t *buf;
	size_t len, cap;
	bool oom;                    /* sticky: a write that could not grow the buffer */
};

void pb_varint(struct pb *b, uint64_t v);
/* Field `field` of wire type varint (int64, uint64, bool: negative values never written). */
void pb_uint(struct pb *b, uint32_t field, uint64_t v);
/* Field of wire type length-delimited: bytes, a string, or an encoded message. */
void pb_bytes(struct pb *b, uint32_t field, const void *data, size_t len);
void pb_free(struct pb *b);

/* Writes data as a gzip member; false on a write error. */
bool gzip_stored(FILE *out, const uint8_t *data, size_t len);

#endif

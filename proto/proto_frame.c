/* Frames: parsing one from a buffer, and the streaming reader that assembles them from the
 * arbitrary chunks a TCP connection delivers. */
#include "proto_wire.h"

/* The length field counts type, flags, request id and payload. */
#define LENGTH_MIN (PROTO_HEADER_SIZE - 4)

static int check_length(uint32_t length, size_t limit)
{
	if (length < LENGTH_MIN)
		return PROTO_E_LENGTH;
	if (length > limit - 4)
		return PROTO_E_TOO_BIG;
	return 0;
}

int proto_frame_parse(const void *buf, size_t len, struct proto_frame *f)
{
	const uint8_t *b = buf;
	if (len < 4)
		return -PROTO_E_TRUNCATED;
	uint32_t length = be32_load(b);
	int err = check_length(length, PROTO_MAX_FRAME);
	if (err)
		return -err;
	if (len - 4 < length)
		return -PROTO_E_TRUNCATED;
	f->type = be16_load(b + 4);
	f->flags = be16_load(b + 6);
	f->req = be32_load(b + 8);
	f->payload = b + PROTO_HEADER_SIZE;
	f->size = length - LENGTH_MIN;
	return (int)(length + 4);
}

void proto_frame_set_flags(void *frame, uint16_t flags)
{
	be16_store((uint8_t *)frame + 6, flags);
}

void proto_reader_init(struct proto_reader *r, void *buf, size_t cap)
{
	r->buf = buf;
	r->cap = cap < PROTO_MAX_FRAME ? cap : PROTO_MAX_FRAME;
	r->have = 0;
	r->want = 4;
	r->err = 0;
	r->ready = false;
}

int proto_reader_feed(struct proto_reader *r, const uint8_t **data, size_t *n,
                      struct proto_frame *f)
{
	if (r->err)
		return -r->err;
	if (r->ready) {
		r->ready = false;
		r->have = 0;
		r->want = 4;
	}
	if (r->cap < PROTO_HEADER_SIZE) {
		r->err = PROTO_E_TOO_BIG;
		return -r->err;
	}
	while (*n > 0) {
		size_t take = r->want - r->have;
		if (take > *n)
			take = *n;
		memcpy(r->buf + r->have, *data, take);
		r->have += take;
		*data += take;
		*n -= take;
		if (r->have < r->want)
			return 0;
		if (r->want == 4) {
			/* The prefix decides before any payload is buffered. */
			uint32_t length = be32_load(r->buf);
			r->err = check_length(length, r->cap);
			if (r->err)
				return -r->err;
			r->want = (size_t)length + 4;
			continue;
		}
		proto_frame_parse(r->buf, r->have, f);
		r->ready = true;
		return 1;
	}
	return 0;
}

size_t proto_reader_pending(const struct proto_reader *r)
{
	return r->ready ? 0 : r->have;
}

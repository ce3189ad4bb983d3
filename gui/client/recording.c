/* Recordings of a protocol stream (gui/client/recording.h). */
#include <stdlib.h>
#include <string.h>
#include "client/recording.h"
#include "common/lib/bytes.h"

static const uint8_t magic[8] = { 'K', 'O', 'V', 'R', 'E', 'C', 0, 1 };

bool kov_rec_begin(FILE *f)
{
	return fwrite(magic, 1, sizeof magic, f) == sizeof magic;
}

bool kov_rec_write(FILE *f, uint64_t ns, const struct proto_frame *fr)
{
	uint8_t head[12 + PROTO_HEADER_SIZE];
	uint32_t len = PROTO_HEADER_SIZE + fr->size;
	be64_store(head, ns);
	be32_store(head + 8, len);
	be32_store(head + 12, len - 4);
	be16_store(head + 16, fr->type);
	be16_store(head + 18, fr->flags);
	be32_store(head + 20, fr->req);
	return fwrite(head, 1, sizeof head, f) == sizeof head &&
	       fwrite(fr->payload, 1, fr->size, f) == fr->size;
}

bool kov_rec_write_target(FILE *f, uint64_t ns, const struct kov_target *t)
{
	struct proto_server_hello h = {
		PROTO_MAGIC, t->major, t->minor, 0, (uint16_t)t->role, t->client_id ? t->client_id : 1,
		proto_cstr(""), { t->timebase_hz, t->timebase_now, t->memory, t->pvr, t->cpus, t->events,
				  proto_cstr(t->profile), proto_cstr(t->model), proto_cstr(t->pmu),
				  proto_cstr(t->build_id), proto_cstr(t->server), t->cpus_run } };
	static uint8_t buf[PROTO_MAX_FRAME];
	/* As the target sent it: a 1.5 target's says how its CPUs ran. */
	int n = kov_target_reports_machine(t) ?
		proto_encode_server_hello_ex(buf, sizeof buf, 1, 0, &h) :
		proto_encode_server_hello(buf, sizeof buf, 1, 0, &h);
	struct proto_frame fr;
	return n > 0 && proto_frame_parse(buf, (size_t)n, &fr) == n && kov_rec_write(f, ns, &fr);
}

bool kov_rec_read_target(const struct proto_frame *fr, struct kov_target *t)
{
	struct proto_server_hello h;
	if (!proto_is_server_hello(fr->type) || proto_decode_any_server_hello(fr, &h) < 0 ||
	    h.status)
		return false;
	kov_target_from_hello(t, &h);
	return true;
}

bool kov_rec_open(FILE *f)
{
	uint8_t m[8];
	return fread(m, 1, sizeof m, f) == sizeof m && !memcmp(m, magic, sizeof m);
}

int kov_rec_next(FILE *f, struct kov_frame *fr, uint64_t *ns)
{
	uint8_t head[12];
	size_t got = fread(head, 1, sizeof head, f);
	if (got == 0)
		return 0;
	uint32_t len = got == sizeof head ? be32_load(head + 8) : 0;
	if (len < PROTO_HEADER_SIZE || len > PROTO_MAX_FRAME)
		return -1;
	*fr = (struct kov_frame){ .bytes = malloc(len), .len = len };
	if (!fr->bytes || fread(fr->bytes, 1, len, f) != len ||
	    proto_frame_parse(fr->bytes, len, &fr->f) != (int)len || proto_validate(&fr->f) < 0) {
		kov_frame_free(fr);
		return -1;
	}
	*ns = be64_load(head);
	return 1;
}

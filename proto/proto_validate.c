/* Validation of a frame of any type: the daemon checks a frame once before dispatching on
 * its type, and the tests run every mutated frame through here. It walks the codec's table
 * (proto/proto_wire.h), so every message the codec knows is validated as its decoder decodes it. */
#include "proto_wire.h"

/* A configuration decodes into 6.5 KiB; only its own frames pay for that much stack. */
static __attribute__((noinline)) int decode_config(const struct proto_frame *f)
{
	struct proto_pmu_config m;
	return proto_decode_pmu_config(f, &m);
}

/* Every record is read back through the iterator too, so nothing a decoder accepted can trip
 * the iterator later. */
static int walk_list(const struct proto_frame *f)
{
	union proto_any_head head;
	union proto_any_record rec;
	struct proto_iter it;
	int err = proto_list_decode(f, f->type, &head, &it);
	if (err)
		return err;
	uint32_t n = proto_iter_left(&it);
	while (proto_list_next(&it, f->type, &rec))
		n--;
	/* Decoder and iterator walk the same layouts over the same bytes: if they disagree, the
	 * codec contradicts itself, which no frame can be blamed for. */
	return n == 0 ? 0 : -PROTO_E_INTERNAL;
}

/* Packed samples are not in the table (proto_packed.c): decoded and read back the same way. */
static int walk_packed(const struct proto_frame *f)
{
	struct proto_samples_head h;
	struct proto_sample s;
	struct proto_iter it;
	int err = proto_decode_samples_packed(f, &h, &it);
	if (err)
		return err;
	uint32_t n = proto_iter_left(&it);
	while (proto_next_sample_packed(&it, &s))
		n--;
	return n == 0 ? 0 : -PROTO_E_INTERNAL;
}

int proto_validate(const struct proto_frame *f)
{
	if (f->type == PROTO_SAMPLES_PACKED)
		return walk_packed(f);
	const struct proto_message *m = proto_message(f->type);
	if (!m)
		return -PROTO_E_UNKNOWN_TYPE;
	/* A structure larger than the scratch unions is the table's defect (test_proto_table
	 * checks every one fits), never the frame's. */
	if (m->rec)
		return m->body->size <= sizeof(union proto_any_head) &&
		       m->rec->size <= sizeof(union proto_any_record) ? walk_list(f) : -PROTO_E_INTERNAL;
	if (f->type == PROTO_PMU_CONFIG)
		return decode_config(f);
	if (m->body && m->body->size > sizeof(union proto_any_fixed))
		return -PROTO_E_INTERNAL;
	union proto_any_fixed small;
	return proto_decode_fixed(f, f->type, &small);
}

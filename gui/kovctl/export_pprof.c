/* pprof's profile.proto (gui/kovctl/export.h). Field numbers from profile.proto:
 *   Profile: sample_type 1, sample 2, location 4, function 5, string_table 6,
 *            period_type 11, period 12
 *   ValueType: type 1, unit 2 (string indices)
 *   Sample: location_id 1 (leaf first), value 2, label 3
 *   Label: key 1, str 2
 *   Location: id 1, address 3, line 4;  Line: function_id 1
 *   Function: id 1, name 2, system_name 3, filename 4 (the program)
 * Strings: index 0 is "", then the fixed ones, then frame names from STR_NAMES, then their
 * programs. Frame i is function and location i + 1. */
#include <stdlib.h>
#include <string.h>
#include "kovctl/export.h"
#include "kovctl/protobuf.h"

enum { STR_EMPTY, STR_SAMPLES, STR_COUNT, STR_EVENTS, STR_PROCESS, STR_NAMES };
static const char *const fixed[STR_NAMES] = { "", "samples", "count", "events", "process" };

static void value_type(struct pb *b, uint32_t field, uint64_t type, uint64_t unit)
{
	struct pb m = { 0 };
	pb_uint(&m, 1, type);
	pb_uint(&m, 2, unit);
	pb_bytes(b, field, m.buf, m.len);
	b->oom |= m.oom;
	pb_free(&m);
}

int export_pprof(const struct kov_profile *p, FILE *out)
{
	struct pb b = { 0 }, m = { 0 }, ids = { 0 }, vals = { 0 };
	value_type(&b, 1, STR_SAMPLES, STR_COUNT);
	value_type(&b, 1, STR_EVENTS, STR_COUNT);
	for (size_t i = 0; i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		m.len = ids.len = vals.len = 0;
		for (uint32_t k = s->depth; k-- > 1;)   /* leaf first; the root is a label */
			pb_varint(&ids, s->frames[k] + 1ull);
		if (s->depth == 1)
			pb_varint(&ids, s->frames[0] + 1ull);
		pb_bytes(&m, 1, ids.buf, ids.len);
		pb_varint(&vals, s->samples);
		pb_varint(&vals, s->events);
		pb_bytes(&m, 2, vals.buf, vals.len);
		struct pb label = { 0 };
		pb_uint(&label, 1, STR_PROCESS);
		pb_uint(&label, 2, STR_NAMES + (uint64_t)s->frames[0]);
		pb_bytes(&m, 3, label.buf, label.len);
		m.oom |= label.oom;
		pb_free(&label);
		pb_bytes(&b, 2, m.buf, m.len);
	}
	for (size_t i = 0; i < p->n_names; i++) {
		struct pb line = { 0 }, loc = { 0 };
		pb_uint(&line, 1, i + 1);
		pb_uint(&loc, 1, i + 1);
		pb_bytes(&loc, 4, line.buf, line.len);
		pb_bytes(&b, 4, loc.buf, loc.len);
		b.oom |= line.oom | loc.oom;
		pb_free(&line);
		pb_free(&loc);
		struct pb fn = { 0 };
		pb_uint(&fn, 1, i + 1);
		pb_uint(&fn, 2, STR_NAMES + i);
		pb_uint(&fn, 3, STR_NAMES + i);
		pb_uint(&fn, 4, STR_NAMES + p->n_names + i);
		pb_bytes(&b, 5, fn.buf, fn.len);
		b.oom |= fn.oom;
		pb_free(&fn);
	}
	for (int i = 0; i < STR_NAMES; i++)
		pb_bytes(&b, 6, fixed[i], strlen(fixed[i]));
	for (size_t i = 0; i < p->n_names; i++)
		pb_bytes(&b, 6, p->names[i], strlen(p->names[i]));
	for (size_t i = 0; i < p->n_names; i++)
		pb_bytes(&b, 6, p->files[i], strlen(p->files[i]));
	value_type(&b, 11, STR_SAMPLES, STR_COUNT);
	pb_uint(&b, 12, 1);
	bool ok = !(b.oom || m.oom || ids.oom || vals.oom) && gzip_stored(out, b.buf, b.len);
	pb_free(&b), pb_free(&m), pb_free(&ids), pb_free(&vals);
	return ok ? 0 : -1;
}

/* speedscope's file format (gui/kovctl/export.h), built as one jansson document. */
#include <jansson.h>
#include <string.h>
#include "kovctl/export.h"
#include "client/json_text.h"

/* Adds v to array a, or k: v to object o, taking v (also when it fails); false when v is
 * NULL or the add failed. A value added is borrowed after. */
static bool push(json_t *a, json_t *v)
{
	return a && v && json_array_append_new(a, v) == 0;
}

static bool set(json_t *o, const char *k, json_t *v)
{
	return o && v && json_object_set_new(o, k, v) == 0;
}

static json_t *string(const char *s)
{
	return json_text_string_value(s, strlen(s));
}

/* shared.frames: every frame name with its file. */
static json_t *frames(const struct kov_profile *p)
{
	json_t *a = json_array();
	for (size_t i = 0; a && i < p->n_names; i++) {
		json_t *f = json_object();
		if (!push(a, f) || !set(f, "name", string(p->names[i])) ||
		    !set(f, "file", string(p->files[i]))) {
			json_decref(a);
			return NULL;
		}
	}
	return a;
}

/* The sampled profile: each stack's frame indices, and its weight in samples. */
static json_t *profile(const struct kov_profile *p)
{
	json_t *o = json_object(), *samples = NULL, *weights = NULL;
	bool ok = set(o, "type", json_string("sampled")) && set(o, "name", json_string("samples")) &&
		  set(o, "unit", json_string("none")) && set(o, "startValue", json_integer(0)) &&
		  set(o, "endValue", json_integer((json_int_t)p->samples)) &&
		  set(o, "samples", samples = json_array()) && set(o, "weights", weights = json_array());
	for (size_t i = 0; ok && i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		json_t *stack = json_array();
		ok = push(samples, stack);
		for (uint32_t k = 0; ok && k < s->depth; k++)
			ok = push(stack, json_integer(s->frames[k]));
		ok = ok && push(weights, json_integer((json_int_t)s->samples));
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

int export_speedscope(const struct kov_profile *p, FILE *out)
{
	json_t *doc = json_object(), *shared = NULL, *profiles = NULL;
	bool ok = set(doc, "$schema", json_string("https://www.speedscope.app/file-format-schema.json")) &&
		  set(doc, "exporter", json_string("kovctl export")) &&
		  set(doc, "name", json_string("KOV samples")) &&
		  set(doc, "activeProfileIndex", json_integer(0)) &&
		  set(doc, "shared", shared = json_object()) && set(shared, "frames", frames(p)) &&
		  set(doc, "profiles", profiles = json_array()) && push(profiles, profile(p));
	ok = ok && json_dumpf(doc, out, JSON_COMPACT) == 0 && fputc('\n', out) != EOF;
	json_decref(doc);
	return ok && !ferror(out) ? 0 : -1;
}

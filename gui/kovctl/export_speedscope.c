/* speedscope's file format (gui/kovctl/export.h). */
#include "kovctl/export.h"

static void json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

int export_speedscope(const struct kov_profile *p, FILE *out)
{
	fputs("{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\","
	      "\"exporter\":\"kovctl export\",\"name\":\"KOV samples\",\"activeProfileIndex\":0,"
	      "\"shared\":{\"frames\":[", out);
	for (size_t i = 0; i < p->n_names; i++) {
		fputs(i ? ",{\"name\":" : "{\"name\":", out);
		json_string(out, p->names[i]);
		fputs(",\"file\":", out);
		json_string(out, p->files[i]);
		fputc('}', out);
	}
	fprintf(out, "]},\"profiles\":[{\"type\":\"sampled\",\"name\":\"samples\",\"unit\":\"none\","
		"\"startValue\":0,\"endValue\":%llu,\"samples\":[", (unsigned long long)p->samples);
	for (size_t i = 0; i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		fputs(i ? ",[" : "[", out);
		for (uint32_t k = 0; k < s->depth; k++)
			fprintf(out, k ? ",%u" : "%u", (unsigned)s->frames[k]);
		fputc(']', out);
	}
	fputs("],\"weights\":[", out);
	for (size_t i = 0; i < p->n_stacks; i++)
		fprintf(out, i ? ",%llu" : "%llu", (unsigned long long)p->stacks[i].samples);
	fputs("]}]}\n", out);
	return ferror(out) ? -1 : 0;
}

/* Folded stacks (gui/kovctl/export.h). Frame names never hold ';' or a line break here:
 * symbols and class names could, so such bytes are written as '_'. */
#include "kovctl/export.h"

static void name(FILE *out, const char *s)
{
	for (; *s; s++)
		fputc(*s == ';' || *s == '\n' || *s == '\r' ? '_' : *s, out);
}

int export_folded(const struct kov_profile *p, FILE *out)
{
	for (size_t i = 0; i < p->n_stacks; i++) {
		const struct kov_profile_stack *s = &p->stacks[i];
		for (uint32_t k = 0; k < s->depth; k++) {
			if (k)
				fputc(';', out);
			name(out, p->names[s->frames[k]]);
		}
		fprintf(out, " %llu\n", (unsigned long long)s->samples);
	}
	return ferror(out) ? -1 : 0;
}

/* kovctl export FILE --format F [--out OUT] [--event E]: a recording's samples and call
 * chains in a profiler's format (gui/kovctl/export.h). No target is needed. */
#include <stdlib.h>
#include <string.h>
#include "kovctl/kovctl.h"
#include "kovctl/export.h"

int cmd_export(struct kovctl *k)
{
	FILE *in = fopen(k->o->file, "rb");
	if (!in) {
		fprintf(stderr, "kovctl: cannot open %s\n", k->o->file);
		return EXIT_USAGE;
	}
	static struct kov_profile p;
	char err[200];
	int rc = kov_profile_load(in, k->o->event, &p, err, sizeof err);
	fclose(in);
	if (rc) {
		fprintf(stderr, "kovctl: %s: %s\n", k->o->file, err);
		return EXIT_USAGE;
	}
	if (!p.samples) {
		fprintf(stderr, "kovctl: %s holds no samples%s%s\n", k->o->file,
			k->o->event ? " of " : "", k->o->event ? k->o->event : "");
		kov_profile_free(&p);
		return EXIT_TARGET;
	}
	FILE *out = k->o->out ? fopen(k->o->out, "wb") : stdout;
	if (!out) {
		fprintf(stderr, "kovctl: cannot create %s\n", k->o->out);
		kov_profile_free(&p);
		return EXIT_USAGE;
	}
	const char *f = k->o->format;
	rc = !strcmp(f, "folded") ? export_folded(&p, out) :
	     !strcmp(f, "callgrind") ? export_callgrind(&p, out) :
	     !strcmp(f, "pprof") ? export_pprof(&p, out) : export_speedscope(&p, out);
	if ((out != stdout && fclose(out) != 0) || (out == stdout && fflush(out) != 0))
		rc = -1;
	if (rc)
		fprintf(stderr, "kovctl: writing %s failed\n", k->o->out ? k->o->out : "the output");
	else
		fprintf(stderr, "kovctl: exported %llu samples (%llu with call chains%s) in %zu stacks "
			"as %s\n", (unsigned long long)p.samples, (unsigned long long)p.chained,
			p.unknown_chain ? ", others naming chains the recording never defined" : "", p.n_stacks, f);
	kov_profile_free(&p);
	return rc ? EXIT_TARGET : EXIT_OK;
}

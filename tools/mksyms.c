/* mksyms: reads `nm -n --synthetic` output of the linked kernel on stdin and writes the
 * binary symbol table (common/syms/ksyms.h) to stdout or to the file given with -o. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mksyms_lib.h"

static const char usage[] = "usage: mksyms [-o FILE] < nm-output\n";

static char *read_all(FILE *in, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		n += fread(buf + n, 1, cap - n, in);
		if (n < cap)
			break;
		char *bigger = cap * 2 > cap ? realloc(buf, cap * 2) : NULL;
		if (!bigger)
			free(buf);
		buf = bigger;
		cap *= 2;
	}
	*len = n;
	return buf;
}

int main(int argc, char **argv)
{
	const char *out_path = NULL;
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0) {
			if (i + 1 == argc) {
				fprintf(stderr, "mksyms: -o needs a file name\n%s", usage);
				return 2;
			}
			out_path = argv[++i];
		} else if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0) {
			fputs(usage, stdout);
			return 0;
		} else {
			fprintf(stderr, "mksyms: unexpected argument '%s'\n%s", argv[i], usage);
			return 2;
		}
	}

	size_t len;
	char *text = read_all(stdin, &len);
	if (!text) {
		fprintf(stderr, "mksyms: out of memory reading the input\n");
		return 1;
	}
	if (ferror(stdin)) {
		fprintf(stderr, "mksyms: reading standard input: %s\n", strerror(errno));
		return 1;
	}
	unsigned char *table;
	size_t size;
	char err[256];
	if (mksyms_build(text, len, &table, &size, err, sizeof err) != 0) {
		fprintf(stderr, "mksyms: standard input: %s\n", err);
		return 1;
	}
	free(text);

	FILE *out = out_path ? fopen(out_path, "wb") : stdout;
	const char *name = out_path ? out_path : "standard output";
	if (!out) {
		fprintf(stderr, "mksyms: %s: %s\n", name, strerror(errno));
		return 1;
	}
	int err_no = 0;
	if (fwrite(table, 1, size, out) != size || fflush(out) != 0)
		err_no = errno ? errno : EIO;
	if (out_path && fclose(out) != 0 && !err_no)
		err_no = errno ? errno : EIO;
	free(table);
	if (err_no) {
		fprintf(stderr, "mksyms: writing %s: %s\n", name, strerror(err_no));
		if (out_path)
			remove(out_path);   /* no half-written table for make to pick up */
		return 1;
	}
	return 0;
}

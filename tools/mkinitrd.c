/* mkinitrd: packs user programs and files into KOV's initial RAM disk (format in
 * kernel/mem/initrd.h).
 *   mkinitrd -o OUT FILE...     each FILE is stored under its base name, or under NAME when
 *                               given as NAME=PATH (httpd's pages: www/index.html=...) */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER 16
#define ENTRY 56
#define NAME 48

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24), p[1] = (uint8_t)(v >> 16), p[2] = (uint8_t)(v >> 8), p[3] = (uint8_t)v;
}

static int fail(const char *what, const char *name)
{
	fprintf(stderr, "mkinitrd: %s: %s\n", what, name);
	return 1;
}

int main(int argc, char **argv)
{
	if (argc < 3 || strcmp(argv[1], "-o") != 0)
		return fail("usage", "mkinitrd -o OUT FILE...");
	int n = argc - 3;
	size_t cap = HEADER + (size_t)n * ENTRY, len = cap;
	uint8_t *buf = calloc(1, cap);
	if (!buf)
		return fail("out of memory", "");
	memcpy(buf, "KOVINITR", 8);
	put32(buf + 8, (uint32_t)n);
	for (int i = 0; i < n; i++) {
		const char *path = argv[3 + i], *eq = strchr(path, '='), *base;
		size_t base_len;
		if (eq) {
			base = path, base_len = (size_t)(eq - path), path = eq + 1;
		} else {
			base = strrchr(path, '/');
			base = base ? base + 1 : path;
			base_len = strlen(base);
		}
		if (base_len == 0 || base_len >= NAME)
			return fail(base_len ? "name too long" : "empty name", argv[3 + i]);
		for (int j = 0; j < i; j++)
			if (strlen((char *)buf + HEADER + (size_t)j * ENTRY) == base_len &&
			    !memcmp(buf + HEADER + (size_t)j * ENTRY, base, base_len))
				return fail("two files with one name", argv[3 + i]);
		FILE *f = fopen(path, "rb");
		if (!f)
			return fail(strerror(errno), path);
		fseek(f, 0, SEEK_END);
		long size = ftell(f);
		fseek(f, 0, SEEK_SET);
		size_t off = (len + 7) & ~(size_t)7;
		if (size < 0 || off + (size_t)size > UINT32_MAX)
			return fail("file too large", path);
		uint8_t *grown = realloc(buf, off + (size_t)size);
		if (!grown)
			return fail("out of memory", path);
		buf = grown;
		memset(buf + len, 0, off - len);
		if (fread(buf + off, 1, (size_t)size, f) != (size_t)size)
			return fail("read error", path);
		fclose(f);
		uint8_t *e = buf + HEADER + (size_t)i * ENTRY;
		memset(e, 0, ENTRY);
		memcpy(e, base, base_len);
		put32(e + NAME, (uint32_t)off);
		put32(e + NAME + 4, (uint32_t)size);
		len = off + (size_t)size;
	}
	FILE *out = fopen(argv[2], "wb");
	if (!out || fwrite(buf, 1, len, out) != len || fclose(out) != 0)
		return fail("cannot write", argv[2]);
	free(buf);
	return 0;
}

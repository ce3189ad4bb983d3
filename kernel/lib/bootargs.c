#include "bootargs.h"

/* Finds `key` as a whole word; returns a pointer just after it, or NULL. */
static const char *find_key(const char *args, const char *key)
{
	const char *p = args;
	while (*p) {
		while (*p == ' ' || *p == '\t')
			p++;
		const char *k = key;
		const char *w = p;
		while (*k && *w == *k)
			k++, w++;
		if (*k == 0 && (*w == '=' || *w == ' ' || *w == '\t' || *w == 0))
			return w;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return 0;
}

int bootarg_str(const char *args, const char *key, char *out, size_t n)
{
	const char *p = args && key[0] ? find_key(args, key) : 0;
	if (!p)
		return 0;
	size_t len = 0;
	if (*p == '=')
		for (p++; p[len] && p[len] != ' ' && p[len] != '\t'; len++)
			;
	if (n > 0) {
		size_t copy = len < n - 1 ? len : n - 1;
		for (size_t i = 0; i < copy; i++)
			out[i] = p[i];
		out[copy] = 0;
	}
	return 1;
}

int bootarg_u64(const char *args, const char *key, uint64_t *out)
{
	char buf[24];
	const char *p = args && key[0] ? find_key(args, key) : 0;
	if (!p)
		return 0;
	if (*p != '=')
		return -1;
	size_t len = 0;
	for (p++; p[len] && p[len] != ' ' && p[len] != '\t'; len++)
		;
	if (len == 0 || len >= sizeof buf)
		return -1;
	bootarg_str(args, key, buf, sizeof buf);
	unsigned base = 10;
	const char *s = buf;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		if (!*s)
			return -1;
	}
	uint64_t v = 0;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else
			return -1;
		if (d >= base || v > (UINT64_MAX - d) / base)
			return -1;
		v = v * base + d;
	}
	*out = v;
	return 1;
}

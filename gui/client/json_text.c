/* JSON scalars through jansson (gui/client/json_text.h). */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "client/json_text.h"

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 if it is not one. jansson
 * refuses such strings outright; the writer must print whatever a target sent. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
	unsigned char c = s[0];
	size_t len;
	uint32_t cp, min;
	if (c < 0x80)
		return 1;
	if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
	else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
	else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
	else return 0;
	if (len > n)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3F);
	}
	if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return len;
}

/* Writes a value jansson made, or null if it could not (out of memory, a non-finite real). */
static void dump(FILE *out, json_t *v, size_t flags)
{
	if (!v || json_dumpf(v, out, JSON_ENCODE_ANY | flags) != 0)
		fputs("null", out);
	json_decref(v);
}

json_t *json_text_string_value(const char *str, size_t n)
{
	static const char replacement[] = "\xef\xbf\xbd";   /* U+FFFD */
	const unsigned char *s = (const unsigned char *)str;
	char *clean = malloc(3 * n + 1);
	size_t len = 0;
	if (!clean)
		return NULL;
	for (size_t i = 0; i < n; ) {
		size_t k = utf8_len(s + i, n - i);
		if (k == 0) {
			memcpy(clean + len, replacement, 3);     /* one invalid byte, one replacement */
			len += 3;
			i++;
		} else {
			memcpy(clean + len, s + i, k);
			len += k;
			i += k;
		}
	}
	json_t *v = json_stringn(clean, len);
	free(clean);
	return v;
}

void json_text_string(FILE *out, const char *str, size_t n)
{
	dump(out, json_text_string_value(str, n), 0);
}

void json_text_real(FILE *out, double v)
{
	dump(out, isfinite(v) ? json_real(v) : NULL, JSON_REAL_PRECISION(15));
}

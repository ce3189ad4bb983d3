/* The JSON writer (json.h). */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "kovctl/json.h"
#include "client/client.h"

void json_init(struct json *j, FILE *out, bool pretty)
{
	memset(j, 0, sizeof *j);
	j->out = out;
	j->pretty = pretty;
	j->first[0] = true;
}

static void newline(struct json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->out);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->out);
}

/* Before any value or key: the comma and line break that separate it from the previous. */
static void before(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (j->depth > 0) {
		if (!j->first[j->depth])
			fputc(',', j->out);
		newline(j);
	}
	j->first[j->depth] = false;
}

static void open_(struct json *j, char c)
{
	before(j);
	fputc(c, j->out);
	if (j->depth < JSON_MAX_DEPTH - 1)
		j->depth++;
	j->first[j->depth] = true;
}

static void close_(struct json *j, char c)
{
	bool empty = j->first[j->depth];
	if (j->depth > 0)
		j->depth--;
	if (!empty)
		newline(j);
	fputc(c, j->out);
}

void json_begin_object(struct json *j) { open_(j, '{'); }
void json_end_object(struct json *j) { close_(j, '}'); }
void json_begin_array(struct json *j) { open_(j, '['); }
void json_end_array(struct json *j) { close_(j, ']'); }

void json_key(struct json *j, const char *key)
{
	before(j);
	json_write_string(j->out, key, strlen(key));
	fputs(j->pretty ? ": " : ":", j->out);
	j->after_key = true;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), or 0 if it is not one:
 * no overlong forms, no surrogates, nothing above U+10FFFF. */
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

void json_write_string(FILE *out, const char *str, size_t n)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', out);
	for (size_t i = 0; i < n; ) {
		unsigned char c = s[i];
		const char *esc = NULL;
		switch (c) {
		case '"': esc = "\\\""; break;
		case '\\': esc = "\\\\"; break;
		case '\b': esc = "\\b"; break;
		case '\f': esc = "\\f"; break;
		case '\n': esc = "\\n"; break;
		case '\r': esc = "\\r"; break;
		case '\t': esc = "\\t"; break;
		default: break;
		}
		if (esc) {
			fputs(esc, out);
			i++;
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
			i++;
		} else {
			size_t len = utf8_len(s + i, n - i);
			if (len == 0) {
				fputs("\\ufffd", out);   /* one invalid byte, one replacement */
				i++;
			} else {
				fwrite(s + i, 1, len, out);
				i += len;
			}
		}
	}
	fputc('"', out);
}

void json_strn(struct json *j, const char *s, size_t n)
{
	before(j);
	json_write_string(j->out, s, n);
}

void json_str(struct json *j, const char *s)
{
	if (!s) {
		json_null(j);
		return;
	}
	json_strn(j, s, strlen(s));
}

void json_u64(struct json *j, uint64_t v)
{
	before(j);
	fprintf(j->out, "%" PRIu64, v);
}

void json_i64(struct json *j, int64_t v)
{
	before(j);
	fprintf(j->out, "%" PRId64, v);
}

void json_double(struct json *j, double v)
{
	before(j);
	if (!isfinite(v))
		fputs("null", j->out);
	else
		fprintf(j->out, "%.15g", v);
}

void json_bool(struct json *j, bool v)
{
	before(j);
	fputs(v ? "true" : "false", j->out);
}

void json_null(struct json *j)
{
	before(j);
	fputs("null", j->out);
}

void json_hex(struct json *j, uint64_t v)
{
	before(j);
	fprintf(j->out, "\"0x%" PRIx64 "\"", v);
}

void json_end(struct json *j)
{
	fputc('\n', j->out);
	fflush(j->out);
}

void json_kv_str(struct json *j, const char *key, const char *v) { json_key(j, key); json_str(j, v); }
void json_kv_u64(struct json *j, const char *key, uint64_t v) { json_key(j, key); json_u64(j, v); }
void json_kv_double(struct json *j, const char *key, double v) { json_key(j, key); json_double(j, v); }
void json_kv_bool(struct json *j, const char *key, bool v) { json_key(j, key); json_bool(j, v); }
void json_kv_hex(struct json *j, const char *key, uint64_t v) { json_key(j, key); json_hex(j, v); }
void json_kv_coid(struct json *j, const char *key, uint64_t coid)
{
	char buf[KOV_COID_CHARS];
	json_kv_str(j, key, kov_coid_str(coid, buf));
}

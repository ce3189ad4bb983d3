/* The JSON writer (json.h): the structure here, strings and reals encoded by jansson
 * (client/json_text.h). */
#include <inttypes.h>
#include <string.h>
#include "kovctl/json.h"
#include "client/client.h"
#include "client/json_text.h"

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

void json_write_string(FILE *out, const char *s, size_t n)
{
	json_text_string(out, s, n);
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
	json_text_real(j->out, v);
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

/* A small streaming JSON writer for kovctl --json: values are written as they are given (so
 * `watch` shows frames as they arrive), commas and indentation are placed automatically, and
 * strings and reals are encoded by jansson (client/json_text.h), so that any bytes
 * (target-supplied names included) come out as valid JSON and valid UTF-8: invalid sequences
 * become U+FFFD. Nesting deeper than JSON_MAX_DEPTH is a caller bug. */
#ifndef KOV_JSON_H
#define KOV_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json {
	FILE *out;
	int depth;
	bool pretty;
	bool after_key;              /* the next value completes a "key": pair */
	bool first[JSON_MAX_DEPTH];  /* nothing written yet at this level */
};

void json_init(struct json *j, FILE *out, bool pretty);
void json_begin_object(struct json *j);
void json_end_object(struct json *j);
void json_begin_array(struct json *j);
void json_end_array(struct json *j);
void json_key(struct json *j, const char *key);
void json_str(struct json *j, const char *s);
void json_strn(struct json *j, const char *s, size_t n);
void json_u64(struct json *j, uint64_t v);
void json_i64(struct json *j, int64_t v);
void json_double(struct json *j, double v);   /* non-finite numbers become null */
void json_bool(struct json *j, bool v);
void json_null(struct json *j);
void json_hex(struct json *j, uint64_t v);    /* as a string "0x..." (above 2^53) */
void json_end(struct json *j);                /* after the top-level value: newline */

/* key and value in one call */
void json_kv_str(struct json *j, const char *key, const char *v);
void json_kv_u64(struct json *j, const char *key, uint64_t v);
void json_kv_double(struct json *j, const char *key, double v);
void json_kv_bool(struct json *j, const char *key, bool v);
void json_kv_hex(struct json *j, const char *key, uint64_t v);
void json_kv_coid(struct json *j, const char *key, uint64_t coid);   /* kov_coid_str */

/* Writes s[0..n) as a JSON string literal, quotes included. */
void json_write_string(FILE *out, const char *s, size_t n);

#endif

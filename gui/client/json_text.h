/* JSON scalars as text, encoded by jansson (Debian's libjansson), for a writer that streams
 * the structure itself (kovctl's --json output, whose `watch` prints frames as they arrive). */
#ifndef KOV_CLIENT_JSON_TEXT_H
#define KOV_CLIENT_JSON_TEXT_H

#include <stddef.h>
#include <stdio.h>

/* s[0..n) as a JSON string literal, quotes included. Any bytes come out as valid JSON and
 * valid UTF-8: each byte that does not start a valid UTF-8 sequence (overlong forms,
 * surrogates and code points above U+10FFFF are not valid) becomes U+FFFD. */
void json_text_string(FILE *out, const char *s, size_t n);
/* The same string as a jansson value (jansson's json_t, declared here without its header,
 * whose names kovctl's writer shares), for a writer that builds the whole document; NULL
 * when memory ran out. */
struct json_t;
struct json_t *json_text_string_value(const char *s, size_t n);
/* A number with 15 significant digits; null when it is not finite. */
void json_text_real(FILE *out, double v);

#endif

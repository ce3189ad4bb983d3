/* The exposition writer: a growing buffer, the two formats' names and escapes. */
#include "expo.h"
#include "common/lib/format.h"
#if __STDC_HOSTED__
#include <stdlib.h>
#include <string.h>
#else
#include <kov.h>
#endif

#define FIRST_CAP (64 * 1024)

void expo_init(struct expo *e, enum http_format format, size_t limit)
{
	*e = (struct expo){ .format = format, .limit = limit };
}

void expo_free(struct expo *e)
{
	free(e->buf);
	e->buf = 0;
	e->len = e->cap = 0;
}

const char *expo_content_type(enum http_format format)
{
	return format == HTTP_FORMAT_OPENMETRICS
		       ? "application/openmetrics-text; version=1.0.0; charset=utf-8"
		       : "text/plain; version=0.0.4; charset=utf-8";
}

/* Room for n more bytes (and a NUL); false, and the exposition failed, when there is none. */
static bool room(struct expo *e, size_t n)
{
	if (e->failed)
		return false;
	if (e->len + n + 1 <= e->cap)
		return true;
	if (e->len + n + 1 > e->limit) {
		e->failed = true;
		return false;
	}
	size_t cap = e->cap ? e->cap : FIRST_CAP;
	while (cap < e->len + n + 1)
		cap *= 2;
	if (cap > e->limit)
		cap = e->limit;
	char *b = malloc(cap);
	if (!b) {
		e->failed = true;
		return false;
	}
	if (e->len)
		memcpy(b, e->buf, e->len);
	free(e->buf);
	e->buf = b;
	e->cap = cap;
	return true;
}

static void put(struct expo *e, const char *s, size_t n)
{
	if (!room(e, n))
		return;
	memcpy(e->buf + e->len, s, n);
	e->len += n;
	e->buf[e->len] = 0;
}

static void puts_(struct expo *e, const char *s)
{
	put(e, s, strlen(s));
}

static void sink(void *ctx, const char *s, size_t n)
{
	put(ctx, s, n);
}

static void putf(struct expo *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct expo *e, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	format_v(sink, e, fmt, ap);
	va_end(ap);
}

/* Escapes backslash and newline, and the double quote where `quote` (label values, and help
 * text in OpenMetrics). */
static void put_escaped(struct expo *e, const char *s, bool quote)
{
	for (; *s; s++) {
		if (*s == '\\')
			put(e, "\\\\", 2);
		else if (*s == '\n')
			put(e, "\\n", 2);
		else if (*s == '"' && quote)
			put(e, "\\\"", 2);
		else
			put(e, s, 1);
	}
}

/* The name a sample of the current family carries in this format. */
static void sample_name(struct expo *e)
{
	puts_(e, e->family);
	if (e->type == EXPO_COUNTER)
		puts_(e, "_total");
	else if (e->type == EXPO_INFO)
		puts_(e, "_info");
}

void expo_family(struct expo *e, const char *name, enum expo_type type, const char *unit,
		 const char *help)
{
	size_t n = strlen(name);
	if (n >= sizeof e->family) {
		e->failed = true;
		return;
	}
	memcpy(e->family, name, n + 1);
	e->type = type;
	bool om = e->format == HTTP_FORMAT_OPENMETRICS;
	static const char *const om_types[] = { "counter", "gauge", "info" };
	/* Prometheus 0.0.4 names a family by its samples' name and has no info type. */
	puts_(e, "# HELP ");
	if (om)
		puts_(e, name);
	else
		sample_name(e);
	put(e, " ", 1);
	put_escaped(e, help, om);
	puts_(e, "\n# TYPE ");
	if (om)
		putf(e, "%s %s\n", name, om_types[type]);
	else {
		sample_name(e);
		puts_(e, type == EXPO_COUNTER ? " counter\n" : " gauge\n");
	}
	if (om && unit)
		putf(e, "# UNIT %s %s\n", name, unit);
}

void expo_sample(struct expo *e)
{
	sample_name(e);
	e->in_labels = false;
}

static void label_key(struct expo *e, const char *key)
{
	put(e, e->in_labels ? "," : "{", 1);
	e->in_labels = true;
	putf(e, "%s=\"", key);
}

void expo_label(struct expo *e, const char *key, const char *value)
{
	label_key(e, key);
	put_escaped(e, value, true);
	put(e, "\"", 1);
}

void expo_labelf(struct expo *e, const char *key, const char *fmt, ...)
{
	char v[128];
	va_list ap;
	va_start(ap, fmt);
	format_buf_v(v, sizeof v, fmt, ap);
	va_end(ap);
	expo_label(e, key, v);
}

static void end_labels(struct expo *e)
{
	if (e->in_labels)
		put(e, "}", 1);
	e->in_labels = false;
}

void expo_value(struct expo *e, uint64_t v)
{
	end_labels(e);
	putf(e, " %llu\n", (unsigned long long)v);
}

void expo_value_fixed(struct expo *e, uint64_t whole, uint64_t frac, int digits)
{
	end_labels(e);
	putf(e, " %llu.%0*llu\n", (unsigned long long)whole, digits, (unsigned long long)frac);
}

void expo_simple(struct expo *e, uint64_t v)
{
	expo_sample(e);
	expo_value(e, v);
}

void expo_end(struct expo *e)
{
	if (e->format == HTTP_FORMAT_OPENMETRICS)
		puts_(e, "# EOF\n");
}

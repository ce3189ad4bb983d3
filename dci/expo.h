/* Writing a metrics exposition in either text format the metrics port serves: Prometheus text
 * 0.0.4, or OpenMetrics 1.0.0. The caller names each family once (its OpenMetrics family name:
 * no _total, no _info) and then its samples; the writer gives each sample its format's name
 * (counters end in _total, info families in _info, an info family is a gauge in 0.0.4),
 * escapes label values and help text, and ends OpenMetrics with # EOF.
 *
 * The text grows in one heap buffer up to a limit. Past the limit, or when memory runs out,
 * the exposition is marked failed and nothing more is written: a caller never serves part of
 * one. Portable (the daemon and the host unit tests). */
#ifndef KOV_DCID_EXPO_H
#define KOV_DCID_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "http.h"

enum expo_type { EXPO_COUNTER, EXPO_GAUGE, EXPO_INFO };

struct expo {
	enum http_format format;
	char *buf;
	size_t len, cap, limit;
	bool failed;
	char family[96];             /* the current family and its type */
	enum expo_type type;
	bool in_labels;              /* a sample's '{' written, '}' not yet */
};

void expo_init(struct expo *e, enum http_format format, size_t limit);
void expo_free(struct expo *e);
/* The Content-Type header value of the format. */
const char *expo_content_type(enum http_format format);

/* A family: its TYPE and HELP lines (and UNIT in OpenMetrics when unit is not NULL; the
 * family's name must then end in _<unit>). */
void expo_family(struct expo *e, const char *name, enum expo_type type, const char *unit,
		 const char *help);
/* A sample of the current family: its name, then labels, then its value. */
void expo_sample(struct expo *e);
void expo_label(struct expo *e, const char *key, const char *value);
void expo_labelf(struct expo *e, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void expo_value(struct expo *e, uint64_t v);
/* A value with a fraction: whole + frac / 10^digits (digits 1..9). */
void expo_value_fixed(struct expo *e, uint64_t whole, uint64_t frac, int digits);
/* One sample with no labels. */
void expo_simple(struct expo *e, uint64_t v);
/* Ends the exposition (# EOF in OpenMetrics). */
void expo_end(struct expo *e);

#endif

/* printf-style formatting without a C library.
 *
 * Conversions: d i u x X o c s p %; flags - 0 + space #; width and precision, each a number
 * or '*'; length modifiers hh h l ll z t j (ignored for c, s and p). %p prints "0x" and 16
 * hex digits; a NULL %s prints "(null)" (cut by a precision like any string). Anything else
 * after '%' is copied to the output as written, e.g. "%q" stays "%q". */
#ifndef KOV_FORMAT_H
#define KOV_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

/* Receives the output in pieces; s is not NUL-terminated. */
typedef void (*format_sink)(void *ctx, const char *s, size_t n);

/* Formats into sink; returns the number of characters produced (INT_MAX if more). */
int format_v(format_sink sink, void *ctx, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* snprintf semantics: writes at most size-1 characters and a NUL when size > 0; returns the
 * length the whole output has, so a result >= size means it was cut. */
int format_buf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int format_buf_v(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

#endif

#include <stdbool.h>
#include <stdint.h>
#include "format.h"

#define INT_LIMIT ((int)(~0u >> 1))

enum { F_LEFT = 1, F_ZERO = 2, F_PLUS = 4, F_SPACE = 8, F_ALT = 16 };
enum length { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_Z, LEN_T, LEN_J };

struct out {
	format_sink sink;
	void *ctx;
	size_t count;
};

struct spec {
	unsigned flags;
	int width;
	int prec;              /* -1 when none was given */
	enum length length;
	char conv;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (n) {
		o->sink(o->ctx, s, n);
		o->count += n;
	}
}

/* Padding goes out in chunks so that a wide field costs few sink calls and no big buffer. */
static void pad(struct out *o, char c, size_t n)
{
	static const char spaces[] = "                                ";
	static const char zeros[] = "00000000000000000000000000000000";
	const char *src = c == '0' ? zeros : spaces;
	while (n) {
		size_t k = n < sizeof spaces - 1 ? n : sizeof spaces - 1;
		put(o, src, k);
		n -= k;
	}
}

static size_t field_pad(const struct spec *sp, size_t len)
{
	return (size_t)sp->width > len ? (size_t)sp->width - len : 0;
}

static void put_field(struct out *o, const struct spec *sp, const char *s, size_t len)
{
	size_t fill = field_pad(sp, len);
	if (!(sp->flags & F_LEFT))
		pad(o, ' ', fill);
	put(o, s, len);
	if (sp->flags & F_LEFT)
		pad(o, ' ', fill);
}

static void put_int(struct out *o, const struct spec *sp, uintmax_t v, bool neg)
{
	const char *digit = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	unsigned base = sp->conv == 'o' ? 8 : sp->conv == 'x' || sp->conv == 'X' ? 16 : 10;
	bool is_signed = sp->conv == 'd' || sp->conv == 'i';
	char prefix[2];
	size_t np = 0;
	if (neg)
		prefix[np++] = '-';
	else if (is_signed && sp->flags & F_PLUS)
		prefix[np++] = '+';
	else if (is_signed && sp->flags & F_SPACE)
		prefix[np++] = ' ';
	else if (base == 16 && sp->flags & F_ALT && v != 0)
		prefix[np++] = '0', prefix[np++] = sp->conv;

	char buf[24];   /* 22 octal digits hold 64 bits */
	size_t nd = 0;
	for (; v; v /= base)
		buf[sizeof buf - 1 - nd++] = digit[v % base];

	size_t prec = sp->prec < 0 ? 1 : (size_t)sp->prec;
	size_t zeros = prec > nd ? prec - nd : 0;
	if (base == 8 && sp->flags & F_ALT && zeros == 0)
		zeros = 1;   /* '#' makes the first octal digit a 0 */

	size_t fill = field_pad(sp, np + zeros + nd);
	if (sp->flags & F_ZERO && !(sp->flags & F_LEFT) && sp->prec < 0) {
		zeros += fill;
		fill = 0;
	}
	if (!(sp->flags & F_LEFT))
		pad(o, ' ', fill);
	put(o, prefix, np);
	pad(o, '0', zeros);
	put(o, buf + sizeof buf - nd, nd);
	if (sp->flags & F_LEFT)
		pad(o, ' ', fill);
}

/* The va_list travels by pointer: passing it by value and using it afterwards is not
 * portable (it is an array type on some ABIs). */
static intmax_t arg_signed(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH: return (signed char)va_arg(*ap, int);
	case LEN_H: return (short)va_arg(*ap, int);
	case LEN_L: return va_arg(*ap, long);
	case LEN_LL: return va_arg(*ap, long long);
	case LEN_Z: return va_arg(*ap, ptrdiff_t);   /* the signed type that matches size_t */
	case LEN_T: return va_arg(*ap, ptrdiff_t);
	case LEN_J: return va_arg(*ap, intmax_t);
	default: return va_arg(*ap, int);
	}
}

static uintmax_t arg_unsigned(va_list *ap, enum length len)
{
	switch (len) {
	case LEN_HH: return (unsigned char)va_arg(*ap, unsigned);
	case LEN_H: return (unsigned short)va_arg(*ap, unsigned);
	case LEN_L: return va_arg(*ap, unsigned long);
	case LEN_LL: return va_arg(*ap, unsigned long long);
	case LEN_Z: return va_arg(*ap, size_t);
	case LEN_T: return va_arg(*ap, size_t);      /* the unsigned type that matches ptrdiff_t */
	case LEN_J: return va_arg(*ap, uintmax_t);
	default: return va_arg(*ap, unsigned);
	}
}

/* Reads a decimal number, saturating instead of overflowing. */
static int parse_num(const char **p)
{
	int v = 0;
	for (; **p >= '0' && **p <= '9'; (*p)++) {
		int d = **p - '0';
		v = v > (INT_LIMIT - d) / 10 ? INT_LIMIT : v * 10 + d;
	}
	return v;
}

static const char *parse_length(const char *p, enum length *len)
{
	switch (*p) {
	case 'h':
		if (p[1] == 'h') {
			*len = LEN_HH;
			return p + 2;
		}
		*len = LEN_H;
		return p + 1;
	case 'l':
		if (p[1] == 'l') {
			*len = LEN_LL;
			return p + 2;
		}
		*len = LEN_L;
		return p + 1;
	case 'z': *len = LEN_Z; return p + 1;
	case 't': *len = LEN_T; return p + 1;
	case 'j': *len = LEN_J; return p + 1;
	default: *len = LEN_NONE; return p;
	}
}

/* Parses the part of a conversion between '%' and the conversion character. */
static const char *parse_spec(const char *p, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; p++) {
		if (*p == '-')
			sp->flags |= F_LEFT;
		else if (*p == '0')
			sp->flags |= F_ZERO;
		else if (*p == '+')
			sp->flags |= F_PLUS;
		else if (*p == ' ')
			sp->flags |= F_SPACE;
		else if (*p == '#')
			sp->flags |= F_ALT;
		else
			break;
	}
	if (*p == '*') {
		int w = va_arg(*ap, int);
		if (w < 0) {   /* a negative '*' width means '-' and its magnitude */
			sp->flags |= F_LEFT;
			w = w < -INT_LIMIT ? INT_LIMIT : -w;
		}
		sp->width = w;
		p++;
	} else {
		sp->width = parse_num(&p);
	}
	if (*p == '.') {
		p++;
		if (*p == '*') {
			int pr = va_arg(*ap, int);
			sp->prec = pr < 0 ? -1 : pr;   /* negative: as if none was given */
			p++;
		} else {
			sp->prec = parse_num(&p);
		}
	}
	return parse_length(p, &sp->length);
}

int format_v(format_sink sink, void *ctx, const char *fmt, va_list ap)
{
	struct out o = { sink, ctx, 0 };
	va_list args;
	va_copy(args, ap);
	const char *p = fmt;
	while (*p) {
		const char *start = p;
		while (*p && *p != '%')
			p++;
		put(&o, start, (size_t)(p - start));
		if (!*p)
			break;
		start = p;
		struct spec sp;
		p = parse_spec(p + 1, &sp, &args);
		if (!*p) {   /* the format ends inside a conversion: keep the text */
			put(&o, start, (size_t)(p - start));
			break;
		}
		sp.conv = *p++;
		switch (sp.conv) {
		case 'd':
		case 'i': {
			intmax_t v = arg_signed(&args, sp.length);
			uintmax_t mag = v < 0 ? (uintmax_t)0 - (uintmax_t)v : (uintmax_t)v;
			put_int(&o, &sp, mag, v < 0);
			break;
		}
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			put_int(&o, &sp, arg_unsigned(&args, sp.length), false);
			break;
		case 'c': {
			char c = (char)va_arg(args, int);
			put_field(&o, &sp, &c, 1);
			break;
		}
		case 's': {
			const char *s = va_arg(args, const char *);
			if (!s)
				s = "(null)";
			size_t n = 0;
			while ((sp.prec < 0 || n < (size_t)sp.prec) && s[n])
				n++;
			put_field(&o, &sp, s, n);
			break;
		}
		case 'p': {
			uint64_t v = (uint64_t)(uintptr_t)va_arg(args, void *);
			char buf[18] = { '0', 'x' };
			for (int i = 0; i < 16; i++)
				buf[2 + i] = "0123456789abcdef"[(v >> (60 - 4 * i)) & 15];
			put_field(&o, &sp, buf, sizeof buf);
			break;
		}
		case '%':
			put(&o, "%", 1);
			break;
		default:
			put(&o, start, (size_t)(p - start));
			break;
		}
	}
	va_end(args);
	return o.count > (size_t)INT_LIMIT ? INT_LIMIT : (int)o.count;
}

struct buf_sink {
	char *buf;
	size_t size;
	size_t len;   /* characters stored, at most size - 1 */
};

static void buf_put(void *ctx, const char *s, size_t n)
{
	struct buf_sink *b = ctx;
	size_t room = b->size ? b->size - 1 - b->len : 0;
	if (n > room)
		n = room;
	for (size_t i = 0; i < n; i++)
		b->buf[b->len + i] = s[i];
	b->len += n;
}

int format_buf_v(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct buf_sink b = { buf, size, 0 };
	int n = format_v(buf_put, &b, fmt, ap);
	if (size)
		buf[b.len] = 0;
	return n;
}

int format_buf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = format_buf_v(buf, size, fmt, ap);
	va_end(ap);
	return n;
}

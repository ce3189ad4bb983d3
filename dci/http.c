/* HTTP/1.x request heads (RFC 9112): the request line, header fields, and the Accept header's
 * media ranges with their q-values (RFC 9110 section 12.5.1). Everything is bounded by the
 * given length; nothing is copied beyond the fixed fields of struct http_request. */
#include "http.h"
#include <stdint.h>
#if __STDC_HOSTED__
#include <string.h>
#else
#include <kov.h>
#endif

static bool is_tchar(char c)   /* RFC 9110 token characters */
{
	if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
		return true;
	for (const char *s = "!#$%&'*+-.^_`|~"; *s; s++)
		if (c == *s)
			return true;
	return false;
}

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Whether s[0, n) equals the lower-case word w, ignoring case. */
static bool word_eq(const char *s, size_t n, const char *w)
{
	size_t k = 0;
	for (; k < n && w[k]; k++)
		if (lower(s[k]) != w[k])
			return false;
	return k == n && !w[k];
}

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* Trims optional white space at both ends of s[*b, *e). */
static void trim(const char *s, size_t *b, size_t *e)
{
	while (*b < *e && is_ows(s[*b]))
		(*b)++;
	while (*e > *b && is_ows(s[*e - 1]))
		(*e)--;
}

/* A q-value ("0", "0.5", "1.000") in thousandths; -1 when malformed. */
static int qvalue(const char *s, size_t n)
{
	if (n == 0 || n > 5 || (s[0] != '0' && s[0] != '1'))
		return -1;
	int q = (s[0] - '0') * 1000;
	if (n == 1)
		return q;
	if (s[1] != '.' || n == 2)
		return -1;
	int scale = 100;
	for (size_t k = 2; k < n; k++, scale /= 10) {
		if (s[k] < '0' || s[k] > '9')
			return -1;
		q += (s[k] - '0') * scale;
	}
	return q <= 1000 ? q : -1;
}

struct accept_q { int openmetrics, text; };   /* best q-values seen, thousandths; -1 none */

/* One media range: type/subtype, then parameters (version, q). */
static void accept_range(const char *s, size_t b, size_t e, struct accept_q *a)
{
	size_t semi = b;
	while (semi < e && s[semi] != ';')
		semi++;
	size_t tb = b, te = semi;
	trim(s, &tb, &te);
	bool om = word_eq(s + tb, te - tb, "application/openmetrics-text");
	bool text = word_eq(s + tb, te - tb, "text/plain");
	bool wild = word_eq(s + tb, te - tb, "text/*") || word_eq(s + tb, te - tb, "*/*");
	if (!om && !text && !wild)
		return;
	int q = 1000;
	bool version_ok = true;
	for (size_t p = semi; p < e;) {
		size_t pb = p + 1, pe = pb;
		while (pe < e && s[pe] != ';')
			pe++;
		p = pe;
		size_t eq = pb;
		while (eq < pe && s[eq] != '=')
			eq++;
		size_t kb = pb, ke = eq, vb = eq < pe ? eq + 1 : pe, ve = pe;
		trim(s, &kb, &ke);
		trim(s, &vb, &ve);
		if (ve - vb >= 2 && s[vb] == '"' && s[ve - 1] == '"') {
			vb++;
			ve--;
		}
		if (word_eq(s + kb, ke - kb, "q")) {
			q = qvalue(s + vb, ve - vb);
			if (q < 0)
				return;               /* a malformed range counts for nothing */
		} else if (word_eq(s + kb, ke - kb, "version")) {
			version_ok = om ? word_eq(s + vb, ve - vb, "1.0.0") || word_eq(s + vb, ve - vb, "0.0.1")
					: word_eq(s + vb, ve - vb, "0.0.4");
		}
	}
	if (!version_ok)
		return;
	int *best = om ? &a->openmetrics : &a->text;
	if (q > *best)
		*best = q;
}

static void accept_scan(const char *s, size_t len, struct accept_q *a)
{
	for (size_t b = 0; b <= len;) {
		size_t e = b;
		while (e < len && s[e] != ',')
			e++;
		accept_range(s, b, e, a);
		b = e + 1;
	}
}

static enum http_format decide(const struct accept_q *a)
{
	return a->openmetrics > 0 && a->openmetrics >= a->text ? HTTP_FORMAT_OPENMETRICS
							    : HTTP_FORMAT_PROMETHEUS;
}

enum http_format http_negotiate(const char *accept, size_t len)
{
	struct accept_q a = { -1, -1 };
	accept_scan(accept, len, &a);
	return decide(&a);
}

/* The end of the line starting at b (the index of its LF), or len when there is none yet. */
static size_t line_end(const char *buf, size_t b, size_t len)
{
	while (b < len && buf[b] != '\n')
		b++;
	return b;
}

static int request_line(const char *s, size_t n, struct http_request *out)
{
	size_t m = 0;
	while (m < n && is_tchar(s[m]))
		m++;
	if (m == 0 || m >= n || s[m] != ' ')
		return -400;
	if (m >= sizeof out->method)
		return -501;
	memcpy(out->method, s, m);
	out->method[m] = 0;
	size_t t = m + 1, te = t;
	while (te < n && s[te] != ' ')
		te++;
	if (te == t || te >= n || s[t] != '/')
		return -400;
	for (size_t k = t; k < te; k++)
		if ((unsigned char)s[k] <= ' ' || s[k] == 0x7f)
			return -400;
	size_t path_end = t;
	while (path_end < te && s[path_end] != '?')
		path_end++;
	if (path_end - t >= sizeof out->path)
		return -414;
	memcpy(out->path, s + t, path_end - t);
	out->path[path_end - t] = 0;
	const char *v = s + te + 1;
	size_t vn = n - te - 1;
	if (vn != 8 || memcmp(v, "HTTP/1.", 7) != 0 || v[7] < '0' || v[7] > '9')
		return vn >= 5 && memcmp(v, "HTTP/", 5) == 0 ? -505 : -400;
	return 0;
}

/* One header field "name: value": a token, a colon, the value without CR, LF or NUL. */
static int header_field(const char *s, size_t n, struct accept_q *a)
{
	size_t c = 0;
	while (c < n && is_tchar(s[c]))
		c++;
	if (c == 0 || c >= n || s[c] != ':')
		return -400;   /* also obsolete line folding (a line starting with white space) */
	for (size_t k = c + 1; k < n; k++)
		if (s[k] == 0 || s[k] == '\r')
			return -400;
	if (word_eq(s, c, "accept"))
		accept_scan(s + c + 1, n - c - 1, a);
	return 0;
}

int http_parse_request(const char *buf, size_t len, struct http_request *out)
{
	*out = (struct http_request){ .format = HTTP_FORMAT_PROMETHEUS };
	struct accept_q a = { -1, -1 };
	size_t b = 0, lines = 0;
	/* RFC 9112 section 2.2: empty lines before the request line are ignored. */
	while (b < len && b < 4 && (buf[b] == '\r' || buf[b] == '\n'))
		b++;
	for (;;) {
		size_t e = line_end(buf, b, len);
		if (e >= len)
			return len >= HTTP_HEAD_MAX ? -431 : 0;
		if (e + 1 > HTTP_HEAD_MAX)
			return -431;
		size_t n = e - b;
		if (n && buf[b + n - 1] == '\r')
			n--;
		for (size_t k = 0; k < n; k++)
			if (buf[b + k] == 0 || buf[b + k] == '\r')
				return -400;
		int rc;
		if (lines == 0) {
			rc = request_line(buf + b, n, out);
		} else if (n == 0) {
			out->format = decide(&a);
			out->head_len = e + 1;
			return (int)out->head_len;
		} else if (lines > HTTP_HEADERS_MAX) {
			rc = -431;
		} else {
			rc = header_field(buf + b, n, &a);
		}
		if (rc < 0)
			return rc;
		lines++;
		b = e + 1;
	}
}

/* The HTTP/1.x request-head parser (http_parse.h). It never reads past len and never writes
 * to the buffer: everything it returns points into it. A head is parsed again from the start
 * each time more bytes arrive (heads are small; this keeps the parser without state). */
#include "http_parse.h"

#define METHOD_MAX 32

static bool is_tchar(unsigned char c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	switch (c) {
	case '!': case '#': case '$': case '%': case '&': case '\'': case '*': case '+':
	case '-': case '.': case '^': case '_': case '`': case '|': case '~':
		return true;
	}
	return false;
}

static unsigned char lower(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? (unsigned char)(c + 32) : c;
}

/* Case-insensitive comparison of s[0, n) with the lower-case word w. */
static bool same_word(const char *s, size_t n, const char *w)
{
	size_t i = 0;
	for (; i < n && w[i]; i++)
		if (lower((unsigned char)s[i]) != (unsigned char)w[i])
			return false;
	return i == n && !w[i];
}

static bool same_bytes(const char *s, size_t n, const char *w)
{
	size_t i = 0;
	for (; i < n && w[i]; i++)
		if (s[i] != w[i])
			return false;
	return i == n && !w[i];
}

bool http_method_is_standard(const char *name, size_t len)
{
	static const char *const standard[] = { "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT",
						"OPTIONS", "TRACE", "PATCH" };
	for (size_t i = 0; i < sizeof standard / sizeof standard[0]; i++)
		if (same_bytes(name, len, standard[i]))
			return true;
	return false;
}

/* The end of the line starting at p (the index of its LF), or `len` if it has not ended. */
static size_t line_end(const char *buf, size_t p, size_t len)
{
	while (p < len && buf[p] != '\n')
		p++;
	return p;
}

/* Checks what has arrived of a request line, buf[s, e) (`complete` when its LF came), and
 * fills the request from a complete one. Returns HTTP_PARSED, HTTP_INCOMPLETE or a status. */
static int request_line(const char *buf, size_t s, size_t e, bool complete, struct http_request *r)
{
	if (complete && e > s && buf[e - 1] == '\r')
		e--;
	size_t p = s;
	while (p < e && is_tchar((unsigned char)buf[p]))
		p++;
	size_t mlen = p - s;
	if (mlen > METHOD_MAX)
		return 501;
	if (p == e)
		return complete ? 400 : HTTP_INCOMPLETE;
	if (buf[p] != ' ' || mlen == 0)
		return 400;
	r->method_name = buf + s, r->method_len = mlen;
	r->method = same_bytes(buf + s, mlen, "GET") ? HTTP_GET :
		    same_bytes(buf + s, mlen, "HEAD") ? HTTP_HEAD :
		    same_bytes(buf + s, mlen, "PUT") ? HTTP_PUT : HTTP_OTHER;
	size_t t = ++p;
	while (p < e && (unsigned char)buf[p] > 0x20 && (unsigned char)buf[p] < 0x7f)
		p++;
	if (p - t > HTTP_TARGET_MAX)
		return 414;
	if (p == e)
		return complete ? 400 : HTTP_INCOMPLETE;
	if (buf[p] != ' ' || p == t)
		return 400;
	r->target = buf + t, r->target_len = p - t;
	size_t v = ++p;
	/* "HTTP/" DIGIT "." DIGIT, checked as far as it has arrived. */
	static const char proto[] = "HTTP/";
	for (size_t i = 0; i < 8 && v + i < e; i++) {
		char c = buf[v + i];
		bool ok = i < 5 ? c == proto[i] : i == 6 ? c == '.' : c >= '0' && c <= '9';
		if (!ok)
			return 400;
	}
	if (!complete)   /* the CR of its CRLF may have come */
		return e - v > 9 || (e - v == 9 && buf[e - 1] != '\r') ? 400 : HTTP_INCOMPLETE;
	if (e - v != 8)
		return 400;
	int major = buf[v + 5] - '0', minor = buf[v + 7] - '0';
	if (major != 1)
		return 505;
	r->minor = minor >= 1 ? 1 : 0;   /* 1.2 and later minors are answered as 1.1 */
	/* The forms of target: origin ("/..."), absolute ("http://host/..."; its path is used),
	 * asterisk (OPTIONS only). */
	if (r->target[0] == '/')
		return HTTP_PARSED;
	if (r->target_len == 1 && r->target[0] == '*')
		return same_bytes(r->method_name, r->method_len, "OPTIONS") ? HTTP_PARSED : 400;
	size_t scheme = same_word(r->target, r->target_len < 7 ? r->target_len : 7, "http://") ? 7 :
			same_word(r->target, r->target_len < 8 ? r->target_len : 8, "https://") ? 8 : 0;
	if (!scheme || r->target_len == scheme)
		return 400;
	size_t q = scheme;
	while (q < r->target_len && r->target[q] != '/' && r->target[q] != '?')
		q++;
	if (q == r->target_len || r->target[q] == '?') {
		r->target = "/", r->target_len = 1;   /* "http://host" and "http://host?q": the root */
		return HTTP_PARSED;
	}
	r->target += q, r->target_len -= q;
	return HTTP_PARSED;
}

/* Parses a Content-Length value; -1 if it is not a plain decimal number of at most 18 digits. */
static long decimal(const char *s, size_t n)
{
	if (n == 0 || n > 18)
		return -1;
	long v = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

/* One field line buf[s, e) (CR stripped). Returns 0 or a status. */
static int field(const char *buf, size_t s, size_t e, struct http_request *r, bool *close,
		 bool *keep)
{
	if (buf[s] == ' ' || buf[s] == '\t')
		return 400;                       /* obsolete line folding */
	size_t p = s;
	while (p < e && is_tchar((unsigned char)buf[p]))
		p++;
	if (p == s || p == e || buf[p] != ':')
		return 400;                       /* no name, no colon, or space before it */
	const char *name = buf + s;
	size_t nlen = p - s;
	size_t v = p + 1, ve = e;
	while (v < ve && (buf[v] == ' ' || buf[v] == '\t'))
		v++;
	while (ve > v && (buf[ve - 1] == ' ' || buf[ve - 1] == '\t'))
		ve--;
	for (size_t i = v; i < ve; i++) {
		unsigned char c = (unsigned char)buf[i];
		if ((c < 0x20 && c != '\t') || c == 0x7f)
			return 400;
	}
	const char *val = buf + v;
	size_t vlen = ve - v;
	if (same_word(name, nlen, "host")) {
		if (r->has_host)
			return 400;                   /* RFC 9112 3.2: more than one Host */
		r->has_host = true;
	} else if (same_word(name, nlen, "content-length")) {
		long n = decimal(val, vlen);
		if (n < 0 || (r->content_length >= 0 && r->content_length != n))
			return 400;
		r->content_length = n;
	} else if (same_word(name, nlen, "transfer-encoding")) {
		return 501;
	} else if (same_word(name, nlen, "connection")) {
		for (size_t i = 0; i < vlen;) {   /* a comma-separated list of options */
			while (i < vlen && (val[i] == ' ' || val[i] == '\t' || val[i] == ','))
				i++;
			size_t j = i;
			while (j < vlen && val[j] != ',' && val[j] != ' ' && val[j] != '\t')
				j++;
			if (same_word(val + i, j - i, "close"))
				*close = true;
			else if (same_word(val + i, j - i, "keep-alive"))
				*keep = true;
			i = j;
		}
	}
	return 0;
}

int http_parse(const char *buf, size_t len, struct http_request *req)
{
	struct http_request r = { .content_length = -1 };
	size_t p = 0;
	while (p < len && (buf[p] == '\n' || (buf[p] == '\r' && p + 1 < len && buf[p + 1] == '\n')))
		p += buf[p] == '\r' ? 2 : 1;      /* empty lines before the request line */
	if (p == len || (buf[p] == '\r' && p + 1 == len))
		return len > HTTP_HEAD_MAX ? 431 : HTTP_INCOMPLETE;
	size_t e = line_end(buf, p, len);
	int rc = request_line(buf, p, e, e < len, &r);
	if (rc != HTTP_PARSED)
		return rc == HTTP_INCOMPLETE && e > HTTP_HEAD_MAX ? 431 : rc;
	bool close = false, keep = false;
	for (p = e + 1;;) {
		if (p > HTTP_HEAD_MAX)
			return 431;
		e = line_end(buf, p, len);
		if (e == len)
			return len > HTTP_HEAD_MAX ? 431 : HTTP_INCOMPLETE;
		if (e + 1 > HTTP_HEAD_MAX)
			return 431;
		size_t end = e > p && buf[e - 1] == '\r' ? e - 1 : e;
		if (end == p)
			break;                        /* the empty line: the head is complete */
		if ((rc = field(buf, p, end, &r, &close, &keep)) != 0)
			return rc;
		p = e + 1;
	}
	if (r.minor == 1 && !r.has_host)
		return 400;                       /* RFC 9112 3.2 */
	r.keep_alive = r.minor == 1 ? !close : keep && !close;
	r.head_len = e + 1;
	*req = r;
	return HTTP_PARSED;
}
